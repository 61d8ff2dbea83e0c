/**
 * Definition of `config view` and `config validate`, which flytectl users reach for
 * (`flytectl config validate|discover`). Actions are loaded when run.
 *
 * @module
 */
import type { Command } from "commander";
import type { Io } from "../../output/io.ts";
import { commandContext } from "../context.ts";

/** The action module, by a specifier computed at run time so `fctl --help` does not parse it (see lazy.ts). */
function loadAction(): Promise<typeof import("../config_action.ts")> {
  return import(new URL("../config_action.ts", import.meta.url).href);
}

/** Adds `config view|validate` under `program`. */
export function addConfigCommands(program: Command, io: Io, signal: AbortSignal): void {
  const config = program.command("config").description("show and check the configuration");
  config
    .command("view")
    .description("the effective configuration: every option, its value and where it came from (secrets redacted)")
    .option("--all", "also list options left at their defaults")
    .action(async (local: { all?: boolean }, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      await (await loadAction()).runConfigView(ctx, { all: local.all === true });
    });
  config
    .command("validate")
    .description("check the config file, environment and flags; exit 2 if anything is invalid")
    .option("--strict", "also fail on unknown keys and deprecated options")
    .action(async (local: { strict?: boolean }, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      await (await loadAction()).runConfigValidate(ctx, { strict: local.strict === true });
    });
}

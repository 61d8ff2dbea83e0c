/**
 * The actions of `config view` and `config validate`, which flytectl users reach for
 * (`flytectl config validate|discover`). Implementations are loaded when run.
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

/** The action of `config view`. */
export function configViewAction(io: Io, signal: AbortSignal) {
  return async (local: { all?: boolean }, command: Command): Promise<void> => {
    const ctx = await commandContext(command, io, signal);
    await (await loadAction()).runConfigView(ctx, { all: local.all === true });
  };
}

/** The action of `config validate`. */
export function configValidateAction(io: Io, signal: AbortSignal) {
  return async (local: { strict?: boolean }, command: Command): Promise<void> => {
    const ctx = await commandContext(command, io, signal);
    await (await loadAction()).runConfigValidate(ctx, { strict: local.strict === true });
  };
}

/**
 * `fctl config validate [--strict]`: checks what the loader cannot see (values only wrong together or
 * against the outside world), one line per problem, exit 2 if any; lists the loader's warnings (unknown keys,
 * deprecated options) at any log level, which `--strict` makes problems, and notes, which fail nothing (no admin
 * endpoint: a file of only `storage:` or `logger:` is valid for flytectl, and for the commands that call no admin).
 *
 * @module
 */
import type { LoadedConfig } from "../../config/load.ts";
import { quote, UsageError } from "../../errors.ts";
import type { Io } from "../../output/io.ts";
import { printLine, printNote } from "../../output/print.ts";
import { leafCommand } from "../command.ts";

/**
 * What the registry's checks (`src/cli/config_checks.ts`) find: problems (values only wrong together or against
 * the world) and notes (what the configuration cannot do, such as call an admin it does not name).
 */
async function findings(loaded: LoadedConfig, io: Io): Promise<{ problems: string[]; notes: string[] }> {
  const [{ CONFIG_CHECKS }, { configNotes, configProblems }] = await Promise.all([
    import("../config_checks.ts"),
    import("../../config/checks.ts"),
  ]);
  const input = { loaded, env: io.env, readTextFile: io.readTextFile };
  return { problems: await configProblems(CONFIG_CHECKS, input), notes: configNotes(CONFIG_CHECKS, input) };
}

/** Whether storage was configured at all (its type, container, endpoint or stow kind set): then it is described. */
function storageConfigured(loaded: LoadedConfig): boolean {
  const keys = ["storage.type", "storage.container", "storage.connection.endpoint", "storage.stow.kind"] as const;
  return keys.some((key) => loaded.sources[key] !== "default");
}

/** What `config validate` takes: `--strict`, which makes the loader's warnings problems. */
export interface ConfigValidateOptions {
  strict: boolean;
}

/** `config validate`. */
export const CONFIG_VALIDATE_COMMAND = leafCommand({
  name: "validate",
  description: "check the config file, environment and flags; exit 2 if anything is invalid",
  arguments: [],
  flags: [{ long: "strict", help: "also fail on unknown keys and deprecated options" }],
  globals: ["config"],
  examples: ["fctl config validate", "fctl config validate -c ~/.flyte/prod.yaml --strict"],
  // The warnings (unknown keys with the nearest valid key, deprecated options) are this command's own report,
  // written whatever logger.level and logger.mute say, rather than log records.
  reportsConfigWarnings: true,
  options: ({ flags }): ConfigValidateOptions => ({ strict: flags.strict === true }),
  async run(ctx, { strict }) {
    const { problems: found, notes } = await findings(ctx.loaded, ctx.io);
    // --strict: each warning is a problem; without it, each is listed after the problems, and does not fail.
    if (strict) found.push(...ctx.loaded.warnings);
    const warnings = strict ? [] : ctx.loaded.warnings;
    for (const problem of found) printNote(ctx.io, `invalid: ${problem}`);
    for (const warning of warnings) printNote(ctx.io, `warning: ${warning}`);
    // A note never fails, even with --strict: flytectl's config validate takes such a configuration.
    for (const note of notes) printNote(ctx.io, `note: ${note}`);
    if (found.length > 0) {
      throw new UsageError(`the configuration has ${found.length} problem${found.length === 1 ? "" : "s"}`);
    }
    if (storageConfigured(ctx.loaded)) {
      const [{ adminPlace, describeStorage }, { storageConfigFrom }] = await Promise.all([
        import("../../storage/validate.ts"),
        import("../../storage/from_config.ts"),
      ]);
      const config = ctx.loaded.config;
      printLine(ctx.io, describeStorage(storageConfigFrom(config), adminPlace(config)));
    }
    const where = ctx.loaded.file ? `config file ${quote(ctx.loaded.file)}` : "no config file";
    const withWarnings = warnings.length === 0
      ? ""
      : ` with ${warnings.length} warning${warnings.length === 1 ? "" : "s"}`;
    printLine(ctx.io, `configuration is valid${withWarnings} (${where}, environment and flags)`);
  },
});

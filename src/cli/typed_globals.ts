/**
 * The global flags of a leaf that reads no configuration (`config init`, `completion`): it is given them as typed,
 * and each value is first checked as loading the configuration checks it, so that `--admin.maxRetries abc` is the
 * same usage error on every command instead of being ignored by some.
 *
 * @module
 */
import { OPTIONS, type OptionSpec } from "../config/schema.ts";
import { parseOptionValue } from "../config/values.ts";
import type { CommandLineGlobals } from "./command.ts";

/**
 * `globals` (global flags by option key, as the parser gives them) for a leaf with `readsConfig: false`.
 *
 * @throws {UsageError} the first value its option refuses, named as loading the configuration names it
 */
export function commandLineGlobals(globals: Readonly<Record<string, unknown>>): CommandLineGlobals {
  for (const option of OPTIONS as readonly OptionSpec[]) {
    const raw = globals[option.key];
    if (raw !== undefined) parseOptionValue(option, raw, `--${option.key}`);
  }
  return { commandLine: globals };
}

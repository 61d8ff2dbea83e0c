/**
 * The action of `get task|tasks [name]` (also the root shorthand `task|tasks`): its flags, which are flytectl's
 * (`--version`, `--latest`, `--execFile`, `--filter.*`; declared in `command_tree.ts`), validated and handed to the
 * implementation, which is loaded lazily.
 *
 * @module
 */
import type { Command } from "commander";
import type { Io } from "../../output/io.ts";
import { quote, UsageError } from "../../errors.ts";
import { commandContext } from "../context.ts";
import { loadLazy } from "../lazy.ts";
import type { GetTaskFlags } from "../get_task_action.ts";

/** The local flags, as commander stores them (dotted names are kept as attribute names). */
interface RawTaskFlags {
  version?: string;
  latest?: boolean;
  execFile?: string;
  "filter.fieldSelector"?: string;
  "filter.sortBy"?: string;
  "filter.asc"?: boolean;
  "filter.limit"?: string;
  "filter.page"?: string;
}

/** A whole number of 1 or more from a flag value; undefined when the flag was not given. */
function positiveInt(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`invalid value ${quote(raw)} for --${flag}: expected a whole number of 1 or more`);
  }
  return n;
}

/** Turns commander's raw values into the action's flags, validating numbers before anything runs. */
export function taskFlags(name: string | undefined, raw: RawTaskFlags): GetTaskFlags {
  return {
    name,
    version: raw.version,
    latest: raw.latest === true,
    execFile: raw.execFile,
    fieldSelector: raw["filter.fieldSelector"],
    sortBy: raw["filter.sortBy"],
    asc: raw["filter.asc"] === true,
    limit: positiveInt(raw["filter.limit"], "filter.limit"),
    page: positiveInt(raw["filter.page"], "filter.page"),
  };
}

/** The action of `get task` (and of the root shorthand `task`). */
export function taskAction(io: Io, signal: AbortSignal) {
  return async (name: string | undefined, _local: unknown, self: Command): Promise<void> => {
    const flags = taskFlags(name, self.optsWithGlobals<RawTaskFlags>());
    // Loading the action (RPC stack, generated protos) is most of the start-up: overlap it with reading the
    // configuration. A failed configuration still wins; the load's own failure then goes nowhere.
    const action = loadLazy<typeof import("../get_task_action.ts")>("getTask");
    action.catch(() => {});
    const ctx = await commandContext(self, io, signal);
    const { runGetTask } = await action;
    await runGetTask(ctx, flags);
  };
}

/**
 * Definition of `get task|tasks [name]` (also the root shorthand `task|tasks`) and its local flags, which are
 * flytectl's: `--version`, `--latest`, `--execFile` and `--filter.*`. The action is loaded lazily.
 *
 * @module
 */
import { Command, Option } from "commander";
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

function localOptions(): Option[] {
  return [
    new Option("--version <version>", "one version of the named task (without a name: filter the listing)"),
    new Option("--latest", "only the newest version of the named task (wins over --version)"),
    new Option("--execFile <file>", "write an execution spec file for the named task (for create execution)"),
    new Option("--filter.fieldSelector <selector>", 'e.g. "task.name=t1,created_at>=2021-05-24T21:43:12Z"'),
    new Option("--filter.sortBy <field>", "sort key (default created_at)"),
    new Option("--filter.asc", "sort ascending (default descending)"),
    new Option("--no-filter.asc").hideHelp(),
    new Option("--filter.limit <n>", "page size (default 100)"),
    new Option("--filter.page <n>", "page number, from 1 (default 1)"),
  ];
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

/** Adds `task|tasks [name]` with its local flags under `parent`. */
export function addTaskCommand(parent: Command, io: Io, signal: AbortSignal, description: string): void {
  const command = new Command("task").copyInheritedSettings(parent);
  for (const option of localOptions()) command.addOption(option);
  if (parent.name() === "get") {
    // cobra lets flytectl users write `get --filter.limit 3 task`; accept the same, hidden from `get --help`.
    for (const option of localOptions()) parent.addOption(option.hideHelp());
  }
  parent.addCommand(
    command
      .aliases(["tasks"])
      .description(description)
      .argument("[name]", "task name; without it, every task of the project and domain")
      .action(async (name: string | undefined, _local: unknown, self: Command) => {
        const flags = taskFlags(name, self.optsWithGlobals<RawTaskFlags>());
        // Loading the action (RPC stack, generated protos) is most of the start-up: overlap it with reading the
        // configuration. A failed configuration still wins; the load's own failure then goes nowhere.
        const action = loadLazy<typeof import("../get_task_action.ts")>("getTask");
        action.catch(() => {});
        const ctx = await commandContext(self, io, signal);
        const { runGetTask } = await action;
        await runGetTask(ctx, flags);
      }),
  );
}

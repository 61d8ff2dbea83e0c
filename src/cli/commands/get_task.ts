/**
 * Definition of `get task|tasks [name]` (also the root shorthand `task|tasks`). The action is
 * loaded lazily.
 *
 * @module
 */
import type { Command } from "commander";
import type { Io } from "../../output/io.ts";
import { commandContext } from "../context.ts";
import { loadLazy } from "../lazy.ts";

/** Adds `task|tasks [name]` with its local flags under `parent`. */
export function addTaskCommand(parent: Command, io: Io, signal: AbortSignal, description: string): void {
  parent
    .command("task")
    .aliases(["tasks"])
    .description(description)
    .argument("[name]", "task name; without it, every task of the project and domain")
    .option("--version <version>", "one version of the named task (without a name: filter the listing)")
    .option("--latest", "only the newest version of the named task (wins over --version)")
    .action(async (name: string | undefined, local: { version?: string; latest?: boolean }, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      const { runGetTask } = await loadLazy<typeof import("../get_task_action.ts")>("getTask");
      await runGetTask(ctx, { name, version: local.version, latest: local.latest === true });
    });
}

/**
 * `fctl get task`: parse → `getTask` → render (and the exec spec file). Loaded lazily (it pulls in the RPC stack).
 *
 * @module
 */
import { getTask, type GetTaskOptions } from "../tasks/get_task.ts";
import { TASK_COLUMNS, taskJson } from "../tasks/task_view.ts";
import { fieldSelectorToFilters } from "../tasks/field_selector.ts";
import { prepareExecFile, writeExecFile } from "../tasks/exec_file.ts";
import { render } from "../output/render.ts";
import { type CommandContext, requireProjectDomain } from "./context.ts";
import { connectAdmin } from "./connect.ts";
import { UsageError } from "../errors.ts";
import type { AdminClient } from "../admin/client.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";

/** Local flags of `get task`, already checked for shape. */
export interface GetTaskFlags {
  name?: string;
  version?: string;
  latest: boolean;
  execFile?: string;
  fieldSelector?: string;
  sortBy?: string;
  asc: boolean;
  limit?: number;
  page?: number;
}

/** Every check that needs no network, so that bad input never costs a connection. */
function checkUsage(format: string, flags: GetTaskFlags): void {
  if (format === "DOT" || format === "DOTURL") throw new UsageError("visualization is only supported on workflows");
  if (flags.latest && !flags.name) throw new UsageError("--latest needs a task name");
  if (flags.execFile !== undefined && !flags.name) throw new UsageError("--execFile needs a task name");
  if (flags.execFile === "") throw new UsageError('invalid value "" for --execFile: expected a file path');
  fieldSelectorToFilters(flags.fieldSelector ?? "");
}

/** Runs `get task` with the resolved configuration. */
export async function runGetTask(ctx: CommandContext, flags: GetTaskFlags): Promise<void> {
  const { project, domain } = requireProjectDomain(ctx.config);
  const format = ctx.config.output;
  checkUsage(format, flags);
  // Asked before any RPC: the user decides about an existing file before waiting on the network.
  const execFile = flags.execFile === undefined ? undefined : await prepareExecFile(ctx.io, flags.execFile);
  const client = connectAdmin(ctx.loaded);
  try {
    const options: GetTaskOptions = { project, domain, ...flags };
    const result = await getTask(client, options);
    if (execFile !== undefined) {
      // The newest version: the one shown when it heads the default listing, else asked for.
      const task = result.kind === "one"
        ? result.task
        : isNewestFirst(options)
        ? result.tasks[0]
        : await newestTask(client, options);
      await writeExecFile(execFile, task, new Date());
      if (ctx.io.stderrIsTerminal) ctx.io.stderr.write(`wrote execution spec ${execFile}\n`);
    }
    const value = result.kind === "one" ? { one: result.task } : { list: result.tasks };
    await render(ctx.io, format, { columns: TASK_COLUMNS, toJson: taskJson, value });
    if (result.kind === "list" && result.hasMore && ctx.io.stderrIsTerminal) {
      ctx.io.stderr.write(`more tasks are available: add --filter.page ${(flags.page ?? 1) + 1} for the next page\n`);
    }
  } finally {
    client.close();
  }
}

async function newestTask(client: AdminClient, options: GetTaskOptions): Promise<Task> {
  const latest = await getTask(client, { ...options, latest: true });
  if (latest.kind !== "one") throw new Error("getTask with latest returned a list");
  return latest.task;
}

function isNewestFirst(options: GetTaskOptions): boolean {
  return (options.sortBy ?? "created_at") === "created_at" && !options.asc && (options.page ?? 1) === 1;
}

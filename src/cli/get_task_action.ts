/**
 * `fctl get task`: parse → `getTask` → render. Loaded lazily (it pulls in the RPC stack).
 *
 * @module
 */
import { getTask } from "../tasks/get_task.ts";
import { TASK_COLUMNS, taskJson } from "../tasks/task_view.ts";
import { render } from "../output/render.ts";
import { type CommandContext, requireProjectDomain } from "./context.ts";
import { connectAdmin } from "./connect.ts";
import { UsageError } from "../errors.ts";

/** Local flags of `get task`. */
export interface GetTaskFlags {
  name?: string;
  version?: string;
  latest: boolean;
}

/** Runs `get task` with the resolved configuration. */
export async function runGetTask(ctx: CommandContext, flags: GetTaskFlags): Promise<void> {
  const { project, domain } = requireProjectDomain(ctx.config);
  const format = ctx.config.output;
  if (format === "DOT" || format === "DOTURL") throw new UsageError("visualization is only supported on workflows");
  const client = connectAdmin(ctx.loaded);
  try {
    const result = await getTask(client, { project, domain, ...flags });
    const value = result.kind === "one" ? { one: result.task } : { list: result.tasks };
    await render(ctx.io, format, { columns: TASK_COLUMNS, toJson: taskJson, value });
  } finally {
    client.close();
  }
}

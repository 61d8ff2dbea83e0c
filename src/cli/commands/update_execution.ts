/**
 * `fctl update execution NAME --archive|--activate`: sets an execution's state (GetExecution, then
 * UpdateExecution), showing the change and asking first (see `update_flow.ts`).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { UPDATE_FLAGS } from "../update_flow.ts";
import { printText } from "../../output/print.ts";

/** The local flags of `update execution`. */
export const UPDATE_EXECUTION_FLAGS = [
  { long: "archive", help: "archive the execution (hidden from default listings)" },
  { long: "activate", help: "activate an archived execution" },
  ...UPDATE_FLAGS,
] as const satisfies readonly FlagSpec[];

/** `update execution`. */
export const UPDATE_EXECUTION_COMMAND: CommandSpec = leafCommand({
  name: "execution",
  aliases: ["executions"],
  description: "archive or activate an execution",
  arguments: [{ name: "name", help: "the execution", required: true, variadic: false }],
  flags: UPDATE_EXECUTION_FLAGS,
  globals: ["config", "project", "domain", "admin.endpoint"],
  examples: [
    "fctl update execution f8a1b2c3d4 -p flytesnacks -d development --archive",
    "fctl update execution f8a1b2c3d4 -p flytesnacks -d development --activate --force",
  ],
  async run(ctx, [name], flags) {
    const { project, domain } = ctx.projectDomain();
    if ((flags.archive === true) === (flags.activate === true)) {
      throw new UsageError("invalid state passed. Specify either --archive or --activate");
    }
    const admin = await ctx.admin({ connectNow: true });
    const [{ getExecution }, { updateExecutionState, executionStateName }, { ExecutionState }, { runUpdate }] =
      await Promise.all([
        import("../../executions/get_execution.ts"),
        import("../../executions/update_execution.ts"),
        import("../../../proto/gen/flyteidl/admin/execution_pb.ts"),
        import("../update_flow.ts"),
      ]);
    const id = { project, domain, name };
    const current = await getExecution(admin, id, ctx.signal);
    const state = flags.archive ? ExecutionState.EXECUTION_ARCHIVED : ExecutionState.EXECUTION_ACTIVE;
    const applied = await runUpdate(ctx, {
      what: `update of execution ${JSON.stringify(name)}`,
      rpc: "UpdateExecution",
      fields: [{
        field: "state",
        before: executionStateName(current.closure?.stateChangeDetails?.state),
        after: executionStateName(state),
      }],
      dryRun: flags.dryRun === true,
      force: flags.force === true,
      apply: () => updateExecutionState(admin, id, state, ctx.signal),
    });
    if (applied) printText(ctx.io, `updated execution ${name} to ${executionStateName(state)}\n`);
  },
});

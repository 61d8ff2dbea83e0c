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
import { type ProjectDomain, projectDomain } from "../project_domain.ts";

/** The local flags of `update execution`. */
export const UPDATE_EXECUTION_FLAGS = [
  { long: "archive", help: "archive the execution (hidden from default listings)" },
  { long: "activate", help: "activate an archived execution" },
  ...UPDATE_FLAGS,
] as const satisfies readonly FlagSpec[];

/** What `update execution` does: archive or activate one execution, asking first unless forced. */
export interface UpdateExecutionCommandOptions {
  id: ProjectDomain & { name: string };
  /** True: archive it; false: activate it. */
  archive: boolean;
  dryRun: boolean;
  force: boolean;
}

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
  options({ args: [name], flags, globals: { config } }): UpdateExecutionCommandOptions {
    const { project, domain } = projectDomain(config);
    if ((flags.archive === true) === (flags.activate === true)) {
      throw new UsageError("invalid state passed. Specify either --archive or --activate");
    }
    return {
      id: { project, domain, name },
      archive: flags.archive === true,
      dryRun: flags.dryRun === true,
      force: flags.force === true,
    };
  },
  async run(ctx, { id, archive, dryRun, force }) {
    const { name } = id;
    const admin = await ctx.admin({ connectNow: true });
    const [{ getExecution }, { updateExecutionState, executionStateName }, { ExecutionState }, { runUpdate }] =
      await Promise.all([
        import("../../executions/get_execution.ts"),
        import("../../executions/update_execution.ts"),
        import("../../../proto/gen/flyteidl/admin/execution_pb.ts"),
        import("../update_flow.ts"),
      ]);
    const current = await getExecution(admin, id, ctx.signal);
    const state = archive ? ExecutionState.EXECUTION_ARCHIVED : ExecutionState.EXECUTION_ACTIVE;
    const applied = await runUpdate(ctx, {
      what: `update of execution ${JSON.stringify(name)}`,
      rpc: "UpdateExecution",
      fields: [{
        field: "state",
        before: executionStateName(current.closure?.stateChangeDetails?.state),
        after: executionStateName(state),
      }],
      dryRun,
      force,
      apply: () => updateExecutionState(admin, id, state, ctx.signal),
    });
    if (applied) printText(ctx.io, `updated execution ${name} to ${executionStateName(state)}\n`);
  },
});

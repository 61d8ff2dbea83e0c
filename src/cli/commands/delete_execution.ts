/**
 * `fctl delete execution|executions NAME…`: terminates running executions (TerminateExecution), one line per
 * execution; a refusal names the execution and why, and the others are still terminated (exit 1 at the end); any
 * other failure stops there, naming every execution left running.
 *
 * @module
 */
import { OperationError, UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { printNote, printText } from "../../output/print.ts";
import { printable } from "../../output/printable.ts";
import { type ProjectDomain, projectDomain } from "../project_domain.ts";

/** The local flags of `delete execution`. */
export const DELETE_EXECUTION_FLAGS = [
  { long: "cause", value: "<text>", help: 'why, recorded as the abort cause (default "terminated by fctl")' },
  { long: "dryRun", help: "say what would be terminated, and send nothing" },
] as const satisfies readonly FlagSpec[];

/** What `delete execution` does: terminate these executions of a project and domain, for this cause. */
export interface DeleteExecutionCommandOptions extends ProjectDomain {
  names: string[];
  /** `--cause`; absent: the library's default. */
  cause?: string;
  dryRun: boolean;
}

/** `delete execution`. */
export const DELETE_EXECUTION_COMMAND: CommandSpec = leafCommand({
  name: "execution",
  aliases: ["executions"],
  description: "terminate running executions",
  arguments: [{ name: "names", help: "the executions to terminate", required: true, variadic: true }],
  flags: DELETE_EXECUTION_FLAGS,
  globals: ["config", "project", "domain", "admin.endpoint"],
  examples: [
    "fctl delete execution f8a1b2c3d4 -p flytesnacks -d development",
    'fctl delete execution f8a1b2c3d4 f9b2c3d4e5 -p flytesnacks -d development --cause "wrong inputs"',
    "fctl delete execution f8a1b2c3d4 -p flytesnacks -d development --dryRun",
  ],
  options({ args: [names], flags, globals: { config } }): DeleteExecutionCommandOptions {
    const { project, domain } = projectDomain(config);
    const empty = names.find((name) => name.trim() === "");
    if (empty !== undefined) throw new UsageError(`invalid execution name ${JSON.stringify(empty)}: expected a name`);
    if (flags.cause !== undefined && flags.cause.trim() === "") {
      throw new UsageError('invalid value "" for --cause: expected a reason, or leave --cause out');
    }
    return { project, domain, names, cause: flags.cause, dryRun: flags.dryRun === true };
  },
  async run(ctx, { project, domain, names: given, cause, dryRun }) {
    // A name given twice is terminated once: its second call would be refused, the execution being aborted already.
    const names = [...new Set(given)];
    if (dryRun) {
      for (const name of names) printText(ctx.io, `would terminate ${printable(name)} (dryRun: nothing sent)\n`);
      return;
    }
    const admin = await ctx.admin({ connectNow: true });
    const { terminateExecution, isExecutionRefusal } = await import("../../executions/terminate_execution.ts");
    const failed: string[] = [];
    for (const [at, name] of names.entries()) {
      try {
        await terminateExecution(admin, { project, domain, name }, { cause, signal: ctx.signal });
        printText(ctx.io, `terminated ${printable(name)}\n`);
      } catch (err) {
        // Only the admin's refusal of this one execution lets the others go on; anything else ends the command,
        // saying first which executions it leaves running (the ones refused, this one, and those not tried).
        if (ctx.signal.aborted) throw err;
        if (!isExecutionRefusal(err)) {
          printNote(ctx.io, `not terminated: ${[...failed, ...names.slice(at)].join(", ")} (stopped at ${name})`);
          throw err;
        }
        // A name is shown escaped: a line break or a terminal escape in it would split or drive the line.
        printNote(ctx.io, `could not terminate ${name}: ${err.message}`);
        failed.push(name);
      }
    }
    if (failed.length > 0) {
      throw new OperationError(
        `${failed.length} of ${names.length} executions not terminated: ${
          failed.map((name) => printable(name)).join(", ")
        }`,
      );
    }
  },
});

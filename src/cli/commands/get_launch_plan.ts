/**
 * `fctl get launchplan|launchplans [name]`: launch plans of a project and domain (or of one workflow with
 * `--workflow`), the versions of one, or one version (`--version`, `--latest`) with its state, schedule, inputs
 * and outputs; `--execFile` writes the execution spec of the named launch plan.
 *
 * @module
 */
import { quote, UsageError } from "../../errors.ts";
import type { GetLaunchPlanOptions } from "../../launchplans/get_launch_plan.ts";
import { checkFormat } from "../../output/check_format.ts";
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import type { CliContext } from "../context.ts";
import { flagError, type FlagOfOption } from "../flag_values.ts";
import {
  checkNameAndVersion,
  filterFlags,
  hintNextPage,
  listOptions,
  oneVersionFlag,
  pagingFlags,
} from "../get_flags.ts";
import { projectDomain } from "../project_domain.ts";

/** The local flags of `get launchplan`. */
export const LAUNCH_PLAN_FLAGS = [
  {
    long: "version",
    value: "<version>",
    help: "one version of the named launch plan (without a name: filter the listing)",
  },
  { long: "latest", help: "only the newest version of the named launch plan (wins over --version)" },
  { long: "workflow", value: "<name>", help: "only the launch plans of this workflow (not with a field selector)" },
  {
    long: "execFile",
    value: "<file>",
    help: "write an execution spec file for the named launch plan (for create execution)",
  },
  ...filterFlags("launch_plan.name=lp1,created_at>=2021-05-24T21:43:12Z"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

/** `--execFile`'s writer (`exec_file.ts`), loaded only with the flag, with the launch plan's spec. */
async function execFileWriter(ctx: CliContext, file: string) {
  const [{ execFileWriter }, { launchPlanExecSpec }] = await Promise.all([
    import("../exec_file.ts"),
    import("../../launchplans/exec_spec.ts"),
  ]);
  return execFileWriter(ctx.io, file, () => ctx.clock.now(), launchPlanExecSpec);
}

/**
 * What `get launchplan` does: the library's query (checked by it), the spec file to write, and how to show the
 * result.
 */
export interface GetLaunchPlanCommandOptions {
  /** The library's options, paging as typed (`launchPlanQuery` refuses a bad one). */
  query: GetLaunchPlanOptions;
  /** The flag each library option came from, to name it in the library's refusal (see `flagError`). */
  flagOf: Readonly<Record<string, FlagOfOption>>;
  /** `--execFile`: where to write the named launch plan's execution spec. */
  execFile?: string;
  format: string;
  wide: boolean;
}

/** `get launchplan`. */
export const GET_LAUNCH_PLAN_COMMAND: CommandSpec = leafCommand({
  name: "launchplan",
  aliases: ["launchplans"],
  description: "list launch plans, or the versions of one launch plan",
  arguments: [{
    name: "name",
    help: "launch plan name; without it, every launch plan of the project and domain",
    required: false,
    variadic: false,
  }],
  flags: LAUNCH_PLAN_FLAGS,
  globals: ["config", "project", "domain", "output", "admin.endpoint"],
  examples: [
    "fctl get launchplan -p flytesnacks -d development",
    "fctl get launchplan -p flytesnacks -d development --workflow core.basic.wf",
    "fctl get launchplan core.basic.wf -p flytesnacks -d development --latest -o yaml",
    "fctl get launchplan core.basic.wf -p flytesnacks -d development --execFile exec.yaml",
  ],
  options({ args: [name], flags, globals: { config } }): GetLaunchPlanCommandOptions {
    const { project, domain } = projectDomain(config);
    checkNameAndVersion("launch plan", name, flags.version);
    checkFormat(config.output, false);
    if (flags.execFile === "") throw new UsageError('invalid value "" for --execFile: expected a file path');
    checkWorkflowFlag(flags.workflow);
    return {
      query: {
        project,
        domain,
        name,
        version: flags.version,
        latest: flags.latest === true,
        workflow: flags.workflow,
        newest: flags.execFile !== undefined,
        ...listOptions(flags),
      },
      flagOf: { ...pagingFlags(flags), latest: oneVersionFlag("latest", "launchplan"), newest: { flag: "execFile" } },
      execFile: flags.execFile,
      format: config.output,
      wide: flags.wide === true,
    };
  },
  async run(ctx, options) {
    const { format } = options;
    const admin = ctx.admin({ connectNow: true });
    await admin.catch(() => {});
    // The renderer loads while the call is on the network.
    const { launchPlanQuery, runLaunchPlanQuery, runLaunchPlanRowQuery } = await import(
      "../../launchplans/get_launch_plan.ts"
    );
    let query;
    try {
      query = launchPlanQuery(options.query);
    } catch (err) {
      throw flagError(err, options.flagOf);
    }
    // A listing of every launch plan has its own short columns; a named one's versions show what tells them apart.
    const columnsOf = (view: typeof import("../../launchplans/launch_plan_columns.ts")) =>
      options.query.name ? view.LAUNCH_PLAN_COLUMNS : view.LAUNCH_PLAN_LIST_COLUMNS;
    if (format === "TABLE" && options.execFile === undefined) {
      // A table shows a few fields: they are all that is decoded, and all whose descriptors are built.
      const [result, view, { renderRows }] = await Promise.all([
        runLaunchPlanRowQuery(await admin, query, ctx.signal),
        import("../../launchplans/launch_plan_columns.ts"),
        import("../../output/render.ts"),
      ]);
      renderRows(ctx.io, columnsOf(view), result.kind === "one" ? [result.launchPlan] : result.items, {
        wide: options.wide,
      });
      if (result.kind === "list") hintNextPage(ctx, result.hasMore, "launch plans", query.page);
      return;
    }
    // Asked before any RPC: the user decides about an existing file before waiting on the network.
    const writeExecFile = options.execFile === undefined ? undefined : await execFileWriter(ctx, options.execFile);
    const [result, view, { launchPlanJson }, { render }] = await Promise.all([
      runLaunchPlanQuery(await admin, query, ctx.signal),
      import("../../launchplans/launch_plan_columns.ts"),
      import("../../launchplans/launch_plan_view.ts"),
      import("../../output/render.ts"),
    ]);
    if (writeExecFile && result.newest) await writeExecFile(result.newest);
    const value = result.kind === "one" ? { one: result.launchPlan } : { list: result.items };
    await render(ctx.io, format, { columns: columnsOf(view), toJson: launchPlanJson, value }, { wide: options.wide });
    if (result.kind === "list") hintNextPage(ctx, result.hasMore, "launch plans", query.page);
  },
});

/**
 * Refuses a `--workflow` that cannot become the selector `workflow.name=W` before any call: an empty one, and one
 * holding "," or "+", which FlyteAdmin's filter strings cannot carry (the field selector's own refusal would name a
 * selector the user never wrote).
 */
function checkWorkflowFlag(workflow: string | undefined): void {
  if (workflow === undefined) return;
  if (workflow === "") throw new UsageError('invalid value "" for --workflow: expected a workflow name');
  if (/[,+]/.test(workflow)) {
    throw new UsageError(
      `invalid value ${quote(workflow)} for --workflow: expected a workflow name without "," or "+" ` +
        "(FlyteAdmin's filters cannot express them)",
    );
  }
}

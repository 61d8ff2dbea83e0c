/**
 * `fctl get workflow|workflows [name]`: the workflow names of a project and domain, the versions of one, or one
 * version (`--version`, `--latest`) with its inputs and outputs; `-o dot`, `-o doturl` and `-o svg` draw one
 * workflow's graph.
 *
 * @module
 */
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import type { Workflow } from "../../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { checkFormat } from "../../output/check_format.ts";
import type { GetWorkflowOptions, GetWorkflowResult } from "../../workflows/get_workflow.ts";
import { flagError, type FlagOfOption } from "../flag_values.ts";
import type { CliContext } from "../context.ts";
import {
  checkNameAndVersion,
  filterFlags,
  hintNextPage,
  listOptions,
  oneVersionFlag,
  pagingFlags,
} from "../get_flags.ts";
import { projectDomain } from "../project_domain.ts";

/** The workflow names of a project and domain, as either read returns them. */
type WorkflowNames = Extract<GetWorkflowResult, { kind: "names" }>;

/** The local flags of `get workflow`. */
export const WORKFLOW_FLAGS = [
  { long: "version", value: "<version>", help: "one version of the named workflow" },
  { long: "latest", help: "only the newest version of the named workflow (wins over --version)" },
  ...filterFlags("workflow.name=wf1,created_at>=2021-05-24T21:43:12Z", "created_at; name, ascending, for names"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

/** What `get workflow` does: the library's query (checked by it), and how to show the result. */
export interface GetWorkflowCommandOptions {
  /** The library's options, paging as typed (`workflowQuery` refuses a bad one). */
  query: GetWorkflowOptions;
  /** The flag each library option came from, to name it in the library's refusal (see `flagError`). */
  flagOf: Readonly<Record<string, FlagOfOption>>;
  format: string;
  /** `-o dot|doturl|svg`: the one workflow's graph. */
  graph: boolean;
  wide: boolean;
}

/** `get workflow`. */
export const GET_WORKFLOW_COMMAND: CommandSpec = leafCommand({
  name: "workflow",
  aliases: ["workflows"],
  description: "list workflow names, the versions of one workflow, or one version",
  arguments: [{
    name: "name",
    help: "workflow name; without it, the workflow names of the project and domain",
    required: false,
    variadic: false,
  }],
  flags: WORKFLOW_FLAGS,
  globals: ["config", "project", "domain", "output", "admin.endpoint"],
  examples: [
    "fctl get workflow -p flytesnacks -d development",
    "fctl get workflow core.basic.wf -p flytesnacks -d development --latest -o yaml",
    "fctl get workflow core.basic.wf -p flytesnacks -d development --version v1 -o dot",
    "fctl get workflow core.basic.wf -p flytesnacks -d development --latest -o svg > wf.svg",
  ],
  options({ args: [name], flags, globals: { config } }): GetWorkflowCommandOptions {
    const { project, domain } = projectDomain(config);
    checkNameAndVersion("workflow", name, flags.version);
    const format = config.output;
    const graph = format === "DOT" || format === "DOTURL" || format === "SVG";
    // Only one workflow has a graph: the names of a project have none.
    if (graph && !name) checkFormat(format, false);
    return {
      query: {
        project,
        domain,
        name,
        version: flags.version,
        // A graph is of one workflow: without --version, the newest.
        latest: flags.latest === true || (graph && !flags.version),
        ...listOptions(flags),
        // Left out unless given: names sort ascending by default.
        asc: flags["filter.asc"],
      },
      flagOf: {
        ...pagingFlags(flags),
        latest: oneVersionFlag("latest", "workflow"),
        version: oneVersionFlag("version", "workflow"),
      },
      format,
      graph,
      wide: flags.wide === true,
    };
  },
  async run(ctx, options) {
    const { format, graph } = options;
    const admin = ctx.admin({ connectNow: true });
    await admin.catch(() => {});
    // Each view loads what it shows, while the connection opens: the names' view the named entity's descriptors
    // (`admin/common.proto`'s tree); a named workflow's columns none; its document or graph the whole workflow's
    // (`workflow_view.ts`), which only a format other than a table needs.
    const table = format === "TABLE";
    const named = options.query.name !== undefined;
    const namesView = named ? undefined : import("../../workflows/named_entity_view.ts");
    const columnsView = named ? import("../../workflows/workflow_columns.ts") : undefined;
    const workflowView = named && !table ? import("../../workflows/workflow_view.ts") : undefined;
    const workflows = await import("../../workflows/get_workflow.ts");
    // The renderer loads once the call has gone out, while it is on the network.
    const renderer = () => import("../../output/render.ts");
    let query;
    try {
      query = workflows.workflowQuery(options.query);
    } catch (err) {
      throw flagError(err, options.flagOf);
    }
    const wide = { wide: options.wide };
    const showNames = async (names: WorkflowNames) => {
      const [{ NAMED_ENTITY_COLUMNS: columns, namedEntityJson: toJson }, { render }] = await Promise.all([
        namesView ?? import("../../workflows/named_entity_view.ts"),
        renderer(),
      ]);
      await render(ctx.io, format, { columns, toJson, value: { list: names.items } }, wide);
      hintNextPage(ctx, names.hasMore, "workflows", query.page);
    };
    if (table) {
      // A table shows a few fields of a workflow: they are all that is decoded, and all whose descriptors are built.
      const [result, { renderRows }] = await Promise.all([
        workflows.runWorkflowRowQuery(await admin, query, ctx.signal),
        renderer(),
      ]);
      if (result.kind === "names") return await showNames(result);
      const columns = await (columnsView ?? import("../../workflows/workflow_columns.ts"));
      if (result.kind === "one") return renderRows(ctx.io, columns.WORKFLOW_COLUMNS, [result.workflow], wide);
      renderRows(ctx.io, columns.WORKFLOW_VERSION_COLUMNS, result.items, wide);
      hintNextPage(ctx, result.hasMore, "workflow versions", query.page);
      return;
    }
    const [result, { render }] = await Promise.all([
      workflows.runWorkflowQuery(await admin, query, ctx.signal),
      renderer(),
    ]);
    if (result.kind === "names") return await showNames(result);
    const [columns, { workflowJson: toJson }] = await Promise.all([
      columnsView ?? import("../../workflows/workflow_columns.ts"),
      workflowView ?? import("../../workflows/workflow_view.ts"),
    ]);
    if (result.kind === "one") {
      if (graph) {
        await writeGraph(ctx, format, result.workflow);
        return;
      }
      await render(
        ctx.io,
        format,
        { columns: columns.WORKFLOW_COLUMNS, toJson, value: { one: result.workflow } },
        wide,
      );
      return;
    }
    const versions = { columns: columns.WORKFLOW_VERSION_COLUMNS, toJson, value: { list: result.items } };
    await render(ctx.io, format, versions, wide);
    hintNextPage(ctx, result.hasMore, "workflow versions", query.page);
  },
});

/**
 * Writes one workflow's graph: DOT text, the viewer's URL (fctl: printed; on a terminal also opened in a browser
 * when the platform has an opener, as the sign-in does; flytectl only opens it, and fails without a browser), or
 * the SVG drawing.
 */
async function writeGraph(ctx: CliContext, format: string, workflow: Workflow): Promise<void> {
  const [{ MAX_DRAWN_NODES, workflowDot }, { printLine, printText }] = await Promise.all([
    import("../../workflows/graph_dot.ts"),
    import("../../output/print.ts"),
  ]);
  const closure = workflow.closure?.compiledWorkflow;
  if (format === "SVG") {
    const { renderDot } = await import("../../workflows/graph_render.ts");
    const svg = await renderDot(workflowDot(closure, MAX_DRAWN_NODES), "svg");
    return printText(ctx.io, svg.endsWith("\n") ? svg : `${svg}\n`);
  }
  const dot = workflowDot(closure);
  if (format === "DOT") return printText(ctx.io, dot.endsWith("\n") ? dot : `${dot}\n`);
  const { workflowDotUrl } = await import("../../workflows/graph_url.ts");
  const url = workflowDotUrl(dot);
  printLine(ctx.io, url);
  if (ctx.io.stdoutIsTerminal) await openInBrowser(ctx, url);
}

/** Opens `url` with the platform's browser opener; a failure only costs the convenience, never the command. */
async function openInBrowser(ctx: CliContext, url: string): Promise<void> {
  const [{ browserCommand, processPlatform }, { commandRunner }] = await Promise.all([
    import("../../auth/browser.ts"),
    import("../../app/run_command.ts"),
  ]);
  const argv = browserCommand(url, processPlatform(ctx.io.env));
  if (!argv) return;
  try {
    const output = await commandRunner(ctx.io.env)(argv, { signal: ctx.signal });
    if (output.code !== 0) ctx.logger.debug("the browser opener failed", { program: argv[0], code: output.code });
  } catch (err) {
    ctx.logger.debug("the browser opener could not be run", { program: argv[0], error: String(err) });
  }
}

/**
 * `fctl get workflow|workflows [name]`: the workflow names of a project and domain, the versions of one, or one
 * version (`--version`, `--latest`) with its inputs and outputs; `-o dot` and `-o doturl` draw one workflow's graph.
 *
 * @module
 */
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import { flagError } from "../flag_values.ts";
import { filterFlags, hintNextPage, listOptions, pagingFlags } from "../get_flags.ts";

/** The local flags of `get workflow`. */
export const WORKFLOW_FLAGS = [
  { long: "version", value: "<version>", help: "one version of the named workflow" },
  { long: "latest", help: "only the newest version of the named workflow (wins over --version)" },
  ...filterFlags("workflow.name=wf1,created_at>=2021-05-24T21:43:12Z", "created_at; name, ascending, for names"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

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
    "fctl get workflow core.basic.wf -p flytesnacks -d development",
    "fctl get workflow core.basic.wf -p flytesnacks -d development --latest -o yaml",
    "fctl get workflow core.basic.wf -p flytesnacks -d development --version v1 -o dot",
  ],
  async run(ctx, [name], flags) {
    const { project, domain } = ctx.projectDomain();
    const format = ctx.config.output;
    const admin = ctx.admin({ connectNow: true });
    await admin.catch(() => {});
    const [{ workflowQuery, runWorkflowQuery }, view, { checkFormat, render }] = await Promise.all([
      import("../../workflows/get_workflow.ts"),
      import("../../workflows/workflow_view.ts"),
      import("../../output/render.ts"),
    ]);
    const graph = format === "DOT" || format === "DOTURL";
    // Only one workflow has a graph: the names of a project have none.
    if (graph && !name) checkFormat(format, false);
    let query;
    try {
      query = workflowQuery({
        project,
        domain,
        name,
        version: flags.version,
        // A graph is of one workflow: without --version, the newest.
        latest: flags.latest === true || (graph && !flags.version),
        ...listOptions(flags),
        // Left out unless given: names sort ascending by default.
        asc: flags["filter.asc"],
      });
    } catch (err) {
      throw flagError(err, { ...pagingFlags(flags), latest: { flag: "latest" }, version: { flag: "version" } });
    }
    const result = await runWorkflowQuery(await admin, query, ctx.signal);
    const wide = { wide: flags.wide };
    if (result.kind === "one") {
      if (graph) {
        const [{ workflowDot }, { workflowDotUrl }] = await Promise.all([
          import("../../workflows/graph_dot.ts"),
          import("../../workflows/graph_url.ts"),
        ]);
        const dot = workflowDot(result.workflow.closure?.compiledWorkflow);
        // fctl: DOTURL prints the viewer's URL (flytectl opens a browser, and fails without one).
        ctx.io.stdout.write(format === "DOT" ? (dot.endsWith("\n") ? dot : `${dot}\n`) : `${workflowDotUrl(dot)}\n`);
        return;
      }
      const one = { columns: view.WORKFLOW_COLUMNS, toJson: view.workflowJson, value: { one: result.workflow } };
      await render(ctx.io, format, one, wide);
      return;
    }
    if (result.kind === "names") {
      const names = { columns: view.NAMED_ENTITY_COLUMNS, toJson: view.namedEntityJson, value: { list: result.items } };
      await render(ctx.io, format, names, wide);
      hintNextPage(ctx, result.hasMore, "workflows", query.page);
      return;
    }
    const versions = {
      columns: view.WORKFLOW_VERSION_COLUMNS,
      toJson: view.workflowJson,
      value: { list: result.items },
    };
    await render(ctx.io, format, versions, wide);
    hintNextPage(ctx, result.hasMore, "workflow versions", query.page);
  },
});

/**
 * `fctl get execution|executions [name]`: executions of a project and domain (newest first), one by name, or with
 * `--details` (or `--nodeID`) its node tree: nodes, task attempts with their logs, inputs and outputs.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import type { ListOptions } from "../../get/list_query.ts";
import { checkFormat } from "../../output/check_format.ts";
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import type { CliContext } from "../context.ts";
import { flagError, type FlagOfOption } from "../flag_values.ts";
import { checkNameAndVersion, filterFlags, hintNextPage, listOptions, pagingFlags } from "../get_flags.ts";
import { type ProjectDomain, projectDomain } from "../project_domain.ts";

/** The local flags of `get execution`. */
export const EXECUTION_FLAGS = [
  { long: "details", help: "the named execution's node tree: nodes, task attempts, logs, inputs and outputs" },
  {
    long: "nodeID",
    value: "<node id>",
    help: "only this node of the named execution's tree, at any depth (implies --details)",
  },
  ...filterFlags("execution.phase=FAILED,execution.name=f8a1b2c3d4"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

/** What `get execution` does: one execution (with its node tree), or a page of them, and how to show it. */
export interface GetExecutionCommandOptions {
  /** The project and domain, and the execution's name if one is named. */
  id: ProjectDomain & { name?: string };
  /** `--details` or `--nodeID`: the named execution's node tree. */
  details: boolean;
  /** `--nodeID`: only this node of the tree. */
  nodeId?: string;
  /** The listing's options, paging as typed (`executionQuery` refuses a bad one). */
  list: ListOptions;
  /** The flag each paging option came from, to name it in the library's refusal. */
  flagOf: Readonly<Record<string, FlagOfOption>>;
  format: string;
  wide: boolean;
}

/** `--details`: the node tree of one execution, as a text tree or a JSON/YAML array. */
async function printDetails(
  ctx: CliContext,
  admin: Promise<Awaited<ReturnType<CliContext["admin"]>>>,
  id: { project: string; domain: string; name: string },
  nodeId: string | undefined,
  format: string,
) {
  const [{ executionDetails }, view, { printNote, printText }] = await Promise.all([
    import("../../executions/execution_details.ts"),
    import("../../executions/details_view.ts"),
    import("../../output/print.ts"),
  ]);
  const nodes = await executionDetails(await admin, id, { nodeId, signal: ctx.signal });
  if (format === "JSON" || format === "YAML") {
    // Through the one document writer: what stdout hides is hidden inside the document, which stays valid.
    const { writeDocument } = await import("../../output/render.ts");
    await writeDocument(ctx.io, format, nodes.map(view.nodeDetailsJson));
    return;
  }
  // An empty tree would print nothing at all: say why on stderr, stdout stays the (empty) tree.
  if (nodes.length === 0) printNote(ctx.io, `execution ${id.name} has no nodes yet`);
  else printText(ctx.io, view.nodeDetailsText(nodes));
}

/** `get execution`. */
export const GET_EXECUTION_COMMAND: CommandSpec = leafCommand({
  name: "execution",
  aliases: ["executions"],
  description: "list executions, or show one execution and its node tree",
  arguments: [{
    name: "name",
    help: "execution name; without it, the executions of the project and domain, newest first",
    required: false,
    variadic: false,
  }],
  flags: EXECUTION_FLAGS,
  globals: ["config", "project", "domain", "output", "admin.endpoint"],
  examples: [
    "fctl get execution -p flytesnacks -d development",
    'fctl get execution -p flytesnacks -d development --filter.fieldSelector "execution.phase=FAILED"',
    "fctl get execution f8a1b2c3d4 -p flytesnacks -d development --details",
    "fctl get execution f8a1b2c3d4 -p flytesnacks -d development --nodeID n0 -o yaml",
  ],
  options({ args: [name], flags, globals: { config } }): GetExecutionCommandOptions {
    const { project, domain } = projectDomain(config);
    checkNameAndVersion("execution", name);
    const details = flags.details === true || flags.nodeID !== undefined;
    if (details && !name) {
      throw new UsageError(`--${flags.nodeID !== undefined ? "nodeID" : "details"} needs an execution name`);
    }
    if (flags.nodeID === "") throw new UsageError('invalid value "" for --nodeID: expected a node id');
    checkFormat(config.output, false);
    return {
      id: { project, domain, name },
      details,
      nodeId: flags.nodeID,
      list: listOptions(flags),
      flagOf: pagingFlags(flags),
      format: config.output,
      wide: flags.wide === true,
    };
  },
  async run(ctx, options) {
    const { id: { project, domain, name }, format, wide } = options;
    // The connection is opened first, so that its round trips overlap loading what the listing needs.
    const admin = ctx.admin({ connectNow: true });
    await admin.catch(() => {});
    if (name && options.details) {
      return await printDetails(ctx, admin, { project, domain, name }, options.nodeId, format);
    }
    // A table shows a few fields of an execution: they are all that is decoded, and all whose descriptors are built;
    // a document reads whole executions.
    const table = format === "TABLE";
    const [executions, { EXECUTION_COLUMNS: columns }] = await Promise.all([
      import("../../executions/get_execution.ts"),
      import("../../executions/execution_columns.ts"),
    ]);
    // The renderer and a document's JSON load once the call has gone out, while it is on the network.
    const renderer = () => import("../../output/render.ts");
    const toJson = async () => (await import("../../executions/execution_view.ts")).executionJson;
    if (name) {
      const id = { project, domain, name };
      if (table) {
        const [row, { renderRows }] = await Promise.all([
          executions.getExecutionRow(await admin, id, ctx.signal),
          renderer(),
        ]);
        return renderRows(ctx.io, columns, [row], { wide });
      }
      const [execution, executionJson, { render }] = await Promise.all([
        executions.getExecution(await admin, id, ctx.signal),
        toJson(),
        renderer(),
      ]);
      return await render(ctx.io, format, { columns, toJson: executionJson, value: { one: execution } }, { wide });
    }
    let query;
    try {
      query = executions.executionQuery({ project, domain, ...options.list });
    } catch (err) {
      throw flagError(err, options.flagOf);
    }
    if (table) {
      const [page, { renderRows }] = await Promise.all([
        executions.runExecutionRowQuery(await admin, query, ctx.signal),
        renderer(),
      ]);
      renderRows(ctx.io, columns, page.items, { wide });
      hintNextPage(ctx, page.hasMore, "executions", query.page);
      return;
    }
    const [page, executionJson, { render }] = await Promise.all([
      executions.runExecutionQuery(await admin, query, ctx.signal),
      toJson(),
      renderer(),
    ]);
    await render(ctx.io, format, { columns, toJson: executionJson, value: { list: page.items } }, { wide });
    hintNextPage(ctx, page.hasMore, "executions", query.page);
  },
});

/**
 * `fctl get project|projects [id]`: one project by id (`GetProject`), or a page of projects (`ListProjects`);
 * `--archived` lists the archived ones the admin hides by default.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import { flagError } from "../flag_values.ts";
import { filterFlags, hintNextPage, listOptions, pagingFlags } from "../get_flags.ts";

/** The local flags of `get project`. */
export const PROJECT_FLAGS = [
  { long: "archived", help: "list archived projects (the admin hides them unless asked; the filter state=1)" },
  ...filterFlags("name contains flyte,state=1"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

/** `get project`. */
export const GET_PROJECT_COMMAND: CommandSpec = leafCommand({
  name: "project",
  aliases: ["projects"],
  description: "list projects, or show one by id",
  arguments: [{ name: "id", help: "project id; without it, a page of projects", required: false, variadic: false }],
  flags: PROJECT_FLAGS,
  globals: ["config", "output", "admin.endpoint"],
  examples: [
    "fctl get project",
    "fctl get project flytesnacks -o yaml",
    "fctl get project --archived",
    'fctl get project --filter.fieldSelector "name contains flyte" --filter.sortBy name --filter.asc',
  ],
  async run(ctx, [id], flags) {
    const format = ctx.config.output;
    const admin = ctx.admin({ connectNow: true });
    await admin.catch(() => {});
    const [{ projectListRequest, listProjects, getProject }, { projectColumns, projectJson }, { checkFormat, render }] =
      await Promise.all([
        import("../../projects/get_project.ts"),
        import("../../projects/project_view.ts"),
        import("../../output/render.ts"),
      ]);
    checkFormat(format, false);
    if (id !== undefined && id.trim() === "") throw new UsageError('invalid project id "": expected a project id');
    const options = { ...listOptions(flags), archived: flags.archived === true };
    try {
      // Checked before any call, also with an id (which ignores them): a bad flag is never silently dropped.
      projectListRequest(options);
    } catch (err) {
      throw flagError(err, pagingFlags(flags));
    }
    if (id !== undefined) {
      const project = await getProject(await admin, id, ctx.signal);
      const toRender = { columns: projectColumns([project]), toJson: projectJson, value: { one: project } };
      await render(ctx.io, format, toRender, { wide: flags.wide });
      return;
    }
    const page = await listProjects(await admin, options, ctx.signal);
    const columns = projectColumns(page.items, options.archived);
    await render(ctx.io, format, { columns, toJson: projectJson, value: { list: page.items } }, { wide: flags.wide });
    hintNextPage(ctx, page.hasMore, "projects", options.page ?? 1);
  },
});

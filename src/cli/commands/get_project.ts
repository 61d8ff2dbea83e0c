/**
 * `fctl get project|projects [id]`: one project by id (`GetProject`), or a page of projects (`ListProjects`);
 * `--archived` lists the archived ones the admin hides by default.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { checkFormat } from "../../output/check_format.ts";
import type { ListProjectsOptions } from "../../projects/get_project.ts";
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import { flagError, type FlagOfOption } from "../flag_values.ts";
import { filterFlags, hintNextPage, listOptions, pagingFlags } from "../get_flags.ts";

/** The local flags of `get project`. */
export const PROJECT_FLAGS = [
  { long: "archived", help: "list archived projects (the admin hides them unless asked; the filter state=1)" },
  ...filterFlags("name contains flyte,state=1"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

/** What `get project` does: one project by id, or a page of them, and how to show it. */
export interface GetProjectCommandOptions {
  /** A project id: that project (the listing options are still checked); none: a page of projects. */
  id?: string;
  /** The library's listing options, paging as typed (`projectListRequest` refuses a bad one). */
  list: ListProjectsOptions;
  /** The flag each paging option came from, to name it in the library's refusal. */
  flagOf: Readonly<Record<string, FlagOfOption>>;
  format: string;
  wide: boolean;
}

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
  options({ args: [id], flags, globals: { config } }): GetProjectCommandOptions {
    checkFormat(config.output, false);
    if (id !== undefined && id.trim() === "") throw new UsageError('invalid project id "": expected a project id');
    return {
      id,
      list: { ...listOptions(flags), archived: flags.archived === true },
      flagOf: pagingFlags(flags),
      format: config.output,
      wide: flags.wide === true,
    };
  },
  async run(ctx, { id, list, flagOf, format, wide }) {
    const admin = ctx.admin({ connectNow: true });
    await admin.catch(() => {});
    const [{ projectListRequest, listProjects, getProject }, { projectColumns, projectJson }] = await Promise.all([
      import("../../projects/get_project.ts"),
      import("../../projects/project_view.ts"),
    ]);
    // The renderer loads once the call has gone out, while it is on the network.
    const renderer = () => import("../../output/render.ts");
    try {
      // Checked before any call, also with an id (which ignores them): a bad flag is never silently dropped.
      projectListRequest(list);
    } catch (err) {
      throw flagError(err, flagOf);
    }
    if (id !== undefined) {
      const [project, { render }] = await Promise.all([getProject(await admin, id, ctx.signal), renderer()]);
      const toRender = { columns: projectColumns([project]), toJson: projectJson, value: { one: project } };
      await render(ctx.io, format, toRender, { wide });
      return;
    }
    const [page, { render }] = await Promise.all([listProjects(await admin, list, ctx.signal), renderer()]);
    const columns = projectColumns(page.items, list.archived);
    await render(ctx.io, format, { columns, toJson: projectJson, value: { list: page.items } }, { wide });
    hintNextPage(ctx, page.hasMore, "projects", list.page ?? 1);
  },
});

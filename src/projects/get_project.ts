/**
 * `getProject` and `listProjects`: reads projects the way flytectl does, with fctl's fixes:
 * one project by id is `GetProject` (an unknown id is an error), and archived projects are listed on request.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { NotFoundError } from "../admin/errors.ts";
import { quote } from "../errors.ts";
import { checkPaging, joinFilters, type ListOptions, type ListPage, listPage, pageRequest } from "../get/list_query.ts";
import type { Project } from "../../proto/gen/flyteidl/admin/project_pb.ts";

/** The admin filter that selects archived projects (`Project.State.ARCHIVED` is 1). */
export const ARCHIVED_FILTER = "eq(state,1)";

/**
 * What projects to list. FlyteAdmin hides archived projects when a listing has no filter at all; `archived`
 * lists them (the filter `state=1`, which a field selector can also say).
 *
 * ```ts
 * import { connect, listProjects, type ListProjectsOptions } from "@fctl/fctl";
 *
 * const options: ListProjectsOptions = { archived: true, sortBy: "name", asc: true, limit: 50 };
 * await using flyte = await connect();
 * const page = await listProjects(flyte.client, options);
 * console.log(page.items.map((project) => project.id));
 * ```
 */
export interface ListProjectsOptions extends ListOptions {
  /** Only archived projects. */
  archived?: boolean;
}

/**
 * The `ListProjects` request of `options`, checked without any RPC (so that a caller can refuse bad input before
 * connecting; {@link listProjects} does the same).
 *
 * ```ts
 * import { projectListRequest } from "@fctl/fctl";
 *
 * const request = projectListRequest({ archived: true, limit: 10, page: 2 });
 * console.log(request.filters, request.token); // "eq(state,1)" "10"
 * ```
 *
 * @throws {InvalidOptionError} limit or page below 1, a bad field selector
 */
export function projectListRequest(options: ListProjectsOptions = {}): {
  limit: number;
  token: string;
  filters: string;
  sortBy: { key: string; direction: number };
} {
  const paging = checkPaging(options);
  const filters = joinFilters(options.fieldSelector, options.archived ? ARCHIVED_FILTER : undefined);
  return { ...pageRequest(options, paging), filters };
}

/**
 * A page of projects (`ListProjects`).
 *
 * ```ts
 * import { connect, listProjects } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const page = await listProjects(flyte.client, { fieldSelector: "name contains flyte" });
 * for (const project of page.items) console.log(project.id, project.name);
 * if (page.hasMore) console.log("there may be more: ask for page 2");
 * ```
 *
 * @throws {InvalidOptionError} see {@link projectListRequest}
 * @throws {AdminError} the call failed
 */
export async function listProjects(
  client: AdminClient,
  options: ListProjectsOptions = {},
  signal?: AbortSignal,
): Promise<ListPage<Project>> {
  const request = projectListRequest(options);
  const response = await client.admin.listProjects(request, { signal });
  return listPage(response.projects, response.token, request.limit);
}

/**
 * One project by id (`GetProject`), archived or not.
 *
 * ```ts
 * import { connect, getProject, NotFoundError } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * try {
 *   const project = await getProject(flyte.client, "flytesnacks");
 *   console.log(project.name, project.domains.map((domain) => domain.id));
 * } catch (err) {
 *   if (err instanceof NotFoundError) console.error(err.message); // project "flytesnacks" not found
 *   else throw err;
 * }
 * ```
 *
 * @throws {NotFoundError} no project has that id
 * @throws {AdminError} the call failed otherwise
 */
export async function getProject(client: AdminClient, id: string, signal?: AbortSignal): Promise<Project> {
  try {
    return await client.admin.getProject({ id }, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) {
      const missing = `project ${quote(id)} not found`;
      throw new NotFoundError("GetProject", err.serverMessage, missing, { cause: err });
    }
    throw err;
  }
}

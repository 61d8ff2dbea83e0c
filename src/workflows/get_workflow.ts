/**
 * `getWorkflow`: reads workflows the way flytectl does, with fctl's fixes: without a name,
 * the workflow names of a project and domain (`ListNamedEntities`, sorted by name: named entities have no
 * creation time); with a name, its versions (`ListWorkflows`, newest first); `latest` (newest by creation time,
 * whatever the sort flags) or `version`, one workflow with its compiled closure (`GetWorkflow`).
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { InvalidOptionError } from "../errors.ts";
import {
  ASCENDING,
  checkPaging,
  DESCENDING,
  joinFilters,
  type ListOptions,
  type ListPage,
  listPage,
  pageRequest,
  readVersions,
  requireName,
  type VersionCalls,
} from "../get/list_query.ts";
import type { NamedEntity } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { Workflow } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import type { WorkflowRow } from "../../proto/gen/fctl/rows/workflow_rows_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

/**
 * What to read.
 *
 * ```ts
 * import { connect, getWorkflow, type GetWorkflowOptions } from "@fctl/fctl";
 *
 * const options: GetWorkflowOptions = { project: "flytesnacks", domain: "development", name: "core.basic.wf", latest: true };
 * await using flyte = await connect();
 * const result = await getWorkflow(flyte.client, options);
 * if (result.kind === "one") console.log(result.workflow.id?.version);
 * ```
 */
export interface GetWorkflowOptions extends ListOptions {
  /** Project of the workflows. */
  project: string;
  /** Domain of the workflows. */
  domain: string;
  /** A workflow name: its versions; without it, the workflow names of the project and domain. */
  name?: string;
  /** With a name: that version only (GetWorkflow). */
  version?: string;
  /** Only the newest version of the named workflow, by creation time (wins over `version`). */
  latest?: boolean;
  /**
   * Sort direction: ascending when true. Left out, versions are newest first and names in ascending order
   * (the sort key of names defaults to `name`).
   */
  asc?: boolean;
}

/**
 * Workflow names, a page of versions, or the one workflow asked for by version or `latest`: whole workflows, or
 * with `W` the rows of {@link WorkflowRowsResult}.
 *
 * ```ts
 * import { connect, getWorkflow, type GetWorkflowResult } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result: GetWorkflowResult = await getWorkflow(flyte.client, { project: "flytesnacks", domain: "development" });
 * if (result.kind === "names") console.log(result.items.map((entity) => entity.id?.name));
 * ```
 */
export type GetWorkflowResult<W = Workflow> =
  | (Omit<ListPage<NamedEntity>, "kind"> & { kind: "names" })
  | ListPage<W>
  | { kind: "one"; workflow: W };

/**
 * Checked {@link GetWorkflowOptions}, with paging decided and the field selector translated: what
 * {@link runWorkflowQuery} sends.
 *
 * ```ts
 * import { connect, runWorkflowQuery, type WorkflowQuery, workflowQuery } from "@fctl/fctl";
 *
 * const query: WorkflowQuery = workflowQuery({ project: "flytesnacks", domain: "development", limit: 10 });
 * await using flyte = await connect();
 * console.log((await runWorkflowQuery(flyte.client, query)).kind); // "names"
 * ```
 */
export type WorkflowQuery = GetWorkflowOptions & { limit: number; page: number; filters: string };

/**
 * Checks `options` without any RPC; {@link getWorkflow} does the same.
 *
 * ```ts
 * import { workflowQuery } from "@fctl/fctl";
 *
 * const query = workflowQuery({ project: "flytesnacks", domain: "development", fieldSelector: "name contains basic" });
 * console.log(query.filters); // "contains(name,basic)"
 * ```
 *
 * @throws {InvalidOptionError} limit or page below 1, `latest` or `version` without a name, a bad field selector
 */
export function workflowQuery(options: GetWorkflowOptions): WorkflowQuery {
  const paging = checkPaging(options);
  requireName("latest", options.latest, options.name, "workflow");
  if (options.version && !options.name) {
    // Named entities have no versions: a version filter on them could only ever be refused by the admin.
    throw new InvalidOptionError("version needs a workflow name: it selects one version of one workflow", {
      option: "version",
      value: options.version,
      expected: "a workflow name",
    });
  }
  return { ...options, ...paging, filters: joinFilters(options.fieldSelector) };
}

/**
 * Reads workflows from the admin service.
 *
 * ```ts
 * import { connect, getWorkflow } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const scope = { project: "flytesnacks", domain: "development" };
 * const versions = await getWorkflow(flyte.client, { ...scope, name: "core.basic.wf", limit: 5 });
 * if (versions.kind === "list") console.log(versions.items.map((workflow) => workflow.id?.version));
 * ```
 *
 * @throws {InvalidOptionError} see {@link workflowQuery}
 * @throws {NotFoundError} a named workflow has no version, or `GetWorkflow` found no such version
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export async function getWorkflow(
  client: AdminClient,
  options: GetWorkflowOptions,
  signal?: AbortSignal,
): Promise<GetWorkflowResult> {
  // Async, so that a bad option rejects the promise (a caller's `.catch` sees it) instead of throwing.
  return await runWorkflowQuery(client, workflowQuery(options), signal);
}

/**
 * Reads the workflows of a query {@link workflowQuery} checked; `signal` cancels the calls.
 *
 * ```ts
 * import { connect, runWorkflowQuery, workflowQuery } from "@fctl/fctl";
 *
 * // Checked before connecting: a bad selector is refused without a connection.
 * const query = workflowQuery({ project: "flytesnacks", domain: "development", name: "core.basic.wf", latest: true });
 * await using flyte = await connect();
 * console.log((await runWorkflowQuery(flyte.client, query)).kind); // "one"
 * ```
 */
export function runWorkflowQuery(
  client: AdminClient,
  query: WorkflowQuery,
  signal?: AbortSignal,
): Promise<GetWorkflowResult> {
  return readWorkflows(client, client.admin, query, signal);
}

/**
 * What {@link runWorkflowRowQuery} reads: workflow names, a page of a workflow's versions, or the one a query
 * names, as the workflow tables show them (versions as rows: see `AdminRowsClient`).
 *
 * ```ts
 * import { connect, runWorkflowRowQuery, workflowQuery, type WorkflowRowsResult } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const query = workflowQuery({ project: "flytesnacks", domain: "development", name: "core.basic.wf", latest: true });
 * const result: WorkflowRowsResult = await runWorkflowRowQuery(flyte.client, query);
 * if (result.kind === "one") console.log(result.workflow.closure?.compiledWorkflow?.primary?.template?.interface);
 * ```
 */
export type WorkflowRowsResult = GetWorkflowResult<WorkflowRow>;

/**
 * Reads what `fctl get workflow`'s tables show of a query's workflows: the calls of {@link runWorkflowQuery}, a
 * workflow's versions decoded into rows, so that only the descriptors of those few fields are built and only those
 * fields decoded (one workflow's interface, not its compiled graph); the names of a project and domain are named
 * entities either way. A graph or a document needs whole workflows ({@link runWorkflowQuery}).
 *
 * ```ts
 * import { connect, runWorkflowRowQuery, workflowQuery } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const query = workflowQuery({ project: "flytesnacks", domain: "development", name: "core.basic.wf" });
 * const result = await runWorkflowRowQuery(flyte.client, query);
 * if (result.kind === "list") console.log(result.items.map((workflow) => workflow.id?.version));
 * ```
 *
 * @throws {NotFoundError} a named workflow has no version, or `GetWorkflow` found no such version
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export function runWorkflowRowQuery(
  client: AdminClient,
  query: WorkflowQuery,
  signal?: AbortSignal,
): Promise<WorkflowRowsResult> {
  return readWorkflows(client, client.rows, query, signal);
}

/** How workflow versions are read, through flyteidl's calls (`client.admin`) or the rows' (`client.rows`): the same RPCs. */
const WORKFLOWS = {
  noun: "workflow",
  resourceType: ResourceType.WORKFLOW,
  list: "listWorkflows",
  items: "workflows",
  get: "getWorkflow",
} as const;

/** Names through `client`, versions through `calls`. */
async function readWorkflows<T extends { id?: { project: string; domain: string; name: string; version: string } }>(
  client: AdminClient,
  calls: VersionCalls<T, typeof WORKFLOWS>,
  query: WorkflowQuery,
  signal?: AbortSignal,
): Promise<GetWorkflowResult<T>> {
  const { project, domain } = query;
  if (!query.name) {
    const page = pageRequest(query, query);
    // FlyteAdmin has no created_at column for named entities: by name, ascending unless `asc` is false; a sort key
    // the user names goes the way `asc` says, as in every other listing.
    const ascending = query.sortBy === undefined ? query.asc !== false : query.asc === true;
    const request = {
      resourceType: ResourceType.WORKFLOW,
      project,
      domain,
      limit: page.limit,
      token: page.token,
      filters: query.filters,
      sortBy: { key: query.sortBy ?? "name", direction: ascending ? ASCENDING : DESCENDING },
    };
    const response = await client.admin.listNamedEntities(request, { signal });
    return { ...listPage(response.entities, response.token, query.limit), kind: "names" };
  }
  const result = await readVersions(WORKFLOWS, calls, { ...query, asc: query.asc === true }, signal);
  if (result.kind === "list") return result;
  // A listed workflow's closure holds only its interface (FlyteAdmin): `latest` reads the version it found whole.
  const id = result.item.id;
  const workflow = query.latest && id
    ? await calls.getWorkflow({ id: { ...id, resourceType: ResourceType.WORKFLOW } }, { signal })
    : result.item;
  return { kind: "one", workflow };
}

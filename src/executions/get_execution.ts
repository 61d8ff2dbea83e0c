/**
 * `listExecutions` and `getExecution`: executions read the way flytectl reads them (ListExecutions with the shared
 * paging, sort and field selector; GetExecution by name), with fctl's fixes: the selector's `execution.name` (and
 * `name`, `execution.project`, `execution.domain`) reach FlyteAdmin as the columns it filters on, and a missing
 * execution is an error naming it.
 *
 * @module
 */
import type { AdminClient, CallOptions } from "../admin/client.ts";
import { NotFoundError } from "../admin/errors.ts";
import { quote } from "../errors.ts";
import {
  checkPaging,
  joinFilters,
  type ListOptions,
  type ListPage,
  listPage,
  pageRequest,
  type SortBy,
} from "../get/list_query.ts";
import type { Execution } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import type { ExecutionRow } from "../../proto/gen/fctl/rows/execution_rows_pb.ts";

/**
 * The fields a selector or sort key may name that FlyteAdmin's executions table calls otherwise: its columns are
 * `execution_name`, `execution_project` and `execution_domain`, so `execution.name` is refused there as
 * `'e.name' is invalid filter`.
 */
const EXECUTION_FIELDS: Readonly<Record<string, string>> = {
  "name": "execution_name",
  "execution.name": "execution_name",
  "project": "execution_project",
  "execution.project": "execution_project",
  "domain": "execution_domain",
  "execution.domain": "execution_domain",
};

/**
 * What to list.
 *
 * ```ts
 * import type { ListExecutionsOptions } from "@fctl/fctl";
 *
 * const options: ListExecutionsOptions = {
 *   project: "flytesnacks",
 *   domain: "development",
 *   fieldSelector: "execution.phase=SUCCEEDED",
 *   limit: 20,
 * };
 * console.log(options.fieldSelector);
 * ```
 */
export interface ListExecutionsOptions extends ListOptions {
  /** Project of the executions. */
  project: string;
  /** Domain of the executions. */
  domain: string;
}

/**
 * A checked listing of executions: what {@link executionQuery} returns.
 *
 * ```ts
 * import { executionQuery, type ExecutionQuery } from "@fctl/fctl";
 *
 * const query: ExecutionQuery = executionQuery({ project: "flytesnacks", domain: "development", page: 2, limit: 10 });
 * console.log(query.limit, query.page); // 10 2
 * ```
 */
export interface ExecutionQuery {
  /** Project of the executions. */
  readonly project: string;
  /** Domain of the executions. */
  readonly domain: string;
  /** Page size. */
  readonly limit: number;
  /** 1-based page. */
  readonly page: number;
  /** The sort key as FlyteAdmin names it (default `created_at`). */
  readonly sortBy?: string;
  /** Ascending instead of descending. */
  readonly asc?: boolean;
  /** The admin filter string, its fields renamed to the executions table's columns. */
  readonly filters: string;
}

/** A filter term's field renamed to the executions table's column (terms are `fn(field,value)` joined by `+`). */
function renameFields(filters: string): string {
  if (filters === "") return "";
  return filters.split("+").map((term) =>
    term.replace(/^([a-z_]+)\(([A-Za-z0-9_.]+),/, (whole, fn, field) => {
      const column = EXECUTION_FIELDS[field];
      return column ? `${fn}(${column},` : whole;
    })
  ).join("+");
}

/**
 * Checks `options` without any RPC and translates the field selector; {@link listExecutions} does the same.
 *
 * ```ts
 * import { executionQuery } from "@fctl/fctl";
 *
 * const query = executionQuery({ project: "flytesnacks", domain: "development", fieldSelector: "execution.name=abc" });
 * console.log(query.filters); // "eq(execution_name,abc)"
 * ```
 *
 * @throws {InvalidOptionError} limit or page below 1
 * @throws {UsageError} a bad field selector
 */
export function executionQuery(options: ListExecutionsOptions): ExecutionQuery {
  const paging = checkPaging(options);
  const sortBy = options.sortBy === undefined ? undefined : EXECUTION_FIELDS[options.sortBy] ?? options.sortBy;
  return {
    project: options.project,
    domain: options.domain,
    ...paging,
    sortBy,
    asc: options.asc,
    filters: renameFields(joinFilters(options.fieldSelector)),
  };
}

/**
 * Reads the page of executions a checked query asks for (newest first by default); `signal` cancels the call.
 *
 * ```ts
 * import { connect, executionQuery, runExecutionQuery } from "@fctl/fctl";
 *
 * const query = executionQuery({ project: "flytesnacks", domain: "development", limit: 10 });
 * await using flyte = await connect();
 * console.log((await runExecutionQuery(flyte.client, query)).items.length);
 * ```
 *
 * @throws {AdminError} the admin refused the call (a filter naming no column), or it could not be made
 */
export function runExecutionQuery(
  client: AdminClient,
  query: ExecutionQuery,
  signal?: AbortSignal,
): Promise<ListPage<Execution>> {
  return readExecutions(client.admin, query, signal);
}

/**
 * Reads what `fctl get execution`'s table shows of the page a checked query asks for: the call of
 * {@link runExecutionQuery}, its answer decoded into rows (see `AdminRowsClient`), so that only the descriptors of
 * those few fields are built and only those fields decoded (not an execution's inputs or outputs).
 *
 * ```ts
 * import { connect, executionQuery, runExecutionRowQuery } from "@fctl/fctl";
 *
 * const query = executionQuery({ project: "flytesnacks", domain: "development", limit: 10 });
 * await using flyte = await connect();
 * const page = await runExecutionRowQuery(flyte.client, query);
 * console.log(page.items.map((execution) => execution.closure?.phase));
 * ```
 *
 * @throws {AdminError} the admin refused the call (a filter naming no column), or it could not be made
 */
export function runExecutionRowQuery(
  client: AdminClient,
  query: ExecutionQuery,
  signal?: AbortSignal,
): Promise<ListPage<ExecutionRow>> {
  return readExecutions(client.rows, query, signal);
}

/** The execution calls a read makes: flyteidl's (`client.admin`) or the rows' (`client.rows`), the same RPCs. */
interface ExecutionCalls<T> {
  listExecutions(
    request: { id: { project: string; domain: string }; filters: string; limit: number; token: string; sortBy: SortBy },
    options: CallOptions,
  ): Promise<{ executions: T[]; token: string }>;
  getExecution(request: { id: ExecutionName }, options: CallOptions): Promise<T>;
}

async function readExecutions<T>(calls: ExecutionCalls<T>, query: ExecutionQuery, signal?: AbortSignal) {
  const response = await calls.listExecutions({
    id: { project: query.project, domain: query.domain },
    filters: query.filters,
    ...pageRequest(query, query),
  }, { signal });
  return listPage(response.executions, response.token, query.limit);
}

/**
 * Lists the executions of a project and domain: a page, newest first unless sorted otherwise.
 *
 * ```ts
 * import { connect, listExecutions } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const page = await listExecutions(flyte.client, { project: "flytesnacks", domain: "development", limit: 5 });
 * for (const execution of page.items) console.log(execution.id?.name, execution.closure?.phase);
 * ```
 *
 * @throws {InvalidOptionError} see {@link executionQuery}
 * @throws {AdminError} the admin refused the call, or it could not be made
 */
export async function listExecutions(
  client: AdminClient,
  options: ListExecutionsOptions,
  signal?: AbortSignal,
): Promise<ListPage<Execution>> {
  // Async, so that a bad option rejects the promise (a caller's `.catch` sees it) instead of throwing.
  return await runExecutionQuery(client, executionQuery(options), signal);
}

/**
 * Which execution.
 *
 * ```ts
 * import type { ExecutionName } from "@fctl/fctl";
 *
 * const id: ExecutionName = { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" };
 * console.log(id.name);
 * ```
 */
export interface ExecutionName {
  /** Project of the execution. */
  project: string;
  /** Domain of the execution. */
  domain: string;
  /** The execution's name. */
  name: string;
}

/** The message of a missing execution: its name, project and domain. */
export function missingExecution(id: ExecutionName): string {
  return `execution ${quote(id.name)} not found in project ${quote(id.project)}, domain ${quote(id.domain)}`;
}

/**
 * Reads one execution (GetExecution).
 *
 * ```ts
 * import { connect, getExecution } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const execution = await getExecution(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" });
 * console.log(execution.closure?.phase, execution.closure?.startedAt);
 * ```
 *
 * @throws {NotFoundError} no such execution, the message naming it, its project and domain
 * @throws {AdminError} any other refusal, or a call that could not be made
 */
export function getExecution(client: AdminClient, id: ExecutionName, signal?: AbortSignal): Promise<Execution> {
  return readExecution(client.admin, id, signal);
}

/**
 * Reads what `fctl get execution NAME`'s table shows of one execution: the call of {@link getExecution}, its
 * answer decoded into a row (see `AdminRowsClient`).
 *
 * ```ts
 * import { connect, getExecutionRow } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const row = await getExecutionRow(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" });
 * console.log(row.closure?.phase, row.closure?.startedAt);
 * ```
 *
 * @throws {NotFoundError} no such execution, the message naming it, its project and domain
 * @throws {AdminError} any other refusal, or a call that could not be made
 */
export function getExecutionRow(client: AdminClient, id: ExecutionName, signal?: AbortSignal): Promise<ExecutionRow> {
  return readExecution(client.rows, id, signal);
}

async function readExecution<T>(calls: ExecutionCalls<T>, id: ExecutionName, signal?: AbortSignal): Promise<T> {
  try {
    return await calls.getExecution({ id }, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new NotFoundError(err.rpc, err.serverMessage, missingExecution(id), { cause: err });
    }
    throw err;
  }
}

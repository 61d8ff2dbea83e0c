/**
 * `getTask`: reads tasks the way flytectl does, with fctl's fixes.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import {
  checkPaging,
  isNewestFirst,
  joinFilters,
  readVersions,
  requireName,
  type VersionCalls,
  type VersionsQuery,
} from "../get/list_query.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { TaskRow } from "../../proto/gen/fctl/rows/task_rows_pb.ts";
import { RESOURCE_TYPE } from "../get/resource_type.ts";

/**
 * What to read.
 *
 * ```ts
 * import { connect, getTask, type GetTaskOptions } from "@fctl/fctl";
 *
 * const options: GetTaskOptions = {
 *   project: "flytesnacks",
 *   domain: "development",
 *   fieldSelector: "task.name contains basic",
 *   sortBy: "created_at",
 *   limit: 20,
 * };
 * await using flyte = await connect();
 * const result = await getTask(flyte.client, options);
 * if (result.kind === "list") console.log(result.tasks.map((task) => task.id?.name), result.hasMore);
 * ```
 */
export interface GetTaskOptions {
  /** Project of the tasks. */
  project: string;
  /** Domain of the tasks. */
  domain: string;
  /** A task name: its versions; without it, every task of the project and domain. */
  name?: string;
  /** With a name: that version only (GetTask). Without a name: a `task.version` filter. */
  version?: string;
  /** Only the newest version of the named task, by creation time (wins over `version`). */
  latest?: boolean;
  /** Page size (default 100). */
  limit?: number;
  /** 1-based page (default 1). */
  page?: number;
  /** Sort key (default `created_at`). */
  sortBy?: string;
  /** Ascending instead of descending. */
  asc?: boolean;
  /** A flytectl field selector, e.g. `task.name=t1,created_at>=2021-05-24T21:43:12Z` (see `fieldSelectorToFilters`). */
  fieldSelector?: string;
  /**
   * Also find the newest version of the named task (for an execution spec), in
   * {@link GetTaskResult.newest}: the first listed when the listing is newest-first, else one more call.
   */
  newest?: boolean;
}

/**
 * A page of tasks, or the one task asked for by version or `latest`.
 *
 * ```ts
 * import { connect, getTask, type GetTaskResult } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result: GetTaskResult = await getTask(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: "core.basic.hello",
 *   newest: true,
 * });
 * const versions = result.kind === "one" ? [result.task] : result.tasks;
 * console.log(versions.map((task) => task.id?.version), "newest:", result.newest?.id?.version);
 * ```
 */
export type GetTaskResult =
  & (
    | {
      kind: "list";
      tasks: Task[];
      /** The admin's token of the next page; empty when this page was not full. */
      nextToken: string;
      /**
       * The page was full and the admin gave a next-page token: there may be more, `page + 1` is worth asking for.
       * Not a promise: FlyteAdmin gives a token for every full page, so the next one may be empty.
       */
      hasMore: boolean;
    }
    | { kind: "one"; task: Task }
  )
  & {
    /** With {@link GetTaskOptions.newest}: the newest version of the named task. */
    newest?: Task;
  };

/**
 * Checked {@link GetTaskOptions}, with the field selector already translated: what {@link runTaskQuery} sends.
 *
 * ```ts
 * import { connect, runTaskQuery, type TaskQuery, taskQuery } from "@fctl/fctl";
 *
 * const query: TaskQuery = taskQuery({ project: "flytesnacks", domain: "development", fieldSelector: "task.version=v1" });
 * console.log(query.filters, query.limit, query.page); // the admin filter string, 100, 1
 * await using flyte = await connect();
 * console.log((await runTaskQuery(flyte.client, query)).kind); // "list"
 * ```
 */
export interface TaskQuery {
  /** The options as given. */
  readonly options: GetTaskOptions;
  /** Page size. */
  readonly limit: number;
  /** 1-based page. */
  readonly page: number;
  /** The admin filter string of the field selector and the version filter. */
  readonly filters: string;
}

/**
 * Checks `options` without any RPC, so that a caller can refuse bad input (or ask the user something)
 * before connecting; {@link getTask} does the same.
 *
 * ```ts
 * import { taskQuery, InvalidOptionError } from "@fctl/fctl";
 *
 * try {
 *   taskQuery({ project: "flytesnacks", domain: "development", limit: 0 });
 * } catch (err) {
 *   if (err instanceof InvalidOptionError) console.log(err.message); // names the bad limit
 * }
 * ```
 *
 * @throws {InvalidOptionError} limit or page below 1, `latest` or `newest` without a name, a bad field selector
 */
export function taskQuery(options: GetTaskOptions): TaskQuery {
  const { limit, page } = checkPaging(options);
  const { name } = options;
  requireName("latest", options.latest, name, "task");
  requireName("newest", options.newest, name, "task");
  const filters = joinFilters(
    options.fieldSelector,
    !name && options.version ? `eq(task.version,${options.version})` : undefined,
  );
  return { options, limit, page, filters };
}

/**
 * Reads tasks from the admin service; `signal` cancels the calls.
 *
 * ```ts
 * import { connect, getTask } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const scope = { project: "flytesnacks", domain: "development" };
 * const versions = await getTask(flyte.client, { ...scope, name: "core.basic.hello", limit: 5 });
 * if (versions.kind === "list") console.log(versions.tasks.map((task) => task.id?.version));
 * ```
 *
 * @throws {InvalidOptionError} see {@link taskQuery}
 * @throws {NotFoundError} a named task has no version (an `AdminError` with status `NotFound`), or
 *   `GetTask` found no such version
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export async function getTask(
  client: AdminClient,
  options: GetTaskOptions,
  signal?: AbortSignal,
): Promise<GetTaskResult> {
  // Async, so that a bad option rejects the promise (a caller's `.catch` sees it) instead of throwing.
  return await runTaskQuery(client, taskQuery(options), signal);
}

/**
 * Reads the tasks of a query {@link taskQuery} checked; `signal` cancels the calls, as for {@link getTask}.
 *
 * ```ts
 * import { connect, runTaskQuery, taskQuery } from "@fctl/fctl";
 *
 * // Checked before connecting: a bad selector is refused without a connection.
 * const query = taskQuery({ project: "flytesnacks", domain: "development", fieldSelector: "task.name contains basic" });
 * await using flyte = await connect();
 * const result = await runTaskQuery(flyte.client, query);
 * ```
 */
export async function runTaskQuery(
  client: AdminClient,
  query: TaskQuery,
  signal?: AbortSignal,
): Promise<GetTaskResult> {
  const result = await readTasks(client.admin, query, signal);
  if (!query.options.newest) return result;
  const newest = result.kind === "one"
    ? result.task
    : isNewestFirst(versionsQuery(query))
    ? result.tasks[0]
    : undefined;
  if (newest) return { ...result, newest };
  const latest = await readTasks(client.admin, { ...query, options: { ...query.options, latest: true } }, signal);
  if (latest.kind !== "one") throw new Error("a query for the latest task returned a list");
  return { ...result, newest: latest.task };
}

/**
 * What {@link runTaskRowQuery} reads: the versions a query lists, or the one it names, as the task table shows
 * them (rows: see `AdminRowsClient`).
 *
 * ```ts
 * import { connect, runTaskRowQuery, taskQuery, type TaskRowsResult } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const query = taskQuery({ project: "flytesnacks", domain: "development", name: "core.basic.hello", version: "v1" });
 * const result: TaskRowsResult = await runTaskRowQuery(flyte.client, query);
 * if (result.kind === "one") console.log(result.task.closure?.compiledTask?.template?.type);
 * ```
 */
export type TaskRowsResult =
  | { kind: "list"; tasks: TaskRow[]; nextToken: string; hasMore: boolean }
  | { kind: "one"; task: TaskRow };

/**
 * Reads what `fctl get task`'s table shows of a query's tasks: the calls of {@link runTaskQuery}, their answers
 * decoded into rows, so that only the descriptors of those few fields are built and only those fields decoded.
 * The query's `newest` is not read: an execution spec needs the whole task ({@link runTaskQuery}).
 *
 * ```ts
 * import { connect, runTaskRowQuery, taskQuery } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await runTaskRowQuery(flyte.client, taskQuery({ project: "flytesnacks", domain: "development" }));
 * if (result.kind === "list") console.log(result.tasks.map((task) => task.id?.name));
 * ```
 *
 * @throws {NotFoundError} see {@link getTask}
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export function runTaskRowQuery(
  client: AdminClient,
  query: TaskQuery,
  signal?: AbortSignal,
): Promise<TaskRowsResult> {
  return readTasks(client.rows, query, signal);
}

/** How tasks are read, through flyteidl's calls (`client.admin`) or the rows' (`client.rows`): the same RPCs. */
const TASKS = {
  noun: "task",
  resourceType: RESOURCE_TYPE.TASK,
  list: "listTasks",
  items: "tasks",
  get: "getTask",
} as const;

async function readTasks<T>(
  calls: VersionCalls<T, typeof TASKS>,
  query: TaskQuery,
  signal?: AbortSignal,
): Promise<{ kind: "list"; tasks: T[]; nextToken: string; hasMore: boolean } | { kind: "one"; task: T }> {
  const result = await readVersions(TASKS, calls, versionsQuery(query), signal);
  if (result.kind === "one") return { kind: "one", task: result.item };
  return { kind: "list", tasks: result.items, nextToken: result.nextToken, hasMore: result.hasMore };
}

/** The shared reader's view of a task query. */
function versionsQuery(query: TaskQuery): VersionsQuery {
  const { options, limit, page, filters } = query;
  return { ...options, limit, page, filters };
}

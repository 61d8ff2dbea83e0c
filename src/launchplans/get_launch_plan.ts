/**
 * `getLaunchPlan`: reads launch plans the way flytectl does, with fctl's fixes: `latest` is
 * the newest by creation time whatever the sort flags, `version` without a name filters the listing.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { InvalidOptionError } from "../errors.ts";
import { escapeSelectorValue } from "../get/field_selector.ts";
import {
  checkPaging,
  isNewestFirst,
  joinFilters,
  type ListOptions,
  type ListPage,
  readVersions,
  requireName,
  type VersionCalls,
  type VersionsQuery,
} from "../get/list_query.ts";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { LaunchPlanRow } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import { RESOURCE_TYPE } from "../get/resource_type.ts";

/**
 * What to read.
 *
 * ```ts
 * import { connect, getLaunchPlan, type GetLaunchPlanOptions } from "@fctl/fctl";
 *
 * const options: GetLaunchPlanOptions = { project: "flytesnacks", domain: "development", workflow: "core.basic.wf" };
 * await using flyte = await connect();
 * const result = await getLaunchPlan(flyte.client, options);
 * if (result.kind === "list") console.log(result.items.map((lp) => lp.id?.name));
 * ```
 */
export interface GetLaunchPlanOptions extends ListOptions {
  /** Project of the launch plans. */
  project: string;
  /** Domain of the launch plans. */
  domain: string;
  /** A launch plan name: its versions; without it, every launch plan of the project and domain. */
  name?: string;
  /** With a name: that version only (GetLaunchPlan). Without a name: a `launch_plan.version` filter. */
  version?: string;
  /** Only the newest version of the named launch plan, by creation time (wins over `version`). */
  latest?: boolean;
  /** Only the launch plans of this workflow (the selector `workflow.name=W`; not with a field selector). */
  workflow?: string;
  /** Also find the newest version of the named launch plan (for an execution spec), in `newest`. */
  newest?: boolean;
}

/**
 * A page of launch plans, or the one asked for by version or `latest`; `newest` with
 * {@link GetLaunchPlanOptions.newest}.
 *
 * ```ts
 * import { connect, getLaunchPlan, type GetLaunchPlanResult } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result: GetLaunchPlanResult = await getLaunchPlan(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: "core.basic.wf",
 *   newest: true,
 * });
 * console.log(result.newest?.id?.version);
 * ```
 */
export type GetLaunchPlanResult = (ListPage<LaunchPlan> | { kind: "one"; launchPlan: LaunchPlan }) & {
  /** With {@link GetLaunchPlanOptions.newest}: the newest version of the named launch plan. */
  newest?: LaunchPlan;
};

/**
 * Checked {@link GetLaunchPlanOptions}, with paging decided and the filters made: what {@link runLaunchPlanQuery}
 * sends.
 *
 * ```ts
 * import { connect, type LaunchPlanQuery, launchPlanQuery, runLaunchPlanQuery } from "@fctl/fctl";
 *
 * const query: LaunchPlanQuery = launchPlanQuery({ project: "flytesnacks", domain: "development", workflow: "wf" });
 * await using flyte = await connect();
 * console.log((await runLaunchPlanQuery(flyte.client, query)).kind); // "list"
 * ```
 */
export type LaunchPlanQuery = VersionsQuery & { newest: boolean };

/**
 * Checks `options` without any RPC; {@link getLaunchPlan} does the same.
 *
 * ```ts
 * import { launchPlanQuery } from "@fctl/fctl";
 *
 * const query = launchPlanQuery({ project: "flytesnacks", domain: "development", workflow: "core.basic.wf" });
 * console.log(query.filters); // "eq(workflow.name,core.basic.wf)"
 * ```
 *
 * @throws {InvalidOptionError} limit or page below 1, `latest` or `newest` without a name, `workflow` with a field
 *   selector, a bad field selector
 */
export function launchPlanQuery(options: GetLaunchPlanOptions): LaunchPlanQuery {
  const paging = checkPaging(options);
  const { name } = options;
  requireName("latest", options.latest, name, "launch plan");
  requireName("newest", options.newest, name, "launch plan");
  if (options.workflow !== undefined && options.fieldSelector?.trim()) {
    throw new InvalidOptionError("fieldSelector cannot be specified with workflow flag", {
      option: "workflow",
      value: options.workflow,
      expected: "no field selector",
    });
  }
  const workflowSelector = options.workflow === undefined
    ? undefined
    : `workflow.name=${escapeSelectorValue(options.workflow)}`;
  const filters = joinFilters(
    workflowSelector ?? options.fieldSelector,
    !name && options.version ? `eq(launch_plan.version,${options.version})` : undefined,
  );
  return { ...options, ...paging, filters, newest: options.newest === true };
}

/**
 * Reads launch plans from the admin service.
 *
 * ```ts
 * import { connect, getLaunchPlan } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getLaunchPlan(flyte.client, { project: "flytesnacks", domain: "development", name: "wf", latest: true });
 * if (result.kind === "one") console.log(result.launchPlan.closure?.state);
 * ```
 *
 * @throws {InvalidOptionError} see {@link launchPlanQuery}
 * @throws {NotFoundError} a named launch plan has no version, or `GetLaunchPlan` found no such version
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export async function getLaunchPlan(
  client: AdminClient,
  options: GetLaunchPlanOptions,
  signal?: AbortSignal,
): Promise<GetLaunchPlanResult> {
  // Async, so that a bad option rejects the promise (a caller's `.catch` sees it) instead of throwing.
  return await runLaunchPlanQuery(client, launchPlanQuery(options), signal);
}

/**
 * Reads the launch plans of a query {@link launchPlanQuery} checked; `signal` cancels the calls.
 *
 * ```ts
 * import { connect, launchPlanQuery, runLaunchPlanQuery } from "@fctl/fctl";
 *
 * const query = launchPlanQuery({ project: "flytesnacks", domain: "development", limit: 10 });
 * await using flyte = await connect();
 * console.log((await runLaunchPlanQuery(flyte.client, query)).kind); // "list"
 * ```
 */
export async function runLaunchPlanQuery(
  client: AdminClient,
  query: LaunchPlanQuery,
  signal?: AbortSignal,
): Promise<GetLaunchPlanResult> {
  const read = (q: VersionsQuery) => readLaunchPlans(client.admin, q, signal);
  const result = await read(query);
  if (!query.newest) return result;
  const newest = result.kind === "one" ? result.launchPlan : isNewestFirst(query) ? result.items[0] : undefined;
  if (newest) return { ...result, newest };
  const latest = await read({ ...query, latest: true });
  return { ...result, newest: latest.kind === "one" ? latest.launchPlan : undefined };
}

/**
 * What {@link runLaunchPlanRowQuery} reads: a page of launch plans, or the one a query names, as the launch plan
 * tables show them (rows: see `AdminRowsClient`).
 *
 * ```ts
 * import { connect, launchPlanQuery, type LaunchPlanRowsResult, runLaunchPlanRowQuery } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const query = launchPlanQuery({ project: "flytesnacks", domain: "development", name: "core.basic.wf", latest: true });
 * const result: LaunchPlanRowsResult = await runLaunchPlanRowQuery(flyte.client, query);
 * if (result.kind === "one") console.log(result.launchPlan.closure?.state);
 * ```
 */
export type LaunchPlanRowsResult = ListPage<LaunchPlanRow> | { kind: "one"; launchPlan: LaunchPlanRow };

/**
 * Reads what `fctl get launchplan`'s tables show of a query's launch plans: the calls of
 * {@link runLaunchPlanQuery}, their answers decoded into rows, so that only the descriptors of those few fields
 * are built and only those fields decoded. The query's `newest` is not read: an execution spec needs the whole
 * launch plan ({@link runLaunchPlanQuery}).
 *
 * ```ts
 * import { connect, launchPlanQuery, runLaunchPlanRowQuery } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const query = launchPlanQuery({ project: "flytesnacks", domain: "development" });
 * const result = await runLaunchPlanRowQuery(flyte.client, query);
 * if (result.kind === "list") console.log(result.items.map((lp) => lp.id?.name));
 * ```
 *
 * @throws {NotFoundError} a named launch plan has no version, or `GetLaunchPlan` found no such version
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export function runLaunchPlanRowQuery(
  client: AdminClient,
  query: LaunchPlanQuery,
  signal?: AbortSignal,
): Promise<LaunchPlanRowsResult> {
  return readLaunchPlans(client.rows, query, signal);
}

/** How launch plans are read, through flyteidl's calls (`client.admin`) or the rows' (`client.rows`): the same RPCs. */
const LAUNCH_PLANS = {
  noun: "launch plan",
  resourceType: RESOURCE_TYPE.LAUNCH_PLAN,
  list: "listLaunchPlans",
  items: "launchPlans",
  get: "getLaunchPlan",
} as const;

async function readLaunchPlans<T>(
  calls: VersionCalls<T, typeof LAUNCH_PLANS>,
  query: VersionsQuery,
  signal?: AbortSignal,
): Promise<ListPage<T> | { kind: "one"; launchPlan: T }> {
  const result = await readVersions(LAUNCH_PLANS, calls, query, signal);
  return result.kind === "one" ? { kind: "one", launchPlan: result.item } : result;
}

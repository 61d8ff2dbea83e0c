/**
 * The listings of versioned entities, ListTasks, ListWorkflows and ListLaunchPlans, and of their names,
 * ListTaskIds, ListWorkflowIds and ListLaunchPlanIds, with FlyteAdmin's checks in its order and its messages:
 * scope and limit, then filters (the names listings take none: FlyteAdmin ignores them), then the sort key (a
 * column of the entity's table), then the offset token.
 *
 * @module
 */
import {
  type NamedEntityIdentifierListRequest,
  type ResourceListRequest,
  type Sort,
  Sort_Direction,
} from "../../proto/gen/flyteidl/admin/common_pb.ts";
import {
  type FilterSchema,
  type FilterTable,
  matchesFilters,
  pageOf,
  parseOffsetToken,
  parseRequestFilters,
  requireLimit,
  sortComparator,
} from "./execution_filters.ts";
import type { Row } from "./filters.ts";
import { databaseError, invalidArgument as invalid } from "./shared_validation.ts";

/**
 * One page of results and the token of the next page: FlyteAdmin's rule, a token (the next offset) exactly when
 * the page is full, so the page after a full last one is empty; "" after a page that is not full.
 */
export interface Page<T> {
  items: T[];
  token: string;
}

/** Creation order in `direction` (1 oldest first, -1 newest first); every listed row has a creation time. */
function createdOrder<T>(table: FilterTable<T>, direction: number): (a: T, b: T) => number {
  return (a, b) => {
    const x = table.read(a, "created_at") ?? 0n;
    const y = table.read(b, "created_at") ?? 0n;
    return x === y ? 0 : direction * (x < y ? -1 : 1);
  };
}

/**
 * The order of a listing: the requested column, ties by creation in the same direction; without a sort, newest
 * first. (FlyteAdmin leaves both to the database, which keeps no promise: this order is one it may give.)
 */
function listOrder<T>(sortBy: Sort | undefined, table: FilterTable<T>): (a: T, b: T) => number {
  const byColumn = sortComparator(sortBy, table);
  const direction = sortBy?.direction === Sort_Direction.ASCENDING ? 1 : -1;
  const byCreation = createdOrder(table, direction);
  return byColumn ? (a, b) => byColumn(a, b) || byCreation(a, b) : byCreation;
}

/**
 * ListTasks, ListWorkflows, ListLaunchPlans (`method`) over `rows`, the kind's versions in creation order; `nowNs`
 * is the sandbox's clock, on which the filters' time words are read.
 */
export function listVersions<T>(
  rows: T[],
  request: ResourceListRequest,
  schema: FilterSchema<T>,
  method: string,
  nowNs: bigint,
): Page<T> {
  // FlyteAdmin's ValidateResourceListRequest.
  if (!request.id) throw invalid("missing id");
  const { project, domain, name } = request.id;
  if (project === "") throw invalid("missing project");
  if (domain === "") throw invalid("missing domain");
  requireLimit(request.limit);
  const filters = parseRequestFilters(request.filters, schema, nowNs);
  const order = listOrder(request.sortBy, schema.primary);
  const offset = parseOffsetToken(request.token, method);
  const read = (row: T, column: string) => schema.primary.read(row, column);
  const matching = rows.filter((row) =>
    read(row, "project") === project && read(row, "domain") === domain && (name === "" || read(row, "name") === name) &&
    matchesFilters(row, filters)
  );
  return pageOf(matching.sort(order), offset, request.limit);
}

/** The columns a names listing groups by: the only ones its query can sort on. */
const GROUPED = new Set(["project", "domain", "name"]);

/** The database table of each names listing, as Postgres names it in errors. */
const TABLES: Record<string, string> = { t: "tasks", w: "workflows", l: "launch_plans" };

/**
 * ListTaskIds (FlyteAdmin's ListUniqueTaskIdentifiers), ListWorkflowIds (ListWorkflowIdentifiers) and
 * ListLaunchPlanIds over `names`, one row per name dated by its newest version. FlyteAdmin reads no filters here,
 * takes any column of the entity's table as sort key, and its query, grouped by project, domain and name, then
 * fails in the database for a key outside those three.
 */
export function listNames(
  names: Row[],
  request: NamedEntityIdentifierListRequest,
  table: FilterTable<Row>,
  method: "ListUniqueTaskIdentifiers" | "ListWorkflowIdentifiers" | "ListLaunchPlanIds",
): Page<Row> {
  const launchPlans = method === "ListLaunchPlanIds";
  // ListLaunchPlanIds validates nothing before its query: its repository checks the limit and the scope later.
  if (!launchPlans) {
    if (request.project === "") throw invalid("missing project");
    if (request.domain === "") throw invalid("missing domain");
    requireLimit(request.limit);
  }
  const order = listOrder(request.sortBy, table);
  const offset = launchPlans ? launchPlanIdsOffset(request.token) : parseOffsetToken(request.token, method);
  if (launchPlans && request.limit === 0) throw invalid("missing and/or invalid parameters: limit");
  if (launchPlans && request.project === "" && request.domain === "") {
    throw invalid("missing and/or invalid parameters: filters");
  }
  const key = request.sortBy?.key;
  if (key !== undefined && !GROUPED.has(key)) {
    const column = `${TABLES[table.entity]}.${key}`;
    throw databaseError(
      `column "${column}" must appear in the GROUP BY clause or be used in an aggregate function`,
    );
  }
  const matching = names.filter((row) =>
    (request.project === "" || row.project === request.project) &&
    (request.domain === "" || row.domain === request.domain)
  );
  return pageOf(matching.sort(order), offset, request.limit);
}

/** ListLaunchPlanIds' token check: FlyteAdmin's message there names no method. */
function launchPlanIdsOffset(token: string): number {
  try {
    return parseOffsetToken(token, "ListLaunchPlanIds");
  } catch {
    throw invalid(`invalid pagination token ${token}`);
  }
}

/** The table a names listing sorts: the kind's columns, read from a name's row. */
export function namesTable(entity: "t" | "w" | "l", prefix: string, columns: ReadonlySet<string>): FilterTable<Row> {
  return {
    entity,
    prefix,
    columns,
    read: (row, column) => column === "created_at" ? row.createdNs : GROUPED.has(column) ? row[column as "name"] : null,
  };
}

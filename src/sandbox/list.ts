/**
 * The list semantics shared by ListTasks, ListWorkflows and ListLaunchPlans: scope, filters, sort and
 * offset tokens.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { type Sort, Sort_Direction } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { type EntityTable, matchesAll, parseFilters, type Row } from "./filters.ts";

/** The parts of ResourceListRequest and NamedEntityIdentifierListRequest that listing uses. */
export interface ListQuery {
  project: string;
  domain: string;
  /** Restricts to one entity name when not empty. */
  name?: string;
  limit: number;
  token: string;
  filters: string;
  sortBy?: Sort;
}

/**
 * One page of results and the token of the next page: FlyteAdmin's rule, a token (the next offset) exactly when
 * the page is full, so the page after a full last one is empty; "" after a page that is not full.
 */
export interface Page<T> {
  items: T[];
  token: string;
}

type SortKey = "created_at" | "name" | "version" | "project" | "domain";
const SORT_KEYS = new Set<string>(["created_at", "name", "version", "project", "domain"]);

function invalid(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** Validates a query and returns the requested page of `rows`, in FlyteAdmin's order of checks. */
export function listPage<T extends Row>(rows: Iterable<T>, query: ListQuery, table: EntityTable): Page<T> {
  if (query.project === "") throw invalid("missing project");
  if (query.domain === "") throw invalid("missing domain");
  if (query.limit <= 0) throw invalid(`invalid value for limit: ${query.limit}: limit must be > 0`);
  const offset = parseToken(query.token);
  const filters = parseFilters(query.filters, table);
  const compareRows = comparator(query.sortBy);
  const matching = [...rows].filter((row) =>
    row.project === query.project && row.domain === query.domain && (!query.name || row.name === query.name) &&
    matchesAll(row, filters)
  ).sort(compareRows);
  const items = matching.slice(offset, offset + query.limit);
  // As FlyteAdmin's list managers: `if len(results) == limit { token = offset + len(results) }`.
  return { items, token: items.length === query.limit ? String(offset + items.length) : "" };
}

/** Tokens are decimal offsets, as FlyteAdmin's are. */
function parseToken(token: string): number {
  if (token === "") return 0;
  if (!/^\d+$/.test(token)) throw invalid(`invalid pagination token "${token}"`);
  return Number(token);
}

/** Sorts by the requested key (default newest first), then by creation time so pages are stable. */
function comparator(sortBy: Sort | undefined): (a: Row, b: Row) => number {
  const key = sortBy?.key || "created_at";
  if (!SORT_KEYS.has(key)) throw invalid(`invalid sort key "${key}"`);
  const direction = !sortBy || sortBy.direction === Sort_Direction.DESCENDING ? -1 : 1;
  return (a, b) => direction * (compareKey(a, b, key as SortKey) || compareKey(a, b, "created_at"));
}

function compareKey(a: Row, b: Row, key: SortKey): number {
  const x = key === "created_at" ? a.createdNs : a[key];
  const y = key === "created_at" ? b.createdNs : b[key];
  return x === y ? 0 : x < y ? -1 : 1;
}

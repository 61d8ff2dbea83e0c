/**
 * FlyteAdmin's filter language over the columns of a record (projects, named entities), for the listings that
 * have no entity versions: `eq(state,1)+contains(name,flyte)+value_in(identifier,a;b)`. A field may carry the
 * entity's prefix (`project.name`). Numbers compare as numbers, everything else as strings.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";

/** The columns a filter can name, and their values. */
export type Columns = Record<string, string | number>;

/** One parsed term. */
export interface ColumnFilter {
  fn: string;
  field: string;
  values: string[];
}

const FUNCTIONS = new Set(["eq", "ne", "gt", "gte", "lt", "lte", "contains", "value_in", "not_like"]);
const TERM = /^([A-Za-z_]+)\(([^,()]+),(.*)\)$/s;
const SEPARATOR = /\)\+(?=[A-Za-z_]+\()/;

function invalid(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** Parses `text` (empty: no filters) for an entity whose columns are `fields`; INVALID_ARGUMENT names what is wrong. */
export function parseColumnFilters(text: string, prefix: string, fields: readonly string[]): ColumnFilter[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  return trimmed.split(SEPARATOR).map((raw, i, all) => {
    const term = i < all.length - 1 ? `${raw})` : raw;
    const match = TERM.exec(term.trim());
    if (!match) throw invalid(`invalid filter expression "${term}"`);
    const [, fn, rawField, value] = match;
    if (!FUNCTIONS.has(fn)) throw invalid(`unrecognized filter function "${fn}" in "${term}"`);
    const bare = rawField.trim();
    const field = bare.startsWith(`${prefix}.`) ? bare.slice(prefix.length + 1) : bare;
    if (!fields.includes(field)) throw invalid(`unrecognized filter field "${bare}" for ${prefix}`);
    return { fn, field, values: fn === "value_in" ? value.split(";") : [value] };
  });
}

function compare(actual: string | number, value: string): number {
  if (typeof actual === "number") {
    const n = Number(value);
    return actual === n ? 0 : actual < n ? -1 : 1;
  }
  return actual === value ? 0 : actual < value ? -1 : 1;
}

/** SQL LIKE with `%` and `_` wildcards. */
function like(actual: string, pattern: string): boolean {
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/_/g, ".");
  return new RegExp(`^${source}$`, "s").test(actual);
}

/** Whether `row` satisfies every filter. */
export function matchesColumns(row: Columns, filters: readonly ColumnFilter[]): boolean {
  return filters.every(({ fn, field, values }) => {
    const actual = row[field];
    const order = compare(actual, values[0]);
    switch (fn) {
      case "value_in":
        return values.some((v) => compare(actual, v) === 0);
      case "contains":
        return String(actual).includes(values[0]);
      case "not_like":
        return !like(String(actual), values[0]);
      case "eq":
        return order === 0;
      case "ne":
        return order !== 0;
      case "gt":
        return order > 0;
      case "gte":
        return order >= 0;
      case "lt":
        return order < 0;
      default:
        return order <= 0;
    }
  });
}

/** A sort over `columns` (FlyteAdmin: a key that is not a column is INVALID_ARGUMENT), or `fallback` without one. */
export function columnComparator<R extends Columns>(
  sortBy: { key: string; direction: number } | undefined,
  columns: readonly string[],
  fallback: { key: string; direction: number },
): (a: R, b: R) => number {
  const sort = sortBy ?? fallback;
  if (!columns.includes(sort.key)) throw invalid(`invalid sort key "${sort.key}"`);
  // Sort_Direction: DESCENDING = 0, ASCENDING = 1.
  const direction = sort.direction === 1 ? 1 : -1;
  return (a, b) => direction * compare(a[sort.key], String(b[sort.key]));
}

/** FlyteAdmin's tokens: decimal offsets; "" is 0. */
export function parseOffset(token: string): number {
  if (token === "") return 0;
  if (!/^\d+$/.test(token)) throw invalid(`invalid pagination token "${token}"`);
  return Number(token);
}

/** The page at `offset`, and FlyteAdmin's next token: the next offset exactly when the page is full. */
export function pageAt<T>(rows: T[], offset: number, limit: number): { items: T[]; token: string } {
  const items = limit > 0 ? rows.slice(offset, offset + limit) : rows.slice(offset);
  return { items, token: limit > 0 && items.length === limit ? String(offset + items.length) : "" };
}

/**
 * FlyteAdmin's list filter language: `eq(task.name,foo)+gte(created_at,2021-05-24T21:43:12Z)+value_in(version,a;b)`.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { parseRfc3339 } from "./time.ts";

/**
 * The columns of a stored entity that filters and sorting can see.
 *
 * ```ts
 * import type { Row } from "@fctl/fctl/testing";
 *
 * const row: Row = { project: "flytesnacks", domain: "development", name: "hello", version: "v1", createdNs: 0n };
 * console.log(row.name);
 * ```
 */
export interface Row {
  /** The project, the `project` field of filters. */
  project: string;
  /** The domain, the `domain` field of filters. */
  domain: string;
  /** The entity's name, the `name` field of filters. */
  name: string;
  /** The version; empty for the rows of the List*Ids methods, which list names. */
  version: string;
  /** Creation time in nanoseconds since the epoch. */
  createdNs: bigint;
}

/** The filter-language name of each entity's table, usable as a field prefix. */
export type EntityTable = "task" | "workflow" | "launch_plan";

/** A filter function FlyteAdmin accepts. */
export type FilterFunction = "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "contains" | "value_in";

/** A field filters can name. */
export type FilterField = "project" | "domain" | "name" | "version" | "created_at";

/** One parsed term; `values` has one entry except for `value_in`. */
export interface Filter {
  fn: FilterFunction;
  field: FilterField;
  values: string[];
}

const FUNCTIONS = new Set<string>(["eq", "ne", "gt", "gte", "lt", "lte", "contains", "value_in"]);
const FIELDS = new Set<string>(["project", "domain", "name", "version", "created_at"]);
const TERM = /^([A-Za-z_]+)\(([^,()]+),(.*)\)$/s;
/** Terms are joined by `+`; splitting only before `name(` keeps `+02:00` time offsets intact. */
const SEPARATOR = /\)\+(?=[A-Za-z_]+\()/;

function invalid(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** Parses a filter string (empty means no filters); throws INVALID_ARGUMENT naming what is wrong. */
export function parseFilters(text: string, table: EntityTable): Filter[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  return trimmed.split(SEPARATOR).map((term, i, all) => parseTerm(i < all.length - 1 ? `${term})` : term, table));
}

function parseTerm(term: string, table: EntityTable): Filter {
  const match = TERM.exec(term.trim());
  if (!match) throw invalid(`invalid filter expression "${term}"`);
  const [, fn, rawField, rawValue] = match;
  if (!FUNCTIONS.has(fn)) throw invalid(`unrecognized filter function "${fn}" in "${term}"`);
  const field = parseField(rawField.trim(), table);
  const values = fn === "value_in" ? rawValue.split(";") : [rawValue];
  if (field === "created_at") {
    if (fn === "contains") throw invalid(`filter function "contains" does not apply to field "created_at"`);
    for (const value of values) {
      if (parseRfc3339(value) === undefined) throw invalid(`invalid RFC 3339 time "${value}" for created_at`);
    }
  }
  return { fn: fn as FilterFunction, field, values };
}

function parseField(raw: string, table: EntityTable): FilterField {
  const prefix = `${table}.`;
  const field = raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
  if (!FIELDS.has(field)) throw invalid(`unrecognized filter field "${raw}" for ${table}`);
  return field as FilterField;
}

/** Whether a row satisfies every filter. */
export function matchesAll(row: Row, filters: Filter[]): boolean {
  return filters.every((filter) => matches(row, filter));
}

function matches(row: Row, filter: Filter): boolean {
  if (filter.fn === "value_in") return filter.values.some((value) => compare(row, filter.field, value) === 0);
  const value = filter.values[0];
  if (filter.fn === "contains") return String(row[filter.field as Exclude<FilterField, "created_at">]).includes(value);
  const order = compare(row, filter.field, value);
  switch (filter.fn) {
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
    case "lte":
      return order <= 0;
  }
}

/** Sign of row[field] - value; times compare as instants, everything else as strings. */
function compare(row: Row, field: FilterField, value: string): number {
  if (field === "created_at") return sign(row.createdNs - (parseRfc3339(value) ?? 0n));
  const actual = row[field];
  return actual === value ? 0 : actual < value ? -1 : 1;
}

function sign(n: bigint): number {
  return n === 0n ? 0 : n < 0n ? -1 : 1;
}

/**
 * FlyteAdmin's filters, sort keys and offset tokens for executions, node executions and task executions. Unlike the
 * entity lists (see `filters.ts`), these follow FlyteAdmin's database whitelist: a filter or sort key names a column
 * of the entity's table (`phase`, `execution_name`, `execution_created_at`, `duration`, `state`, …) or, with an
 * entity prefix, of a table the list may join (`launch_plan.name`, `workflow.version`, `execution.phase`).
 * A prefixed field that is not a column is refused as FlyteAdmin refuses it: `execution.name` names no column
 * (the column is `execution_name`), so FlyteAdmin answers `'e.name' is invalid filter`. Values are read as
 * FlyteAdmin reads them: a duration through Go's ParseFloat and ParseDuration; a time or an integer as Postgres reads
 * its column's type (what it cannot read refused UNKNOWN, in Postgres's words, as FlyteAdmin passes database errors
 * on), a time's words `now`, `today`, `yesterday`, `tomorrow` read on the sandbox's clock (its `now` option) for
 * every list; `contains` is SQL's `LIKE '%value%'`.
 *
 * @module
 */
import { type Sort, Sort_Direction, SortSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { goText } from "./go_text.ts";
import { databaseError, invalidArgument as invalid } from "./shared_validation.ts";

/** A column's value: text, a time or duration in nanoseconds, a number, or SQL NULL. */
export type ColumnValue = string | bigint | number | null;

/** One table a list may filter on: FlyteAdmin's one-letter entity name, its columns, and how to read them. */
export interface FilterTable<T> {
  /** FlyteAdmin's entity name, as its error messages print it (`e`, `l`, `w`, `t`, `ne`, `te`). */
  entity: string;
  /** The filter prefix naming the table (`execution`, `launch_plan`, …). */
  prefix: string;
  columns: ReadonlySet<string>;
  /** The column of the row's record in this table; undefined when the row has none (the inner join drops it). */
  read(row: T, column: string): ColumnValue | undefined;
}

/** A list's primary table and the tables its filters may join. */
export interface FilterSchema<T> {
  primary: FilterTable<T>;
  joins: FilterTable<T>[];
}

interface ParsedFilter<T> {
  table: FilterTable<T>;
  column: string;
  fn: string;
  values: string[];
  /** The list's moment, in nanoseconds: what Postgres's `now`, `today`, … mean in a time value. */
  nowNs: bigint;
}

const BASE_COLUMNS = ["id", "created_at", "updated_at", "deleted_at"];
/** The columns of FlyteAdmin's `executions` table. */
export const EXECUTION_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  "execution_project",
  "execution_domain",
  "execution_name",
  "launch_plan_id",
  "workflow_id",
  "task_id",
  "phase",
  "closure",
  "spec",
  "started_at",
  "execution_created_at",
  "execution_updated_at",
  "duration",
  "abort_cause",
  "mode",
  "source_execution_id",
  "parent_node_execution_id",
  "cluster",
  "inputs_uri",
  "user_inputs_uri",
  "error_kind",
  "error_code",
  "user",
  "state",
  "launch_entity",
]);
const ENTITY_KEY = ["project", "domain", "name", "version"];
/** The columns of `launch_plans`. */
export const LAUNCH_PLAN_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  ...ENTITY_KEY,
  "spec",
  "workflow_id",
  "closure",
  "state",
  "digest",
  "schedule_type",
  "launch_condition_type",
]);
/** The columns of `workflows`. */
export const WORKFLOW_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  ...ENTITY_KEY,
  "typed_interface",
  "remote_closure_identifier",
  "digest",
  "short_description",
]);
/** The columns of `tasks`. */
export const TASK_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  ...ENTITY_KEY,
  "closure",
  "digest",
  "type",
  "short_description",
]);
/** The columns of `node_executions`. */
export const NODE_EXECUTION_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  "execution_project",
  "execution_domain",
  "execution_name",
  "node_id",
  "phase",
  "input_uri",
  "closure",
  "started_at",
  "node_execution_created_at",
  "node_execution_updated_at",
  "duration",
  "node_execution_metadata",
  "parent_id",
  "parent_task_execution_id",
  "error_kind",
  "error_code",
  "cache_status",
  "dynamic_workflow_remote_closure_reference",
  "internal_data",
]);
/** The columns of `task_executions`. */
export const TASK_EXECUTION_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  ...ENTITY_KEY,
  "execution_project",
  "execution_domain",
  "execution_name",
  "node_id",
  "retry_attempt",
  "phase",
  "phase_version",
  "input_uri",
  "closure",
  "started_at",
  "task_execution_created_at",
  "task_execution_updated_at",
  "duration",
]);

const TIME_COLUMNS = new Set([
  "created_at",
  "updated_at",
  "deleted_at",
  "started_at",
  "execution_created_at",
  "execution_updated_at",
  "node_execution_created_at",
  "node_execution_updated_at",
  "task_execution_created_at",
  "task_execution_updated_at",
]);
/** The integer columns FlyteAdmin's tables have, with their Postgres types (gorm's for int32 and for uint). */
const INTEGER_COLUMNS: Readonly<Record<string, "integer" | "bigint">> = {
  state: "integer",
  mode: "integer",
  resource_type: "integer",
  id: "bigint",
  launch_plan_id: "bigint",
  workflow_id: "bigint",
  task_id: "bigint",
  source_execution_id: "bigint",
  parent_node_execution_id: "bigint",
  parent_id: "bigint",
  parent_task_execution_id: "bigint",
  retry_attempt: "bigint",
  phase_version: "bigint",
};
const SINGLE_VALUE = new Set(["contains", "not_like", "gt", "gte", "lt", "lte", "eq", "ne"]);
const REPEATED_VALUE = new Set(["value_in", "value_not_in"]);
/** FlyteAdmin's filter pattern, unanchored and greedy as its Go regexp is. */
const FILTER_TERM = /(.+)\((.+),\s?(.+)\)/;
/** Every entity prefix FlyteAdmin recognises, with its entity name. */
const PREFIXES: Record<string, string> = {
  task: "t",
  workflow: "w",
  launch_plan: "l",
  execution: "e",
  node_execution: "ne",
  task_execution: "te",
  entities: "nen",
  named_entity_metadata: "nem",
  project: "p",
  signal: "s",
  admin_tag: "at",
  execution_admin_tag: "eat",
  execution_tag: "et",
};

/**
 * Parses a request's filters in FlyteAdmin's order of checks; empty means none. `nowNs` is the moment Postgres's
 * time words (`now`, `today`, …) mean: the sandbox's clock for every list; the machine's where none is given.
 */
export function parseRequestFilters<T>(
  text: string,
  schema: FilterSchema<T>,
  nowNs: bigint = BigInt(Date.now()) * 1_000_000n,
): ParsedFilter<T>[] {
  if (text === "") return [];
  return text.split("+").map((expression) => {
    const match = FILTER_TERM.exec(expression);
    if (!match) throw invalid("invalid value for filters");
    const [, fn, rawField, rawValue] = match;
    const prefix = Object.keys(PREFIXES).find((name) => rawField.startsWith(`${name}.`));
    const entity = prefix ? PREFIXES[prefix] : schema.primary.entity;
    const column = prefix ? rawField.slice(prefix.length + 1) : rawField;
    const table = [schema.primary, ...schema.joins].find((candidate) => candidate.entity === entity);
    if (!table) throw invalid(`'${entity}' entity is not allowed in filters`);
    if (!table.columns.has(column)) throw invalid(`'${entity}.${column}' is invalid filter`);
    const values = rawValue.split(";");
    for (const value of values) checkValue(column, value);
    if (!SINGLE_VALUE.has(fn) && !REPEATED_VALUE.has(fn)) throw invalid(`unrecognized filter function: ${fn}`);
    if (SINGLE_VALUE.has(fn) && values.length > 1) throw invalid(`filter function ${fn} takes one value: ${rawValue}`);
    return { table, column, fn, values, nowNs };
  });
}

function checkValue(column: string, value: string): void {
  if (column === "duration") {
    const duration = durationFilterValue(value);
    if (duration.ns === undefined) throw invalid(`Failed to parse duration [${duration.text}]`);
  }
  const integer = INTEGER_COLUMNS[column];
  if (integer) {
    // FlyteAdmin passes the value on as text, which Postgres reads as the column's integer type.
    if (!/^\s*[+-]?\d+\s*$/.test(value)) {
      throw databaseError(`invalid input syntax for type ${integer}: "${value}"`);
    }
    const [min, max] = integer === "integer" ? [-(2n ** 31n), 2n ** 31n - 1n] : [-(2n ** 63n), 2n ** 63n - 1n];
    const number = BigInt(value.trim());
    if (number < min || number > max) throw databaseError(`value "${value}" is out of range for type ${integer}`);
  }
  // FlyteAdmin passes a time on as text (its list of time fields names none of these columns): Postgres reads it,
  // and refuses what it cannot read. Simplified: the sandbox refuses it here, before the sort key and token checks.
  if (TIME_COLUMNS.has(column)) {
    const time = postgresTimestampNs(value, 0n);
    if (time === "invalid") throw databaseError(`invalid input syntax for type timestamp with time zone: "${value}"`);
    if (time === "out of range") throw databaseError(`date/time field value out of range: "${value}"`);
  }
}

/** ISO 8601 as Postgres reads a timestamp: a date, then optionally a time (after `T` or a space) and a zone. */
const PG_TIMESTAMP =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{1,2}(?::?\d{2})?)?$/i;
const NS_PER_SECOND = 1_000_000_000n;

/** Later (`infinity`) or earlier (`-infinity`) than any time a row holds, as Postgres's infinite timestamps are. */
const INFINITE_NS = 2n ** 80n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND;

/**
 * Postgres's special timestamp inputs, in nanoseconds, at the moment `nowNs`: `now` is that moment (Postgres's
 * transaction's start), `today`, `yesterday` and `tomorrow` midnight (UTC, the session's zone) of that day, the one
 * before and the one after; `epoch` and `±infinity` need no clock.
 */
function postgresTimeWordNs(word: string, nowNs: bigint): bigint | undefined {
  const midnight = nowNs - (((nowNs % NS_PER_DAY) + NS_PER_DAY) % NS_PER_DAY);
  switch (word.toLowerCase()) {
    case "epoch":
      return 0n;
    case "now":
      return nowNs;
    case "today":
      return midnight;
    case "yesterday":
      return midnight - NS_PER_DAY;
    case "tomorrow":
      return midnight + NS_PER_DAY;
    case "infinity":
    case "+infinity":
      return INFINITE_NS;
    case "-infinity":
      return -INFINITE_NS;
    default:
      return undefined;
  }
}

/**
 * A `timestamp with time zone` literal as Postgres reads it, in nanoseconds since the epoch (to its microsecond):
 * an ISO 8601 date (midnight), with a time (seconds and a fraction optional) and a zone (`Z`, `±hh`, `±hh:mm`,
 * `±hhmm`; none is the session's, UTC), or one of its special words (`epoch`, `now`, `today`, `yesterday`,
 * `tomorrow`, `infinity`, `-infinity`, any case) read at the moment `nowNs`. Simplified: its other spellings
 * (`Jan 8 1999`, `today 12:00`, …) are taken as unreadable.
 */
export function postgresTimestampNs(text: string, nowNs: bigint): bigint | "invalid" | "out of range" {
  const trimmed = text.trim();
  const word = postgresTimeWordNs(trimmed, nowNs);
  if (word !== undefined) return word;
  const match = PG_TIMESTAMP.exec(trimmed);
  if (!match) return "invalid";
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const fraction = match[7] ?? "";
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || minute > 59 || second > 60) return "out of range";
  if (hour > 24 || (hour === 24 && (minute > 0 || second > 0 || /[1-9]/.test(fraction)))) return "out of range";
  let offsetSeconds = 0;
  if (match[8] && match[8].toUpperCase() !== "Z") {
    const [, sign, hours, minutes = "0"] = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(match[8])!;
    offsetSeconds = (sign === "-" ? -1 : 1) * (Number(hours) * 3600 + Number(minutes) * 60);
  }
  const seconds = BigInt(Date.UTC(year, month - 1, day, hour, minute, 0) / 1000 + second - offsetSeconds);
  const micros = BigInt(Math.round(Number(`0.${fraction || "0"}`) * 1e6));
  return seconds * NS_PER_SECOND + micros * 1000n;
}

const GO_DURATION_UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  "\u00b5s": 1e3,
  "\u03bcs": 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};
const MAX_DURATION_NS = 2n ** 63n - 1n;

/** A number as Go's strconv.ParseFloat reads one in decimal, or undefined (also out of float64's range). */
function goParseFloat(text: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A float64 as Go's `%v` prints it: the shortest digits, in exponent form below 1e-4 or from 1e6. */
function goFloatText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(value);
  const sign = exponent < 0 ? "-" : "+";
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** Go's time.ParseDuration, in nanoseconds, or undefined where it fails. */
function goParseDuration(text: string): bigint | undefined {
  const sign = text.startsWith("-") ? -1 : 1;
  const body = /^[+-]/.test(text) ? text.slice(1) : text;
  if (body === "0") return 0n;
  const units = Object.keys(GO_DURATION_UNITS).join("|");
  if (!new RegExp(`^((\\d+\\.?\\d*|\\.\\d+)(${units}))+$`, "u").test(body)) return undefined;
  let total = 0;
  for (const [, amount, unit] of body.matchAll(new RegExp(`(\\d+\\.?\\d*|\\.\\d+)(${units})`, "gu"))) {
    total += Number(amount) * GO_DURATION_UNITS[unit];
  }
  if (!Number.isFinite(total)) return undefined;
  const ns = BigInt(Math.round(total));
  return ns > MAX_DURATION_NS ? undefined : BigInt(sign) * ns;
}

/**
 * A duration filter value as FlyteAdmin reads it: a number (Go's ParseFloat) is seconds, written back as Go's `%v`
 * prints it with `s` appended (so a million seconds is `1e+06s`, which Go's ParseDuration refuses), then read by
 * ParseDuration; `text` is what was parsed, which a refusal names.
 */
export function durationFilterValue(value: string): { text: string; ns: bigint | undefined } {
  const number = goParseFloat(value);
  const text = number === undefined ? value : `${goFloatText(number)}s`;
  return { text, ns: goParseDuration(text) };
}

/** A duration filter value in nanoseconds, as FlyteAdmin reads it ({@link durationFilterValue}); undefined if refused. */
export function parseDurationNs(text: string): bigint | undefined {
  return durationFilterValue(text).ns;
}

/** Whether a row passes every filter; a filter on a joined table drops rows without a record there. */
export function matchesFilters<T>(row: T, filters: ParsedFilter<T>[]): boolean {
  return filters.every((filter) => {
    const actual = filter.table.read(row, filter.column);
    if (actual === undefined || actual === null) return false;
    return test(actual, filter);
  });
}

function test<T>(actual: Exclude<ColumnValue, null>, filter: ParsedFilter<T>): boolean {
  const order = (value: string) => compare(actual, filter.column, value, filter.nowNs);
  switch (filter.fn) {
    case "contains":
      // FlyteAdmin's `LIKE '%value%'`: a `%` or `_` in the value is a wildcard there too.
      return likePattern(`%${filter.values[0]}%`).test(String(actual));
    case "not_like":
      return !likePattern(filter.values[0]).test(String(actual));
    case "value_in":
      return filter.values.some((value) => order(value) === 0);
    case "value_not_in":
      return filter.values.every((value) => order(value) !== 0);
    case "eq":
      return order(filter.values[0]) === 0;
    case "ne":
      return order(filter.values[0]) !== 0;
    case "gt":
      return order(filter.values[0]) > 0;
    case "gte":
      return order(filter.values[0]) >= 0;
    case "lt":
      return order(filter.values[0]) < 0;
    default:
      return order(filter.values[0]) <= 0;
  }
}

/** SQL LIKE: `%` any run, `_` one character, the rest literal. */
function likePattern(pattern: string): RegExp {
  const body = [...pattern].map((ch) =>
    ch === "%" ? ".*" : ch === "_" ? "." : ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  return new RegExp(`^${body.join("")}$`, "s");
}

/** Sign of actual - value, comparing as the column's type does. */
function compare(actual: Exclude<ColumnValue, null>, column: string, value: string, nowNs: bigint): number {
  if (typeof actual === "bigint") {
    const time = column === "duration" ? undefined : postgresTimestampNs(value, nowNs);
    const other = column === "duration" ? parseDurationNs(value) : typeof time === "bigint" ? time : undefined;
    const diff = actual - (other ?? 0n);
    return diff === 0n ? 0 : diff < 0n ? -1 : 1;
  }
  if (typeof actual === "number") {
    const other = Number(value);
    return actual === other ? 0 : actual < other ? -1 : 1;
  }
  return actual === value ? 0 : actual < value ? -1 : 1;
}

/** A sort order: FlyteAdmin takes any column of the primary table; none keeps insertion order, as its database does. */
export function sortComparator<T>(
  sortBy: Sort | undefined,
  table: FilterTable<T>,
): ((a: T, b: T) => number) | undefined {
  if (!sortBy) return undefined;
  if (!table.columns.has(sortBy.key)) throw invalid(`invalid sort key '${sortBy.key}'`);
  if (sortBy.direction !== Sort_Direction.DESCENDING && sortBy.direction !== Sort_Direction.ASCENDING) {
    // FlyteAdmin prints the whole Sort message, as Go renders it.
    throw invalid(`invalid sort order specified: ${goText(SortSchema, sortBy)}`);
  }
  const sign = sortBy.direction === Sort_Direction.ASCENDING ? 1 : -1;
  return (a, b) => {
    const x = table.read(a, sortBy.key) ?? null;
    const y = table.read(b, sortBy.key) ?? null;
    if (x === y) return 0;
    // Postgres sorts NULL as larger than every value.
    if (x === null) return sign;
    if (y === null) return -sign;
    return sign * (x < y ? -1 : 1);
  };
}

/** An offset token as FlyteAdmin reads it (a decimal integer, not negative), or INVALID_ARGUMENT naming the list. */
export function parseOffsetToken(token: string, method: string): number {
  if (token === "") return 0;
  // Go's strconv.Atoi: a sign and digits, within an int64; then not negative.
  if (!/^[+-]?\d+$/.test(token) || BigInt(token) > 2n ** 63n - 1n || Number(token) < 0) {
    throw invalid(`invalid pagination token ${token} for ${method}`);
  }
  return Number(token);
}

/** FlyteAdmin's limit check. */
export function requireLimit(limit: number): void {
  if (limit === 0) throw invalid("invalid value for limit");
}

/** The page at `offset`: a next token exactly when the page is full, as FlyteAdmin's list managers do. */
export function pageOf<T>(rows: T[], offset: number, limit: number): { items: T[]; token: string } {
  const items = rows.slice(offset, offset + limit);
  return { items, token: items.length === limit ? String(offset + items.length) : "" };
}

/**
 * The cron schedules FlyteAdmin accepts on a launch plan: its validation parses a schedule's cron expression with
 * the standard cron parser of Go's `robfig/cron` (five fields, names of months and weekdays, `@daily`-style
 * descriptors, `@every <duration>`, a `TZ=` or `CRON_TZ=` prefix), and refuses it with that parser's error text.
 * This module checks a spec the same way and returns the same text; it computes no times.
 *
 * @module
 */

/** A field's range, and the names it accepts (lower case). */
interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** The five fields of a standard spec, in order: minute, hour, day of month, month, day of week. */
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((name, i) => [name, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(WEEKDAY_NAMES.map((name, i) => [name, i])) },
];

const DESCRIPTORS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);

/**
 * Why the standard cron parser refuses `spec`, in its words, or undefined when it accepts it.
 *
 * ```ts
 * import { cronSpecError } from "./cron_spec.ts";
 *
 * cronSpecError("*\/5 * * * *"); // undefined
 * cronSpecError("0 10 * * ? *"); // "expected exactly 5 fields, found 6: [0 10 * * ? *]"
 * ```
 */
export function cronSpecError(spec: string): string | undefined {
  if (spec.length === 0) return "empty spec string";
  let rest = spec;
  if (rest.startsWith("TZ=") || rest.startsWith("CRON_TZ=")) {
    const space = rest.indexOf(" ");
    const location = rest.slice(rest.indexOf("=") + 1, space < 0 ? undefined : space);
    if (!knownLocation(location)) return `provided bad location ${location}: unknown time zone ${location}`;
    rest = space < 0 ? "" : rest.slice(space).trim();
  }
  if (rest.startsWith("@")) return descriptorError(rest);
  const fields = rest.split(/\s+/).filter((field) => field !== "");
  if (fields.length !== FIELDS.length) {
    return `expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(" ")}]`;
  }
  for (const [index, field] of fields.entries()) {
    // A field is ranges separated by commas; empty ones (`1,,2`, `,`) are skipped, as Go's FieldsFunc skips them.
    for (const range of field.split(",").filter((part) => part !== "")) {
      const error = rangeError(range, FIELDS[index]);
      if (error) return error;
    }
  }
  return undefined;
}

/** A `*`, `?`, `N`, `N-M`, `N/S`, `N-M/S` or `* /S` range: the parser's error, checked in its order. */
function rangeError(expression: string, bounds: Bounds): string | undefined {
  const rangeAndStep = expression.split("/");
  const lowAndHigh = rangeAndStep[0].split("-");
  let start: number;
  let end: number;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    [start, end] = [bounds.min, bounds.max];
  } else {
    const low = intOrName(lowAndHigh[0], bounds);
    if (typeof low === "string") return low;
    start = end = low;
    if (lowAndHigh.length === 2) {
      const high = intOrName(lowAndHigh[1], bounds);
      if (typeof high === "string") return high;
      end = high;
    } else if (lowAndHigh.length > 2) return `too many hyphens: ${expression}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const parsed = nonNegativeInt(rangeAndStep[1]);
    if (typeof parsed === "string") return parsed;
    step = parsed;
    // `N/S` runs from N to the field's end.
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expression}`;
  if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expression}`;
  if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expression}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expression}`;
  if (step === 0) return `step of range should be a positive number: ${expression}`;
  return undefined;
}

function intOrName(text: string, bounds: Bounds): number | string {
  return bounds.names?.[text.toLowerCase()] ?? nonNegativeInt(text);
}

/** Go's `strconv.Atoi` (an optional sign, decimal digits, 64 bits), then the parser's refusal of a negative number. */
function nonNegativeInt(text: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    return `failed to parse int from ${text}: strconv.Atoi: parsing ${goQuote(text)}: invalid syntax`;
  }
  const value = BigInt(text);
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) {
    return `failed to parse int from ${text}: strconv.Atoi: parsing ${goQuote(text)}: value out of range`;
  }
  if (value < 0n) return `negative number (${value}) not allowed: ${text}`;
  // Beyond any field's range: the range check names it (as a number, whatever its size).
  return Number(value);
}

function descriptorError(descriptor: string): string | undefined {
  if (DESCRIPTORS.has(descriptor)) return undefined;
  const every = "@every ";
  if (descriptor.startsWith(every)) {
    const error = goDurationError(descriptor.slice(every.length));
    return error === undefined ? undefined : `failed to parse duration ${descriptor}: ${error}`;
  }
  return `unrecognized descriptor: ${descriptor}`;
}

const DURATION_UNITS = new Set(["ns", "us", "µs", "μs", "ms", "s", "m", "h"]);

/** Go's `time.ParseDuration` error for `text` (`time: invalid duration "x"`, …), or undefined when it parses. */
export function goDurationError(text: string): string | undefined {
  const quoted = goQuote(text);
  let rest = text.replace(/^[+-]/, "");
  if (rest === "0") return undefined;
  if (rest === "") return `time: invalid duration ${quoted}`;
  while (rest !== "") {
    const number = /^([0-9]*)(\.[0-9]*)?/.exec(rest)!;
    if (number[0] === "" || number[0] === ".") return `time: invalid duration ${quoted}`;
    rest = rest.slice(number[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === "") return `time: missing unit in duration ${quoted}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${goQuote(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

/** A string as Go's `%q` shows it, for the printable ASCII text of specs (others as JSON escapes them). */
function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** Whether Go's `time.LoadLocation` knows `name`: `UTC`, `Local`, or a zone of the IANA database. */
function knownLocation(name: string): boolean {
  if (name === "" || name === "UTC" || name === "Local") return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

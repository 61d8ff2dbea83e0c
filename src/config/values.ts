/**
 * Reads one raw option value (a flag, an environment variable or a YAML node) into its typed form.
 *
 * @module
 */
import { formatDuration, MAX_DURATION_MS, parseDuration } from "./duration.ts";
import type { OptionSpec } from "./schema.ts";
import { quote, UsageError } from "../errors.ts";

/** A resolved option value. */
export type ConfigValue = string | boolean | number | readonly string[] | Readonly<Record<string, string>>;

function isScalar(raw: unknown): raw is string | number | boolean {
  return typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean";
}

function describe(raw: unknown): string {
  if (Array.isArray(raw)) return "a list";
  if (raw !== null && typeof raw === "object") return "a mapping";
  return quote(raw);
}

function splitList(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function parseMap(raw: unknown, bad: (expected: string, value?: unknown) => UsageError): Record<string, string> {
  const out: Record<string, string> = {};
  const pairs = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : undefined;
  if (pairs) {
    for (const pair of pairs) {
      if (typeof pair !== "string") throw bad("key=value pairs");
      for (const item of splitList(pair)) {
        const eq = item.indexOf("=");
        // The one bad pair is named, not "a list" (a repeated flag arrives as one).
        if (eq <= 0) throw bad(`key=value pairs such as "region=us-east-1"`, item);
        out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
      }
    }
    return out;
  }
  if (raw !== null && typeof raw === "object") {
    for (const [key, value] of Object.entries(raw)) {
      if (!isScalar(value)) throw bad("a mapping of text values");
      out[key] = String(value);
    }
    return out;
  }
  throw bad("key=value pairs");
}

/** Parses one raw value for an option, naming `where` it came from on failure. */
export function parseOptionValue(option: OptionSpec, raw: unknown, where: string): ConfigValue {
  // Worked out only for an error: every option of every run passes through here.
  const shown = () => option.secret ? '"[redacted]"' : describe(raw);
  const bad = (expected: string, value?: unknown) =>
    new UsageError(
      `invalid value ${
        value === undefined || option.secret ? shown() : quote(value)
      } for ${where}: expected ${expected}`,
    );
  switch (option.type) {
    case "boolean":
      if (typeof raw === "boolean") return raw;
      // Go's strconv.ParseBool (flytectl's flags and config reader) also takes t and f; its config reader takes a
      // number as a boolean too, as C does.
      if (typeof raw === "number") return raw !== 0;
      if (typeof raw === "string" && /^(true|false|t|f|1|0)$/i.test(raw.trim())) {
        return /^(true|t|1)$/i.test(raw.trim());
      }
      throw bad("true or false");
    case "int": {
      const n = typeof raw === "number"
        ? raw
        : typeof raw === "string" && /^-?\d+$/.test(raw.trim())
        ? Number(raw)
        : NaN;
      const range = option.max !== undefined
        ? ` from ${option.min ?? 0} to ${option.max}`
        : option.min !== undefined
        ? ` of at least ${option.min}`
        : "";
      if (!Number.isSafeInteger(n)) throw bad(`a whole number${range}`);
      if ((option.min !== undefined && n < option.min) || (option.max !== undefined && n > option.max)) {
        throw bad(`a whole number${range}`);
      }
      return n;
    }
    case "enum": {
      const text = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
      const choice = option.choices?.find((c) => c.toLowerCase() === text);
      if (choice === undefined) throw bad(`one of ${option.choices?.join(", ")} (case-insensitive)`);
      return choice;
    }
    case "duration": {
      // A bare number is read as flytectl's config reader reads it, nanoseconds (Go's time.Duration, whole ones);
      // text needs its unit ("15" is refused, as Go's time.ParseDuration refuses it).
      const ms = typeof raw === "string"
        ? parseDuration(raw)
        : typeof raw === "number" && Number.isFinite(raw)
        ? Math.trunc(raw) / 1e6
        : undefined;
      if (ms === undefined || ms < 0) throw bad(`a duration such as "15s", "5m0s" or "1h30m"`);
      if (ms > MAX_DURATION_MS) throw bad(`a duration from 0s to ${formatDuration(MAX_DURATION_MS)}`);
      return ms;
    }
    case "strings":
      if (Array.isArray(raw) && raw.every(isScalar)) return raw.flatMap((s) => splitList(String(s)));
      if (typeof raw === "string") return splitList(raw);
      throw bad("a list of text values");
    case "map":
      return parseMap(raw, bad);
    case "string":
      if (isScalar(raw)) return String(raw);
      throw bad("a string");
  }
}

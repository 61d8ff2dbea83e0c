/**
 * The three log record formats of flytestdlib's logger, one record per line: `json` (logrus
 * JSONFormatter with fields under "json" and the time as "ts"), `text` (logrus TextFormatter) and
 * `gcp` (Google Cloud Logging's structured shape).
 *
 * @module
 */
import { printableJson } from "../output/printable.ts";

/** A log level number as flytectl numbers them: 0 panic … 5 debug. */
export type LogLevel = 0 | 1 | 2 | 3 | 4 | 5;

/** One log record. */
export interface LogRecord {
  level: LogLevel;
  message: string;
  time: Date;
  /** Structured context (rpc, attempt, …); `src` holds the source location when asked for. */
  fields: Record<string, unknown>;
}

/** Formatter names of `--logger.formatter.type`. */
export type FormatterType = "json" | "text" | "gcp";

/** logrus level names (logrus says "warning"). */
const LOGRUS_NAMES = ["panic", "fatal", "error", "warning", "info", "debug"] as const;
/** Cloud Logging severities, as flytestdlib maps logrus levels. */
const GCP_SEVERITIES = ["ALERT", "CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"] as const;

/** RFC 3339 in UTC without fractions, like Go's `time.RFC3339`. */
function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function sortedFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(fields).sort().map((k) => [k, fields[k]]));
}

function textValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  // logrus quotes anything that is not a plain word.
  return /^[A-Za-z0-9\-._/@^+]+$/.test(text) ? text : JSON.stringify(text);
}

/**
 * Formats one record as one line (without the newline). Every format quotes text as JSON does, which escapes C0
 * controls (ESC, line breaks); the other characters a terminal acts on (DEL, C1 controls, bidirectional
 * overrides) are escaped too, so that no text a server sent can drive the terminal.
 */
export function formatRecord(type: FormatterType, record: LogRecord): string {
  return printableJson(formatLine(type, record));
}

function formatLine(type: FormatterType, record: LogRecord): string {
  const ts = rfc3339(record.time);
  switch (type) {
    case "json":
      return JSON.stringify({
        json: sortedFields(record.fields),
        level: LOGRUS_NAMES[record.level],
        msg: record.message,
        ts,
      });
    case "gcp": {
      const data = Object.keys(record.fields).length > 0 ? { data: sortedFields(record.fields) } : {};
      return JSON.stringify({
        ...data,
        message: record.message,
        severity: GCP_SEVERITIES[record.level],
        timestamp: ts,
      });
    }
    case "text": {
      const parts = [
        `time=${textValue(ts)}`,
        `level=${LOGRUS_NAMES[record.level]}`,
        `msg=${textValue(record.message)}`,
      ];
      for (const [key, value] of Object.entries(sortedFields(record.fields))) parts.push(`${key}=${textValue(value)}`);
      return parts.join(" ");
    }
  }
}

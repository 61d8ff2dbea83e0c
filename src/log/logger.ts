/**
 * The logger: records at or below the configured level go to stderr, one per line, in the configured
 * format, with every registered secret redacted. Nothing else in fctl writes log records.
 *
 * @module
 */
import type { TextSink } from "../output/io.ts";
import { formatRecord, type FormatterType, type LogLevel, type LogRecord } from "./format.ts";
import type { Redactor } from "./redact.ts";
import { capLength } from "../output/printable.ts";

/** How to build a {@link Logger}. */
export interface LoggerOptions {
  /** Where records go (stderr). */
  sink: TextSink;
  /** Highest level written: 0 panic … 3 warn … 5 debug. */
  level: number;
  formatter: FormatterType;
  /** Write nothing at all. */
  mute?: boolean;
  /** Add `src` (file:line of the caller) to every record. */
  showSource?: boolean;
  redactor: Redactor;
  /** Clock, for tests. */
  now?: () => Date;
}

/** Structured log fields. */
export type LogFields = Record<string, unknown>;

/** Writes log records. */
export interface Logger {
  /** The configured level (5 means debug, which also prints stack traces of errors). */
  readonly level: number;
  /** Whether a record of `level` would be written. */
  enabled(level: LogLevel): boolean;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /**
   * A warning about the configuration (an unknown key, a deprecated option, skipped certificate verification):
   * a warning record written at every level, only `mute` silences it. A typo in the config must never go
   * unseen, and `logger.level: 0` (panic only) is common in flytectl's configs, whose `config init` writes it.
   */
  configWarning(message: string, fields?: LogFields): void;
}

/**
 * Longest message or string field a record holds; longer ones (a server's answer quoted whole) are cut, saying how
 * much was left out.
 */
export const MAX_LOG_VALUE = 2000;

/** `text` redacted, then cut to {@link MAX_LOG_VALUE}; only its start is redacted, as only that is kept. */
function shownText(text: string, redactor: Redactor): string {
  // Room for a whole secret across the cut: one that starts before it is hidden before the cut could split it.
  const window = text.slice(0, 4 * MAX_LOG_VALUE);
  return capLength(redactor.redact(window), MAX_LOG_VALUE, text.length - window.length);
}

function redactValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === "string") return shownText(value, redactor);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactor));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, redactor)]));
  }
  return value;
}

/** `file.ts:12` of the code that called the logger (three frames up: here, the level method, the caller). */
function callerSource(): string | undefined {
  const frame = new Error().stack?.split("\n")[4] ?? "";
  const match = /([^/\\\s(]+\.[jt]s):(\d+):\d+\)?\s*$/.exec(frame);
  return match ? `${match[1]}:${match[2]}` : undefined;
}

/** Creates a logger. */
export function createLogger(options: LoggerOptions): Logger {
  const now = options.now ?? (() => new Date());
  const enabled = (level: LogLevel) => !options.mute && level <= options.level;
  const write = (level: LogLevel, message: string, fields: LogFields = {}, anyLevel = false) => {
    if (anyLevel ? options.mute : !enabled(level)) return;
    const all: LogFields = { ...fields };
    if (options.showSource) {
      const src = callerSource();
      if (src) all.src = src;
    }
    const record: LogRecord = {
      level,
      message: shownText(message, options.redactor),
      time: now(),
      fields: redactValue(all, options.redactor) as LogFields,
    };
    // One record per line: a message with newlines is escaped by the JSON formats and quoted by text.
    const line = formatRecord(options.formatter, record).replace(/\n/g, "\\n");
    options.sink.write(`${options.redactor.redact(line)}\n`);
  };
  return {
    level: options.level,
    enabled,
    error: (message, fields) => write(2, message, fields),
    warn: (message, fields) => write(3, message, fields),
    info: (message, fields) => write(4, message, fields),
    debug: (message, fields) => write(5, message, fields),
    configWarning: (message, fields) => write(3, message, fields, true),
  };
}

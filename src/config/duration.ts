/**
 * Go duration strings (`5m0s`, `1h30m`, `15s`, `250ms`), as flytectl's config files and flags
 * write them, to and from milliseconds.
 *
 * @module
 */

/**
 * The longest duration fctl accepts: what a timer can hold (setTimeout's 2^31-1 ms, about 24.8 days; a
 * longer one fires at once). Go's own limit (int64 nanoseconds, about 292 years) is far above it.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Go's limit: the largest time.Duration, in milliseconds. */
const GO_MAX_MS = 9_223_372_036_854.775807;

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  "μs": 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go duration string into milliseconds; undefined when it is not one, or when it is beyond what
 * Go can hold (as Go's `time.ParseDuration` refuses it). Callers bound it further with {@link MAX_DURATION_MS}.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  // Go accepts a bare "0"; every other value needs units.
  if (trimmed === "0") return 0;
  const whole = /^([-+]?)((?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(trimmed);
  if (!whole) return undefined;
  let total = 0;
  for (const part of whole[2].matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNIT_MS[part[2]];
  }
  if (!Number.isFinite(total) || total > GO_MAX_MS) return undefined;
  // Whole nanoseconds, as Go holds them: "8.171s" is 8171 ms, not 8170.999999999999 (the fuzz task's find).
  total = Math.round(total * 1e6) / 1e6;
  return whole[1] === "-" ? -total : total;
}

/** Formats milliseconds the way Go's `time.Duration.String` does (`1h30m0s`, `15s`, `250ms`, `0s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${trimNumber(rest)}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = `${trimNumber(rest / 1000)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

function trimNumber(value: number): string {
  return String(Number(value.toFixed(6)));
}

/**
 * Durations as Go prints them (`1m2s`, `1.5s`, `250ms`, `0s`): how flytectl shows an execution's elapsed time, and
 * how fctl shows durations in literals and node trees.
 *
 * @module
 */

/** Nanoseconds below one second, in the largest unit that keeps them whole or short (`250ms`, `1.5µs`, `7ns`). */
function subSecond(nanos: bigint): string {
  if (nanos < 1_000n) return `${nanos}ns`;
  if (nanos < 1_000_000n) return `${trim(Number(nanos) / 1e3)}µs`;
  return `${trim(Number(nanos) / 1e6)}ms`;
}

/** A number without a float's noise (`1.5`, not `1.5000000001`). */
function trim(value: number): string {
  return String(Number(value.toFixed(9)));
}

/**
 * Go's `time.Duration.String()` of seconds and nanoseconds: `1h2m3s`, `1m0.5s`, `250ms`, `0s`; negative with `-`.
 *
 * ```ts
 * import { durationText } from "./duration_text.ts";
 *
 * durationText({ seconds: 62n, nanos: 0 }); // "1m2s"
 * ```
 */
export function durationText(duration: { seconds: bigint; nanos: number } | undefined): string {
  if (!duration) return "";
  const total = duration.seconds * 1_000_000_000n + BigInt(duration.nanos);
  if (total === 0n) return "0s";
  const sign = total < 0n ? "-" : "";
  const abs = total < 0n ? -total : total;
  if (abs < 1_000_000_000n) return sign + subSecond(abs);
  const hours = abs / 3_600_000_000_000n;
  const minutes = (abs / 60_000_000_000n) % 60n;
  const secondsNs = abs % 60_000_000_000n;
  const whole = secondsNs / 1_000_000_000n;
  const fraction = secondsNs % 1_000_000_000n;
  const seconds = fraction === 0n ? `${whole}` : `${whole}.${String(fraction).padStart(9, "0").replace(/0+$/, "")}`;
  const head = hours > 0n ? `${hours}h${minutes}m` : minutes > 0n ? `${minutes}m` : "";
  return `${sign}${head}${seconds}s`;
}

/**
 * Datetime and duration inputs read exactly: RFC 3339 text to seconds and nanoseconds, Go duration text
 * (`300ms`, `2h45m`) to nanoseconds as a bigint. `Date` keeps only milliseconds and
 * `src/config/duration.ts` works in float milliseconds (enough for timeouts, not for a nanosecond input or
 * Go's whole int64 range), so neither is used here.
 *
 * @module
 */

const NANOS_PER_SECOND = 1_000_000_000n;
const INT64_MAX = (1n << 63n) - 1n;

/** A point in time as google.protobuf.Timestamp holds it. */
export interface SecondsNanos {
  seconds: bigint;
  nanos: number;
}

/** Days from 1970-01-01 to the proleptic Gregorian date (any year, no Date and its 1900s quirk for years < 100). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/**
 * RFC 3339 text (`2024-03-04T05:06:07Z`, `2024-03-04T05:06:07.123456789+02:00`) as Go's `time.Parse` with
 * `time.RFC3339` reads it: a fraction of any length (cut at nanoseconds), seconds 0–59, a real calendar day.
 * Undefined when it is not one.
 */
export function parseRfc3339(text: string): SecondsNanos | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (!m[8]) {
    const [offsetHours, offsetMinutes] = [Number(m[10]), Number(m[11])];
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offset = (offsetHours * 60 + offsetMinutes) * 60 * (m[9] === "-" ? -1 : 1);
  }
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86400n +
    BigInt(hour * 3600 + minute * 60 + second - offset);
  const nanos = m[7] ? Number(m[7].slice(0, 9).padEnd(9, "0")) : 0;
  return { seconds, nanos };
}

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  "µs": 1_000n,
  "μs": 1_000n,
  ms: 1_000_000n,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3600n * NANOS_PER_SECOND,
};

const DURATION = /^([-+]?)((?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;

/**
 * Go duration text (`300ms`, `-1.5h`, `2h45m`, a bare `0`) in nanoseconds, exactly; fractions of a nanosecond
 * are dropped and anything beyond Go's int64 range refused, as `time.ParseDuration` does. Undefined when it is
 * not one.
 */
export function parseGoDurationNanos(text: string): bigint | undefined {
  if (text === "0" || text === "+0" || text === "-0") return 0n;
  const whole = DURATION.exec(text);
  if (!whole) return undefined;
  let total = 0n;
  for (const part of whole[2].matchAll(/(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/g)) {
    const unit = UNIT_NANOS[part[3]];
    const fraction = part[2] ?? "";
    total += BigInt(part[1] || "0") * unit;
    if (fraction !== "") total += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    if (total > INT64_MAX + 1n) return undefined;
  }
  if (whole[1] === "-") return -total;
  return total > INT64_MAX ? undefined : total;
}

/** Nanoseconds as google.protobuf.Duration holds them: seconds and nanos of the same sign. */
export function durationParts(nanos: bigint): SecondsNanos {
  return { seconds: nanos / NANOS_PER_SECOND, nanos: Number(nanos % NANOS_PER_SECOND) };
}

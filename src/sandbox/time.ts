/**
 * Time helpers for the sandbox: creation timestamps that never repeat and RFC 3339 parsing
 * with nanosecond precision, because list ordering and `created_at` filters depend on both.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;
/** Ties are broken by a microsecond, so the values still read naturally in Go and Python clients. */
const TIE_STEP_NS = 1_000n;

/** Returns strictly increasing timestamps (in nanoseconds) even when `now` repeats or goes backwards. */
export function createMonotonicClock(now: () => Date): () => bigint {
  let last = -1n;
  return () => {
    const current = BigInt(now().getTime()) * NS_PER_MS;
    last = current > last ? current : last + TIE_STEP_NS;
    return last;
  };
}

/** A protobuf Timestamp for nanoseconds since the epoch. */
export function timestampFromNs(ns: bigint): Timestamp {
  const seconds = ns / NS_PER_S;
  return create(TimestampSchema, { seconds, nanos: Number(ns - seconds * NS_PER_S) });
}

/** Nanoseconds since the epoch of a protobuf Timestamp (zero when absent). */
export function timestampToNs(ts: Timestamp | undefined): bigint {
  return ts ? ts.seconds * NS_PER_S + BigInt(ts.nanos) : 0n;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 time to nanoseconds since the epoch; undefined when it is not one. */
export function parseRfc3339(text: string): bigint | undefined {
  const match = RFC3339.exec(text.trim());
  if (!match) return undefined;
  const [, date, time, fraction = "", zone] = match;
  const ms = Date.parse(`${date}T${time}${zone.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * NS_PER_MS + BigInt(fraction.padEnd(9, "0") || "0");
}

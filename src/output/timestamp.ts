/**
 * RFC 3339 UTC rendering of protobuf timestamps as proto3 JSON writes them, which is what flytectl's tables show
 * and what `-o json` prints: the sub-second digits in groups of three (0, 3, 6 or 9 digits), so that
 * `.610` stays `.610` and `.617001` stays `.617001`.
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";

/** `2021-05-24T21:43:12.325335Z` style text, or "" for a missing timestamp. */
export function formatTimestamp(ts: Timestamp | undefined): string {
  if (!ts) return "";
  const base = new Date(Number(ts.seconds) * 1000).toISOString().slice(0, 19);
  return `${base}${fraction(ts.nanos)}Z`;
}

/** The nanoseconds as proto3 JSON writes them: none, milliseconds, microseconds or nanoseconds. */
function fraction(nanos: number): string {
  if (nanos <= 0) return "";
  const digits = String(nanos).padStart(9, "0");
  if (nanos % 1_000_000 === 0) return `.${digits.slice(0, 3)}`;
  if (nanos % 1_000 === 0) return `.${digits.slice(0, 6)}`;
  return `.${digits}`;
}

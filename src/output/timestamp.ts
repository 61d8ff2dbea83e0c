/**
 * RFC 3339 UTC rendering of protobuf timestamps, keeping sub-second digits as the server sent them.
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";

/** `2021-05-24T21:43:12.325335Z` style text, or "" for a missing timestamp. */
export function formatTimestamp(ts: Timestamp | undefined): string {
  if (!ts) return "";
  const base = new Date(Number(ts.seconds) * 1000).toISOString().slice(0, 19);
  const fraction = ts.nanos > 0 ? "." + String(ts.nanos).padStart(9, "0").replace(/0+$/, "") : "";
  return `${base}${fraction}Z`;
}

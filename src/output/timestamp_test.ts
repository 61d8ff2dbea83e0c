import { equal } from "node:assert/strict";
import { create, toJson } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { formatTimestamp } from "./timestamp.ts";

Deno.test("a table's timestamp is proto3 JSON's (what flytectl's tables and -o json show): 0, 3, 6 or 9 digits", () => {
  const seconds = BigInt(Date.parse("2026-11-27T14:56:24Z") / 1000);
  const cases: [number, string][] = [
    [0, "2026-11-27T14:56:24Z"],
    [610_000_000, "2026-11-27T14:56:24.610Z"],
    [617_001_000, "2026-11-27T14:56:24.617001Z"],
    [1, "2026-11-27T14:56:24.000000001Z"],
    [999_999_999, "2026-11-27T14:56:24.999999999Z"],
    [100_000, "2026-11-27T14:56:24.000100Z"],
  ];
  for (const [nanos, text] of cases) {
    const ts = create(TimestampSchema, { seconds, nanos });
    equal(formatTimestamp(ts), text);
    equal(formatTimestamp(ts), toJson(TimestampSchema, ts));
  }
  equal(formatTimestamp(undefined), "");
});

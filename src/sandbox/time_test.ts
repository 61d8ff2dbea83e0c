import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createMonotonicClock, parseRfc3339, timestampFromNs, timestampToNs } from "./time.ts";

Deno.test("the clock never repeats, even when now() does or goes back", () => {
  const times = [1000, 1000, 1000, 999, 2000];
  const clock = createMonotonicClock(() => new Date(times.shift()!));
  assertEquals([clock(), clock(), clock(), clock(), clock()], [
    1_000_000_000n,
    1_000_001_000n,
    1_000_002_000n,
    1_000_003_000n,
    2_000_000_000n,
  ]);
});

Deno.test("timestamps round-trip nanoseconds", () => {
  const ts = timestampFromNs(1_621_892_592_123_456_789n);
  assertEquals([ts.seconds, ts.nanos], [1_621_892_592n, 123_456_789]);
  assertEquals(timestampToNs(ts), 1_621_892_592_123_456_789n);
});

Deno.test("parseRfc3339 keeps nanoseconds and applies offsets", () => {
  assertEquals(parseRfc3339("2021-05-24T21:43:12Z"), 1_621_892_592_000_000_000n);
  assertEquals(parseRfc3339("2021-05-24T23:43:12.000000001+02:00"), 1_621_892_592_000_000_001n);
  assertEquals(parseRfc3339("2021-05-24"), undefined);
  assertEquals(parseRfc3339("2021-13-45T99:99:99Z"), undefined);
});

import { equal } from "node:assert/strict";
import { formatDuration, parseDuration } from "./duration.ts";

Deno.test("Go duration strings parse to milliseconds", () => {
  const cases: [string, number | undefined][] = [
    ["15s", 15_000],
    ["5m0s", 300_000],
    ["1h30m", 5_400_000],
    ["1.5s", 1_500],
    ["250ms", 250],
    ["1m30.5s", 90_500],
    ["0", 0],
    ["0s", 0],
    [" 8s ", 8_000],
    ["2h45m10s", 9_910_000],
    ["100us", 0.1],
    ["15", undefined],
    ["s", undefined],
    ["1d", undefined],
    ["", undefined],
    ["5 m", undefined],
    // Beyond Go's int64 nanoseconds (Go refuses them too), and digits that overflow a float to Infinity.
    ["2562048h", undefined],
    ["9".repeat(400) + "h", undefined],
    ["2562047h", 9_223_369_200_000],
  ];
  for (const [text, ms] of cases) equal(parseDuration(text), ms, text);
});

Deno.test("milliseconds format like Go's time.Duration.String", () => {
  const cases: [number, string][] = [
    [0, "0s"],
    [15_000, "15s"],
    [300_000, "5m0s"],
    [5_400_000, "1h30m0s"],
    [1_500, "1.5s"],
    [250, "250ms"],
    [90_500, "1m30.5s"],
  ];
  for (const [ms, text] of cases) {
    equal(formatDuration(ms), text, String(ms));
    equal(parseDuration(text), ms, text);
  }
});

Deno.test("decimal seconds parse to whole nanoseconds: 8.171s is 8171 ms, not 8170.999999999999", () => {
  equal(parseDuration("8.171s"), 8171);
  equal(parseDuration(formatDuration(8171)), 8171);
});

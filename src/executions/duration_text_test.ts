import { deepEqual } from "node:assert/strict";
import { durationText } from "./duration_text.ts";

Deno.test("durationText prints Go's Duration.String()", () => {
  const cases: [bigint, number, string][] = [
    [0n, 0, "0s"],
    [62n, 0, "1m2s"],
    [1n, 500_000_000, "1.5s"],
    [0n, 250_000_000, "250ms"],
    [0n, 1_500, "1.5µs"],
    [0n, 7, "7ns"],
    [3600n, 0, "1h0m0s"],
    [3723n, 0, "1h2m3s"],
    [60n, 500_000_000, "1m0.5s"],
    [-2n, 0, "-2s"],
  ];
  deepEqual(cases.map(([seconds, nanos]) => durationText({ seconds, nanos })), cases.map(([, , text]) => text));
  deepEqual(durationText(undefined), "");
});

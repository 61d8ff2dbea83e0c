import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { cronSpecError, goDurationError } from "./cron_spec.ts";

Deno.test("cronSpecError accepts what Go's standard cron parser accepts", () => {
  const accepted = [
    "* * * * *",
    "*/15 0-6,18-23 ? * *",
    "0 9 1,15 jan-MAR mon-FRI",
    "5/10 * * * SUN",
    "0 0 1 * *",
    "@yearly",
    "@annually",
    "@monthly",
    "@weekly",
    "@daily",
    "@midnight",
    "@hourly",
    "@every 1h30m",
    "@every 1.5s",
    "TZ=Europe/Paris 0 6 * * *",
    "CRON_TZ=UTC @daily",
    "+5 * * * *",
    "0,,30 * * * *",
  ];
  for (const spec of accepted) assertEquals(cronSpecError(spec), undefined, spec);
});

Deno.test("cronSpecError refuses with Go's standard cron parser's words", () => {
  const refused: [string, string][] = [
    ["", "empty spec string"],
    ["0 10 * * ? *", "expected exactly 5 fields, found 6: [0 10 * * ? *]"],
    ["* *", "expected exactly 5 fields, found 2: [* *]"],
    ["60 * * * *", "end of range (60) above maximum (59): 60"],
    ["0 0 0 * *", "beginning of range (0) below minimum (1): 0"],
    ["0 0 * 13 *", "end of range (13) above maximum (12): 13"],
    ["10-5 * * * *", "beginning of range (10) beyond end of range (5): 10-5"],
    ["*/0 * * * *", "step of range should be a positive number: */0"],
    ["1-2-3 * * * *", "too many hyphens: 1-2-3"],
    ["1/2/3 * * * *", "too many slashes: 1/2/3"],
    ["x * * * *", 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ["5/ * * * *", 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ["* * * * 7", "end of range (7) above maximum (6): 7"],
    ["* * * * funday", 'failed to parse int from funday: strconv.Atoi: parsing "funday": invalid syntax'],
    [
      "99999999999999999999 * * * *",
      'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range',
    ],
    ["@fortnightly", "unrecognized descriptor: @fortnightly"],
    ["@every 5", 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ["@every 5q", 'failed to parse duration @every 5q: time: unknown unit "q" in duration "5q"'],
    ["TZ=Nowhere/City 0 0 * * *", "provided bad location Nowhere/City: unknown time zone Nowhere/City"],
  ];
  for (const [spec, error] of refused) assertEquals(cronSpecError(spec), error, spec);
});

Deno.test("goDurationError follows Go's time.ParseDuration", () => {
  for (const ok of ["0", "-0", "1h", "1h30m", "1.5s", ".5s", "1.s", "300ms", "2us", "2µs", "-1m"]) {
    assertEquals(goDurationError(ok), undefined, ok);
  }
  assertEquals(goDurationError(""), 'time: invalid duration ""');
  assertEquals(goDurationError("h"), 'time: invalid duration "h"');
  assertEquals(goDurationError("1"), 'time: missing unit in duration "1"');
  assertEquals(goDurationError("1d"), 'time: unknown unit "d" in duration "1d"');
});

/** Property tests of duration parsing, bounded by case count (about a second each on a busy machine). */
import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { formatDuration, MAX_DURATION_MS, parseDuration } from "./duration.ts";
import { parseOptionValue } from "./values.ts";
import { optionSpec } from "./schema.ts";
import { parseServiceConfig, ServiceConfigError } from "./service_config.ts";

const SPEC = optionSpec("admin.perRetryTimeout");
/** Strings built from what durations are made of, so many parse; plus any string at all. */
const DURATION_TEXT = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(..."0123456789.+-hmsuµn ".split("")), maxLength: 30 }),
  fc.tuple(fc.stringMatching(/^\d{1,25}(\.\d{0,6})?$/), fc.constantFrom("ns", "us", "µs", "ms", "s", "m", "h"))
    .map(([n, unit]) => n + unit),
);

Deno.test("property: a duration option is accepted within 0s..MAX or refused with one UsageError line", async () => {
  await checkProperty(
    "duration: a duration option is accepted within 0s..MAX or refused with one UsageError line",
    fc.property(DURATION_TEXT, (text) => {
      let ms: unknown;
      try {
        ms = parseOptionValue(SPEC, text, "--admin.perRetryTimeout");
      } catch (err) {
        ok(err instanceof UsageError, String(err));
        ok(!err.message.includes("\n") && err.message.includes("--admin.perRetryTimeout"), err.message);
        return;
      }
      ok(typeof ms === "number" && ms >= 0 && ms <= MAX_DURATION_MS, `${text} -> ${ms}`);
      // What `config view` shows parses back to the same value, to the microsecond it prints.
      const again = parseDuration(formatDuration(ms));
      ok(again !== undefined && Math.abs(again - ms) <= 1e-3, `${text} -> ${formatDuration(ms)} -> ${again}`);
    }),
    { numRuns: runs(10_000) },
  );
});

Deno.test("property: every whole number of milliseconds in range round-trips through Go's format", async () => {
  await checkProperty(
    "duration: every whole number of milliseconds in range round-trips through Go's format",
    fc.property(fc.integer({ min: 0, max: MAX_DURATION_MS }), (ms) => {
      equal(parseDuration(formatDuration(ms)), ms);
    }),
    { numRuns: runs(10_000) },
  );
});

Deno.test("property: a service-config timeout is accepted within range or refused naming it", async () => {
  await checkProperty(
    "duration: a service-config timeout is accepted within range or refused naming it",
    fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{1,12}(\.\d{1,9})?s$/)), (timeout) => {
      const text = JSON.stringify({ methodConfig: [{ name: [{ service: "s" }], timeout }] });
      try {
        const ms = parseServiceConfig(text).methodConfig[0].timeoutMs;
        ok(ms !== undefined && ms >= 0 && ms <= MAX_DURATION_MS, `${timeout} -> ${ms}`);
      } catch (err) {
        ok(err instanceof ServiceConfigError, String(err));
        ok(!err.message.includes("\n") && err.message.includes("methodConfig[0].timeout"), err.message);
      }
    }),
    { numRuns: runs(5_000) },
  );
});

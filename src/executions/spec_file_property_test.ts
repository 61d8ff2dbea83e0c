/** Property tests of spec file reading: any text is a spec or one UsageError line naming the file, nothing else. */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { EXEC_SPEC_KEYS, parseExecutionSpec } from "./spec_file.ts";

/** Text made of what spec files are made of (keys, YAML punctuation, anchors, merge keys), and any text at all. */
const SPEC_TEXT = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.array(
    fc.oneof(
      fc.constantFrom(...EXEC_SPEC_KEYS, "Task", "INPUTS", "<<", "&a", "*a", "!!str", "!!binary", "~", "yes", "1.10"),
      fc.constantFrom(": ", "\n", "\n  ", "\n    ", "- ", "[", "]", "{", "}", ", ", '"', "'", "#", "|", ">"),
      fc.stringMatching(/^[a-z0-9_.]{1,6}$/),
    ),
    { maxLength: 40 },
  ).map((parts) => parts.join("")),
);

Deno.test("property: any text is a spec with exactly one of task and workflow, or one UsageError line", async () => {
  await checkProperty(
    "executions: spec file text is a spec or one UsageError line",
    fc.asyncProperty(SPEC_TEXT, async (text) => {
      let spec;
      try {
        spec = await parseExecutionSpec(text, "spec.yaml");
      } catch (err) {
        ok(err instanceof UsageError, `${text}\n→ ${err}`);
        ok(err.message.startsWith('exec file "spec.yaml"'), err.message);
        ok(!err.message.includes("\n") && err.message.length < 600, err.message);
        return;
      }
      ok(Boolean(spec.task) !== Boolean(spec.workflow), text);
    }),
    { numRuns: runs(3_000) },
  );
});

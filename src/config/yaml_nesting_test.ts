import { deepEqual, equal, ok } from "node:assert/strict";
import { parseDocument } from "yaml";
import { nestingPosition, yamlNesting } from "./yaml_nesting.ts";

Deno.test("yamlNesting: the parser's stack exhaustion, with its position; a RangeError; nothing else", () => {
  const [deep] = parseDocument(`a: ${"[".repeat(5_000)}${"]".repeat(5_000)}\n`).errors;
  const nesting = yamlNesting(deep);
  ok(nesting?.at, "a position");
  equal(nesting.at.line, 1);
  equal(nestingPosition(nesting), ` at line 1, column ${nesting.at.col}`);
  deepEqual(yamlNesting(new RangeError("Maximum call stack size exceeded")), {});
  equal(nestingPosition({}), "");
  const [syntax] = parseDocument("a: [\n").errors;
  equal(yamlNesting(syntax), undefined);
  equal(yamlNesting(new Error("other")), undefined);
});

import { deepEqual, equal } from "node:assert/strict";
import { renderJson, shownDocument } from "./document.ts";

const hide = (text: string) => text.replaceAll("s3cr3t", "[redacted]");

Deno.test("shownDocument: a document without a secret is returned as it is", () => {
  const doc = { a: ["x", 1, true, null], b: { c: "s3cr" } };
  equal(shownDocument(doc, hide), doc);
});

Deno.test("shownDocument: a secret split by the join of two texts is found in neither: nothing changes", () => {
  const doc = ["s3c", "r3t"];
  equal(shownDocument(doc, hide), doc);
});

Deno.test("shownDocument: keys made equal are numbered; __proto__ stays a key", () => {
  const doc = JSON.parse('{"s3cr3t": 1, "[redacted]": 2, "__proto__": {"k": "a s3cr3t"}}');
  const shown = shownDocument(doc, hide);
  equal(
    renderJson(shown),
    '{\n  "[redacted] 2": 1,\n  "[redacted]": 2,\n  "__proto__": {\n    "k": "a [redacted]"\n  }\n}\n',
  );
  deepEqual(Object.getPrototypeOf(shown), Object.prototype);
});

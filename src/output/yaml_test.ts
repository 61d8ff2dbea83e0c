import { equal, ok as assert } from "node:assert/strict";
import fc from "fast-check";
import * as yaml from "yaml";
import type { JsonValue } from "@bufbuild/protobuf";
import { implicitTypes, renderYaml, YAML_OPTIONS } from "./document.ts";
import { emitYaml } from "./yaml.ts";

const TYPES = implicitTypes(yaml);

/** Whether a document has a `<<` key, the one thing the emitter writes differently (quoted) from the library. */
function hasMergeKey(doc: JsonValue): boolean {
  if (doc === null || typeof doc !== "object") return false;
  if (Array.isArray(doc)) return doc.some(hasMergeKey);
  return Object.entries(doc).some(([key, value]) => key === "<<" || hasMergeKey(value));
}

/** Strings at every rule of the library's scalar styles: YAML 1.1 look-alikes, indicators, line breaks, escapes. */
const TRICKY = [
  "",
  " ",
  "yes",
  "No",
  "ON",
  "off",
  "y",
  "n",
  "~",
  "null",
  "NULL",
  "true",
  "False",
  "<<",
  "12:30",
  "-12:30:01.5",
  "0x1f",
  "0b101",
  "017",
  "1_000",
  "3.",
  ".5",
  "1e3",
  "E00000",
  "e5",
  "e-12",
  "E5x",
  ".inf",
  "-.Inf",
  ".nan",
  "2021-05-24",
  "2021-05-24T21:43:12Z",
  "2021-5-4 1:2:3.5 +02:00",
  "- a",
  "-",
  "?",
  "? x",
  "a: b",
  "a:",
  "a:b",
  "#c",
  "a #b",
  "a#b",
  "---",
  "--- x",
  "...",
  "%YAML",
  "a\n---",
  "'q'",
  '"q"',
  `it's "x"`,
  "[a]",
  "{a}",
  "a, b",
  "&a",
  "*a",
  "!t",
  "|",
  ">",
  "@x",
  "`x`",
  "a\nb",
  "a\n",
  "a\n\n",
  "a\n\n\n",
  "\n",
  "\na",
  " a\nb",
  "  a\n b",
  "a \nb",
  "a\n b",
  "a\n ",
  "a\t\nb",
  "\ta",
  "\x00",
  "\x07",
  "\x0b",
  "\x1b",
  "\x7f",
  "\u0085",
  "\u00a0x",
  "\u2028",
  "\u2029",
  "\ud800",
  "日本語",
  "emoji 🙂",
  "a long line with a break in the middle\nof it, more than forty characters long",
  "a long line with a space before the break \n and after it, forty characters at least",
  "a long line with\n\n\nseveral breaks, more than forty characters in all\n",
];

const text = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string(),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.array(fc.constantFrom(...TRICKY), { maxLength: 4 }).map((parts) => parts.join("")),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_./-]{0,12}$/),
);

const { tree } = fc.letrec<{ tree: JsonValue; leaf: JsonValue }>((tie) => ({
  leaf: fc.oneof(
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  ),
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("leaf"),
    fc.array(tie("tree"), { maxLength: 4 }),
    fc.dictionary(text, tie("tree"), { maxKeys: 4 }),
  ),
}));

Deno.test("emitYaml writes what yaml's stringify writes, byte for byte, for any JSON document", () => {
  fc.assert(
    fc.property(fc.oneof(fc.array(tree, { maxLength: 5 }), fc.dictionary(text, tree, { maxKeys: 5 })), (doc) => {
      fc.pre(!hasMergeKey(doc));
      equal(emitYaml(doc, TYPES), yaml.stringify(doc, YAML_OPTIONS));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("emitYaml: every tricky string as a key, a value and a list item", () => {
  for (const value of TRICKY) {
    for (const doc of [{ [value]: value }, [value], { a: { b: [value, { [value]: [value] }] } }] as JsonValue[]) {
      if (!hasMergeKey(doc)) equal(emitYaml(doc, TYPES), yaml.stringify(doc, YAML_OPTIONS), JSON.stringify(doc));
    }
  }
});

Deno.test("plain names longer than 5 characters never read as another YAML 1.1 type (the emitter's shortcut)", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9_./-]{5,20}$/).filter((name) => !/^[eE]-?[0-9]+$/.test(name)),
      (name) => equal(TYPES.test(name), false),
    ),
    { numRuns: 5000 },
  );
  for (const word of ["y", "Yes", "NO", "on", "Off", "true", "FALSE", "null", "Null"]) assert(TYPES.test(word), word);
  // An exponent alone is a float in the library's YAML 1.1 schema, at any length: the shortcut leaves it out.
  for (const exponent of ["e5", "E-12", "E00000", "e1234567"]) assert(TYPES.test(exponent), exponent);
});

Deno.test("a << key is quoted: YAML 1.1 readers take a plain one for a merge key", () => {
  equal(emitYaml({ "<<": "<<" }, TYPES), '"<<": <<\n');
});

Deno.test("renderYaml leaves to the library what the emitter does not write", async () => {
  equal(await renderYaml("yes"), yaml.stringify("yes", YAML_OPTIONS));
  const longKey = { ["k".repeat(1100)]: 1 };
  equal(emitYaml(longKey, TYPES), undefined);
  equal(await renderYaml(longKey), yaml.stringify(longKey, YAML_OPTIONS));
});

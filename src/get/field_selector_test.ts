import { equal, throws } from "node:assert/strict";
import fc from "fast-check";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { escapeSelectorValue, fieldSelectorToFilters } from "./field_selector.ts";

Deno.test("field selectors translate exactly as flytectl translates them", () => {
  const vectors: [string, string][] = [
    ["task.name=task1,task.version=v1", "eq(task.name,task1)+eq(task.version,v1)"],
    [
      "task.version=v1,created_at>=2021-05-24T21:43:12.325335Z",
      "eq(task.version,v1)+gte(created_at,2021-05-24T21:43:12.325335Z)",
    ],
    [
      "project.name=flytesnacks,execution.duration<200,execution.duration<=200,execution.duration>=200," +
      "name contains flyte,name!=flyte",
      "eq(project.name,flytesnacks)+lt(execution.duration,200)+lte(execution.duration,200)+" +
      "gte(execution.duration,200)+contains(name,flyte)+ne(name,flyte)",
    ],
    [
      "execution.phase in (FAILED;SUCCEEDED),execution.name=y8n2wtuspj,execution.duration>200",
      "value_in(execution.phase,FAILED;SUCCEEDED)+eq(execution.name,y8n2wtuspj)+gt(execution.duration,200)",
    ],
  ];
  for (const [selector, filters] of vectors) equal(fieldSelectorToFilters(selector), filters, selector);
});

Deno.test("hello= fails with flytectl's message, quoting the term", () => {
  throws(() => fieldSelectorToFilters("hello="), (err: Error) => {
    equal(err instanceof UsageError, true);
    equal(
      err.message,
      'Please add a valid field selector: an empty value in term "hello=" (terms are <field><operator><value> ' +
        'separated by ","; operators: =, !=, >, >=, <, <=, " contains ", " in (a;b)")',
    );
    return true;
  });
});

Deno.test("escapes reach the value; an escaped comma does not split terms", () => {
  equal(fieldSelectorToFilters("task.name=a,task.version=v\\=1"), "eq(task.name,a)+eq(task.version,v=1)");
  equal(fieldSelectorToFilters("task.name=a\\\\b"), "eq(task.name,a\\b)");
  equal(fieldSelectorToFilters("task.name=a=b"), "eq(task.name,a=b)", "the earliest operator wins");
  equal(fieldSelectorToFilters(""), "");
  equal(fieldSelectorToFilters("   "), "");
});

Deno.test("every malformed selector is a UsageError naming the term and the reason", () => {
  const cases: [string, string][] = [
    ["hello", 'no operator in term "hello"'],
    ["=x", 'an empty field in term "=x"'],
    ["a=1,", 'an empty term in term ""'],
    ["a=1,,b=2", 'an empty term in term ""'],
    ["name in FAILED", '" in " needs a parenthesised list like (a;b), got "FAILED" in term "name in FAILED"'],
    ["name in (a;;b)", 'an empty value in the list in term "name in (a;;b)"'],
    ["na me=x", 'invalid field name "na me" in term "na me=x"'],
    ["a=x\\n,b=1", 'unsupported escape "\\\\n" (only \\\\, \\, and \\= are allowed) in term "a=x\\\\n"'],
    ["a=x\\", 'a trailing backslash in term "a=x\\\\"'],
    ["name contains ", 'an empty value in term "name contains "'],
    // FlyteAdmin splits filters on "," and "+" with no escape: eq(task.name,a,b) would be misread.
    [
      "task.name=a\\,b",
      'the value "a,b" contains "," or "+", which FlyteAdmin\'s filters cannot express in term "task.name=a\\\\,b"',
    ],
    [
      "task.name=a+b",
      'the value "a+b" contains "," or "+", which FlyteAdmin\'s filters cannot express in term "task.name=a+b"',
    ],
    [
      "name in (a;b+c)",
      'the value "(a;b+c)" contains "," or "+", which FlyteAdmin\'s filters cannot express in term "name in (a;b+c)"',
    ],
  ];
  for (const [selector, reason] of cases) {
    throws(() => fieldSelectorToFilters(selector), (err: Error) => {
      equal(err instanceof UsageError, true, selector);
      equal(err.message.startsWith(`Please add a valid field selector: ${reason} (terms are`), true, err.message);
      equal(err.message.includes("\n"), false);
      return true;
    });
  }
});

Deno.test("property: any input either translates or fails with our UsageError", async () => {
  const alphabet = fc.constantFrom(..."ab.=!<>,;\\() inconta_1".split(""));
  await checkProperty(
    "selector: any input either translates or fails with our UsageError",
    fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet })), (selector) => {
      try {
        return typeof fieldSelectorToFilters(selector) === "string";
      } catch (err) {
        return err instanceof UsageError && !err.message.includes("\n");
      }
    }),
    { numRuns: runs(2000) },
  );
});

const FIELD = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}(\.[a-z_][a-z0-9_]{0,6})?$/);
const OPS: [string, string][] = [
  ["=", "eq"],
  ["!=", "ne"],
  [">", "gt"],
  [">=", "gte"],
  ["<", "lt"],
  ["<=", "lte"],
  [" contains ", "contains"],
];

Deno.test("property: an escaped value round-trips into the filter string unchanged", async () => {
  const value = fc.string({ minLength: 1 }).filter((v) => !/[,+]/.test(v));
  const term = fc.record({ field: FIELD, op: fc.constantFrom(...OPS), value });
  await checkProperty(
    "selector: an escaped value round-trips into the filter string unchanged",
    fc.property(fc.array(term, { minLength: 1, maxLength: 4 }), (terms) => {
      const selector = terms.map((t) => `${t.field}${t.op[0]}${escapeSelectorValue(t.value)}`).join(",");
      const expected = terms.map((t) => `${t.op[1]}(${t.field},${t.value})`).join("+");
      equal(fieldSelectorToFilters(selector), expected);
    }),
    { numRuns: runs(1000) },
  );
});

Deno.test("property: a value holding ',' or '+' is refused naming it, never sent", async () => {
  const value = fc.tuple(fc.string(), fc.constantFrom(",", "+"), fc.string()).map(([a, sep, b]) => a + sep + b);
  await checkProperty(
    "selector: a value holding ',' or '+' is refused naming it, never sent",
    fc.property(FIELD, fc.constantFrom(...OPS), value, (field, op, v) => {
      throws(
        () => fieldSelectorToFilters(`${field}${op[0]}${escapeSelectorValue(v)}`),
        (err: Error) =>
          err instanceof UsageError && !err.message.includes("\n") && err.message.includes("cannot express"),
      );
    }),
    { numRuns: runs(5_000) },
  );
});

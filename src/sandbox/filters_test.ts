import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { type EntityTable, matchesAll, parseFilters, type Row } from "./filters.ts";
import { parseRfc3339 } from "./time.ts";

const row: Row = {
  project: "p",
  domain: "d",
  name: "core.flyte_basics.hello",
  version: "v2",
  createdNs: parseRfc3339("2021-05-24T21:43:12.5Z")!,
};

function matches(filters: string): boolean {
  return matchesAll(row, parseFilters(filters, "task"));
}

/** The message of the INVALID_ARGUMENT that parsing `filters` for `table` throws. */
function invalid(filters: string, table: EntityTable = "task"): string {
  try {
    parseFilters(filters, table);
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    assertEquals(Code[err.code], "InvalidArgument");
    return err.rawMessage;
  }
  throw new Error(`expected ${filters} to be rejected`);
}

Deno.test("parseFilters splits terms on + and strips the entity prefix", () => {
  assertEquals(parseFilters("eq(task.name,foo)+value_in(version,a;b)", "task"), [
    { fn: "eq", field: "name", values: ["foo"] },
    { fn: "value_in", field: "version", values: ["a", "b"] },
  ]);
});

Deno.test("parseFilters keeps + inside a time offset", () => {
  assertEquals(parseFilters("gte(created_at,2021-05-24T23:43:12+02:00)+eq(name,x)", "task"), [
    { fn: "gte", field: "created_at", values: ["2021-05-24T23:43:12+02:00"] },
    { fn: "eq", field: "name", values: ["x"] },
  ]);
});

Deno.test("parseFilters returns nothing for an empty string", () => {
  assertEquals(parseFilters("  ", "workflow"), []);
});

Deno.test("parseFilters accepts the launch_plan prefix for launch plans only", () => {
  assertEquals(parseFilters("eq(launch_plan.version,v1)", "launch_plan"), [
    { fn: "eq", field: "version", values: ["v1"] },
  ]);
  assertEquals(invalid("eq(launch_plan.version,v1)"), `unrecognized filter field "launch_plan.version" for task`);
});

Deno.test("parseFilters rejects an unknown function, naming it", () => {
  assertEquals(invalid("like(name,foo)"), `unrecognized filter function "like" in "like(name,foo)"`);
});

Deno.test("parseFilters rejects an unknown field, naming it", () => {
  assertEquals(invalid("eq(task.colour,red)"), `unrecognized filter field "task.colour" for task`);
});

Deno.test("parseFilters rejects malformed terms and bad times", () => {
  assertEquals(invalid("eq(name)"), `invalid filter expression "eq(name)"`);
  assertEquals(invalid("gt(created_at,yesterday)"), `invalid RFC 3339 time "yesterday" for created_at`);
  assertEquals(invalid("contains(created_at,2021)"), `filter function "contains" does not apply to field "created_at"`);
});

Deno.test("string functions compare as strings", () => {
  assertEquals(matches("eq(name,core.flyte_basics.hello)"), true);
  assertEquals(matches("ne(name,core.flyte_basics.hello)"), false);
  assertEquals(matches("gt(version,v1)"), true);
  assertEquals(matches("gte(version,v2)"), true);
  assertEquals(matches("lt(version,v2)"), false);
  assertEquals(matches("lte(version,v2)"), true);
  assertEquals(matches("contains(name,flyte_basics)"), true);
  assertEquals(matches("contains(name,advanced)"), false);
  assertEquals(matches("value_in(version,v1;v2;v3)"), true);
  assertEquals(matches("value_in(version,v1;v3)"), false);
});

Deno.test("created_at compares as an instant, whatever the offset or precision", () => {
  assertEquals(matches("eq(created_at,2021-05-24T21:43:12.500000000Z)"), true);
  assertEquals(matches("eq(created_at,2021-05-24T23:43:12.5+02:00)"), true);
  assertEquals(matches("gt(created_at,2021-05-24T21:43:12Z)"), true);
  assertEquals(matches("lt(created_at,2021-05-24T21:43:13Z)"), true);
  assertEquals(matches("gte(created_at,2021-05-24T21:43:13Z)"), false);
  assertEquals(matches("lte(created_at,2021-05-24T21:43:12.499Z)"), false);
  assertEquals(matches("ne(created_at,2021-05-24T21:43:12Z)"), true);
  assertEquals(matches("value_in(created_at,2020-01-01T00:00:00Z;2021-05-24T21:43:12.5Z)"), true);
});

Deno.test("every term must match", () => {
  assertEquals(matches("eq(name,core.flyte_basics.hello)+eq(version,v2)"), true);
  assertEquals(matches("eq(name,core.flyte_basics.hello)+eq(version,v1)"), false);
});

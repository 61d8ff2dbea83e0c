import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { type Task, TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { matchesFilters, parseRequestFilters, postgresTimestampNs } from "./execution_filters.ts";
import { type Listed, TASK_VERSIONS } from "./filters.ts";
import { parseRfc3339 } from "./time.ts";

const SCHEMA = { primary: TASK_VERSIONS, joins: [] };

const row: Listed<Task> = {
  seq: 7,
  entry: {
    project: "p",
    domain: "d",
    name: "core.flyte_basics.hello",
    version: "v2",
    createdNs: parseRfc3339("2021-05-24T21:43:12.5Z")!,
    message: create(TaskSchema, {
      shortDescription: "says hello",
      closure: { compiledTask: { template: { type: "python-task" } } },
    }),
  },
};

function matches(filters: string): boolean {
  return matchesFilters(row, parseRequestFilters(filters, SCHEMA));
}

/** The message of the INVALID_ARGUMENT that parsing `filters` for the task listing throws. */
function invalid(filters: string): string {
  try {
    parseRequestFilters(filters, SCHEMA);
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    assertEquals(Code[err.code], "InvalidArgument");
    return err.rawMessage;
  }
  throw new Error(`expected ${filters} to be rejected`);
}

Deno.test("task filters name the tasks table's columns, with or without the task prefix", () => {
  assertEquals(matches("eq(task.name,core.flyte_basics.hello)+value_in(version,v1;v2)"), true);
  assertEquals(matches("eq(type,python-task)+contains(task.short_description,hello)"), true);
  assertEquals(matches("eq(id,7)+gt(task.id,6)"), true);
  assertEquals(matches("eq(project,p)+eq(domain,d)"), true);
});

Deno.test("columns the sandbox keeps no value for are NULL and match nothing", () => {
  assertEquals(matches("ne(digest,x)"), false);
  assertEquals(matches("ne(closure,x)"), false);
  assertEquals(matches("gte(deleted_at,2000-01-01T00:00:00Z)"), false);
});

Deno.test("task filters refuse what FlyteAdmin refuses, in its words", () => {
  assertEquals(invalid("eq(task.colour,red)"), "'t.colour' is invalid filter");
  assertEquals(invalid("eq(launch_plan.version,v1)"), "'l' entity is not allowed in filters");
  assertEquals(invalid("like(name,foo)"), "unrecognized filter function: like");
  assertEquals(invalid("eq(name)"), "invalid value for filters");
  assertEquals(invalid("gte(created_at,2021-05-24T23:43:12+02:00)"), "invalid value for filters");
});

/** The code and message parsing `filters` for the task listing throws. */
function refusal(filters: string): string {
  try {
    parseRequestFilters(filters, SCHEMA);
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    return `${Code[err.code]}: ${err.rawMessage}`;
  }
  return "accepted";
}

Deno.test("an integer column's value is read as Postgres reads one, and one it cannot read refused in its words", () => {
  assertEquals(
    refusal("eq(id,seven)"),
    'Unknown: failed database operation with invalid input syntax for type bigint: "seven"',
  );
  assertEquals(matches("eq(id, 7)"), true);
  assertEquals(matches("eq(id,007)"), true);
});

Deno.test("a time is read as Postgres reads it, and one it cannot read is refused in its words (UNKNOWN)", () => {
  assertEquals(
    refusal("gt(created_at,soon)"),
    'Unknown: failed database operation with invalid input syntax for type timestamp with time zone: "soon"',
  );
  assertEquals(
    refusal("gt(created_at,2024-02-30)"),
    'Unknown: failed database operation with date/time field value out of range: "2024-02-30"',
  );
  // A date alone, a space before the time, no seconds, a short zone: all Postgres's.
  assertEquals(refusal("gt(created_at,2024-01-01)"), "accepted");
  assertEquals(matches("gte(created_at,2021-05-24)"), true);
  assertEquals(matches("gte(created_at,2021-05-25 00:00)"), false);
  assertEquals(matches("lt(created_at,2021-05-24 23:44-02)"), true);
  assertEquals(postgresTimestampNs("2021-05-24T23:43:12.0000004Z", 0n), 1_621_899_792_000_000_000n);
  assertEquals(postgresTimestampNs("epoch", 0n), 0n);
});

Deno.test("Postgres's time words are read at the list's moment: now, today, yesterday, tomorrow, ±infinity", () => {
  // The row was created at 2021-05-24T21:43:12.5Z; the list runs at 2021-05-25T08:00:00Z.
  const nowNs = parseRfc3339("2021-05-25T08:00:00Z")!;
  const at = (filters: string) => matchesFilters(row, parseRequestFilters(filters, SCHEMA, nowNs));
  assertEquals(at("lt(created_at,now)"), true);
  assertEquals(at("gte(created_at,today)"), false);
  assertEquals(at("gte(created_at,yesterday)+lt(created_at,today)"), true);
  assertEquals(at("lt(created_at, Tomorrow )"), true);
  assertEquals(at("lt(created_at,infinity)+gt(created_at,-infinity)"), true);
  assertEquals(at("gt(created_at,infinity)"), false);
  assertEquals(postgresTimestampNs("TODAY", nowNs), parseRfc3339("2021-05-25T00:00:00Z")!);
  assertEquals(postgresTimestampNs("yesterday", nowNs), parseRfc3339("2021-05-24T00:00:00Z")!);
  assertEquals(postgresTimestampNs("tomorrow", nowNs), parseRfc3339("2021-05-26T00:00:00Z")!);
  assertEquals(postgresTimestampNs("now", nowNs), nowNs);
  // Before the epoch, midnight is still the day's start.
  assertEquals(
    postgresTimestampNs("today", parseRfc3339("1969-12-31T12:00:00Z")!),
    parseRfc3339("1969-12-31T00:00:00Z"),
  );
  assertEquals(refusal("gt(created_at,today 12:00)").startsWith("Unknown:"), true);
});

Deno.test("string columns compare as strings", () => {
  assertEquals(matches("eq(name,core.flyte_basics.hello)"), true);
  assertEquals(matches("ne(name,core.flyte_basics.hello)"), false);
  assertEquals(matches("gt(version,v1)"), true);
  assertEquals(matches("gte(version,v2)"), true);
  assertEquals(matches("lt(version,v2)"), false);
  assertEquals(matches("lte(version,v2)"), true);
  assertEquals(matches("contains(name,flyte_basics)"), true);
  assertEquals(matches("contains(name,advanced)"), false);
  // Contains is SQL's LIKE '%value%': `_` stands for any one character, `%` for any run.
  assertEquals(matches("contains(name,flyte.basics)"), false);
  assertEquals(matches("contains(name,flyte_basics.h_llo)"), true);
  assertEquals(matches("contains(name,core%hello)"), true);
  assertEquals(matches("value_in(version,v1;v2;v3)"), true);
  assertEquals(matches("value_in(version,v1;v3)"), false);
  assertEquals(matches("value_not_in(version,v1;v3)"), true);
  assertEquals(matches("not_like(name,core.%)"), false);
});

Deno.test("created_at compares as an instant, whatever the offset or precision", () => {
  assertEquals(matches("eq(created_at,2021-05-24T21:43:12.500000000Z)"), true);
  assertEquals(matches("eq(created_at,2021-05-24T23:43:12.5-00:00)"), false);
  assertEquals(matches("eq(created_at,2021-05-24T20:43:12.5-01:00)"), true);
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

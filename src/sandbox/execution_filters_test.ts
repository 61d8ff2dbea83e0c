import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { ConnectError } from "@connectrpc/connect";
import {
  type FilterSchema,
  type FilterTable,
  matchesFilters,
  parseDurationNs,
  parseOffsetToken,
  parseRequestFilters,
  sortComparator,
} from "./execution_filters.ts";
import { create } from "@bufbuild/protobuf";
import { type Sort_Direction, SortSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";

interface Row {
  phase: string;
  duration: bigint;
  plan?: string;
}

const PRIMARY: FilterTable<Row> = {
  entity: "e",
  prefix: "execution",
  columns: new Set(["phase", "duration", "started_at"]),
  read: (row, column) => column === "phase" ? row.phase : column === "duration" ? row.duration : null,
};
const JOINED: FilterTable<Row> = {
  entity: "l",
  prefix: "launch_plan",
  columns: new Set(["name"]),
  read: (row) => row.plan,
};
const SCHEMA: FilterSchema<Row> = { primary: PRIMARY, joins: [JOINED] };

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConnectError) return err.rawMessage;
    throw err;
  }
  throw new Error("expected INVALID_ARGUMENT");
}

const rows: Row[] = [
  { phase: "SUCCEEDED", duration: 90_000_000_000n, plan: "train" },
  { phase: "FAILED", duration: 5_000_000_000n, plan: "eval" },
  { phase: "RUNNING", duration: 0n },
];

function select(filters: string): string[] {
  const parsed = parseRequestFilters(filters, SCHEMA);
  return rows.filter((row) => matchesFilters(row, parsed)).map((row) => row.phase);
}

Deno.test("execution filters: functions, prefixes, joins and FlyteAdmin's refusals", () => {
  assertEquals(select("eq(phase,FAILED)"), ["FAILED"]);
  assertEquals(select("eq(execution.phase, FAILED)"), ["FAILED"]);
  assertEquals(select("value_not_in(phase,FAILED;RUNNING)"), ["SUCCEEDED"]);
  assertEquals(select("not_like(phase,%ED)"), ["RUNNING"]);
  assertEquals(select("contains(phase,UN)"), ["RUNNING"]);
  assertEquals(select("gt(duration,60)"), ["SUCCEEDED"]);
  assertEquals(select("lte(duration,1m)+gt(duration,0)"), ["FAILED"]);
  // A filter on a joined table drops the rows without a record there, as an inner join does.
  assertEquals(select("ne(launch_plan.name,eval)"), ["SUCCEEDED"]);
  assertEquals(message(() => parseRequestFilters("phase=FAILED", SCHEMA)), "invalid value for filters");
  assertEquals(message(() => parseRequestFilters("eq(execution.name,x)", SCHEMA)), "'e.name' is invalid filter");
  assertEquals(
    message(() => parseRequestFilters("eq(workflow.name,x)", SCHEMA)),
    "'w' entity is not allowed in filters",
  );
  assertEquals(message(() => parseRequestFilters("like(phase,x)", SCHEMA)), "unrecognized filter function: like");
  assertEquals(message(() => parseRequestFilters("gt(duration,soon)", SCHEMA)), "Failed to parse duration [soon]");
  // Postgres reads `yesterday` (see filters_test.ts), not a time word it does not know.
  assertThrows(() => parseRequestFilters("gt(started_at,someday)", SCHEMA), ConnectError);
});

Deno.test("durations: seconds as numbers, or Go durations", () => {
  assertEquals(parseDurationNs("1.5"), 1_500_000_000n);
  assertEquals(parseDurationNs("1h2m3s"), 3_723_000_000_000n);
  assertEquals(parseDurationNs("250ms"), 250_000_000n);
  assertEquals(parseDurationNs("1 hour"), undefined);
  // A number is seconds, written back as Go's %v prints it: from a million seconds in exponent form, which Go's
  // ParseDuration refuses, and the refusal names that text.
  assertEquals(parseDurationNs("100000"), 100_000_000_000_000n);
  for (
    const [value, parsed] of [["1000000", "1e+06s"], ["0.00001", "1e-05s"], ["inf", "+Infs"], ["1e400", "1e400"]]
  ) {
    assertEquals(
      message(() => parseRequestFilters(`gt(duration,${value})`, SCHEMA)),
      `Failed to parse duration [${parsed}]`,
    );
  }
  assertEquals(parseDurationNs("-1.5h"), -5_400_000_000_000n);
  assertEquals(parseDurationNs("2\u03bcs"), 2_000n);
});

Deno.test("offset tokens: decimal and not negative, refused naming the list", () => {
  assertEquals(parseOffsetToken("", "ListExecutions"), 0);
  assertEquals(parseOffsetToken("20", "ListExecutions"), 20);
  assertEquals(
    message(() => parseOffsetToken("-1", "ListExecutions")),
    "invalid pagination token -1 for ListExecutions",
  );
  assertEquals(
    message(() => parseOffsetToken("abc", "ListNodeExecutions")),
    "invalid pagination token abc for ListNodeExecutions",
  );
});

Deno.test("a sort in no known order is refused naming the whole Sort, as Go prints it", () => {
  const sort = create(SortSchema, { key: "phase", direction: 5 as Sort_Direction });
  assertEquals(message(() => sortComparator(sort, PRIMARY)), 'invalid sort order specified: key:"phase" direction:5');
  assertEquals(
    message(() => sortComparator(create(SortSchema, { key: "colour" }), PRIMARY)),
    "invalid sort key 'colour'",
  );
});

Deno.test("a page token is read as Go's Atoi reads it: a sign and digits within an int64", () => {
  assertEquals(parseOffsetToken("+2", "ListExecutions"), 2);
  assertEquals(
    message(() => parseOffsetToken("9223372036854775808", "ListExecutions")),
    "invalid pagination token 9223372036854775808 for ListExecutions",
  );
});

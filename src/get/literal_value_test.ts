import { deepEqual, equal, ok } from "node:assert/strict";
import { create, equals } from "@bufbuild/protobuf";
import { LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { type Literal, LiteralSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralType, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { inputLiterals, literalFor } from "../executions/literals.ts";
import { inputValue } from "../executions/input_value.ts";
import { parseExecutionSpec } from "../executions/spec_file.ts";
import { launchPlanExecSpec } from "../launchplans/exec_spec.ts";
import { execSpec, renderSpec } from "../tasks/exec_spec.ts";
import {
  collectionOf as list,
  datetime as time,
  duration,
  int,
  mapOf as map,
  primitive,
  simple,
  unionOf as union,
} from "../_test_literals.ts";
import { durationText, timestampText } from "./literal_value.ts";

const INT = simple(SimpleType.INTEGER);
const FLOAT = simple(SimpleType.FLOAT);
const STR = simple(SimpleType.STRING);
/** A literal as the reader makes it from a plain value (unions, structures). */
const converted = (value: unknown, type: LiteralType) => literalFor(inputValue(value), type, "inputs.x").literal;

/** Default inputs of every kind whose text used to lose something: each must read back to the same literal. */
const CASES: [string, LiteralType, Literal][] = [
  ["int_max", INT, int(9223372036854775807n)],
  ["int_min", INT, int(-9223372036854775808n)],
  ["int_2p53_plus_1", INT, int(9007199254740993n)],
  ["int_small", INT, int(-42n)],
  ["float_third", FLOAT, primitive({ case: "floatValue", value: 1 / 3 })],
  ["float_tiny", FLOAT, primitive({ case: "floatValue", value: 5e-324 })],
  ["float_big", FLOAT, primitive({ case: "floatValue", value: 1.7976931348623157e308 })],
  ["string_yes", STR, primitive({ case: "stringValue", value: "yes" })],
  ["string_number", STR, primitive({ case: "stringValue", value: "0x1F" })],
  ["bool", simple(SimpleType.BOOLEAN), primitive({ case: "boolean", value: true })],
  ["time_nanos", simple(SimpleType.DATETIME), time(1709528767n, 123456789)],
  ["time_one_nano", simple(SimpleType.DATETIME), time(0n, 1)],
  ["time_whole", simple(SimpleType.DATETIME), time(1709528767n, 0)],
  ["duration_ns", simple(SimpleType.DURATION), duration(0n, 1)],
  ["duration_mixed", simple(SimpleType.DURATION), duration(90n, 500)],
  ["duration_negative", simple(SimpleType.DURATION), duration(-1n, -5)],
  ["duration_max", simple(SimpleType.DURATION), duration(9223372036n, 854775807)],
  ["union_int", union(INT, STR), converted(9007199254740993n, union(INT, STR))],
  ["union_str", union(INT, STR), converted("12", union(INT, STR))],
  ["union_none", union(STR, simple(SimpleType.NONE)), converted(null, union(STR, simple(SimpleType.NONE)))],
  ["ints", list(INT), converted([9223372036854775807n, -1n, 0n], list(INT))],
  [
    "map_of_times",
    map(simple(SimpleType.DATETIME)),
    converted({ a: "2024-03-04T05:06:07.000000001Z" }, map(simple(SimpleType.DATETIME))),
  ],
];

Deno.test("durationText and timestampText: exact Go duration and RFC 3339 text", () => {
  deepEqual(
    [durationText(0n, 1), durationText(3600n, 0), durationText(-1n, -500_000_000), durationText(0n, 0)],
    ["0.000000001s", "3600s", "-1.5s", "0s"],
  );
  deepEqual([timestampText(0n, 1), timestampText(1709528767n, 120_000_000)], [
    "1970-01-01T00:00:00.000000001Z",
    "2024-03-04T05:06:07.12Z",
  ]);
});

Deno.test("a launch plan's default inputs: written spec → spec file → literals equals every default exactly", async () => {
  const parameters = Object.fromEntries(
    CASES.map((
      [name, type, literal],
    ) => [name, { var: { type }, behavior: { case: "default" as const, value: literal } }]),
  );
  const launchPlan = create(LaunchPlanSchema, {
    id: { resourceType: 3, project: "p", domain: "d", name: "lp", version: "v1" },
    spec: { defaultInputs: { parameters } },
  });
  const text = await renderSpec(launchPlanExecSpec(launchPlan, new Date()));
  const spec = await parseExecutionSpec(text, "spec.yaml");
  const types = Object.fromEntries(CASES.map(([name, type]) => [name, type]));
  const { literals } = inputLiterals(spec.inputs, types);
  for (const [name, , literal] of CASES) {
    ok(equals(LiteralSchema, literals[name], literal), `${name} read back differently from:\n${text}`);
  }
  equal(Object.keys(literals).length, CASES.length);
});

Deno.test("a task's spec: every default it writes reads back as a literal of its type", async () => {
  const variables = Object.fromEntries(CASES.map(([name, type]) => [name, { type, description: name }]));
  const task = create(TaskSchema, {
    id: { resourceType: 1, project: "p", domain: "d", name: "t", version: "v1" },
    closure: { compiledTask: { template: { interface: { inputs: { variables } } } } },
  });
  const now = new Date("2024-03-04T05:06:07.123Z");
  const spec = await parseExecutionSpec(await renderSpec(execSpec(task, now)), "spec.yaml");
  const { literals } = inputLiterals(spec.inputs, Object.fromEntries(CASES.map(([name, type]) => [name, type])));
  ok(equals(LiteralSchema, literals.time_nanos, time(1709528767n, 123_000_000)));
  ok(equals(LiteralSchema, literals.duration_ns, duration(1n, 0)));
  equal(Object.keys(literals).length, CASES.length);
});

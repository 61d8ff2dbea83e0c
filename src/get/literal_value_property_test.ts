/**
 * Property test of the launch-plan spec writer's round trip: any default input (int64 to its edges, any double,
 * any string, datetimes and durations to the nanosecond, unions, lists and maps of them) written by
 * `launchPlanExecSpec` + `renderSpec`, read by `parseExecutionSpec` and converted by `inputLiterals`, is the
 * literal it was.
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { create, equals, toJsonString } from "@bufbuild/protobuf";
import { LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { type Literal, LiteralSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralType, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { checkProperty, runs } from "../_test_property.ts";
import { collection, collectionOf, primitive, simple, unionOf } from "../_test_literals.ts";
import { inputLiterals } from "../executions/literals.ts";
import { parseExecutionSpec } from "../executions/spec_file.ts";
import { launchPlanExecSpec } from "../launchplans/exec_spec.ts";
import { renderSpec } from "../tasks/exec_spec.ts";

const INT64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n);
const NANOS = fc.integer({ min: 0, max: 999_999_999 });
/** Seconds of 0001-01-01 … 9999-12-31, the range RFC 3339 text (and google.protobuf.Timestamp) holds. */
const TIMESTAMP_SECONDS = fc.bigInt(-62135596800n, 253402300799n);
const DURATION_NANOS = fc.bigInt(-(2n ** 63n) + 1n, 2n ** 63n - 1n);

type Sample = [LiteralType, Literal];

/** One typed default: its type and its literal. */
const SIMPLE_SAMPLE: fc.Arbitrary<Sample> = fc.oneof(
  INT64.map((v): Sample => [simple(SimpleType.INTEGER), primitive({ case: "integer", value: v })]),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0)).map((v): Sample => [
    simple(SimpleType.FLOAT),
    primitive({ case: "floatValue", value: v }),
  ]),
  fc.string({ unit: "grapheme" }).map((
    v,
  ): Sample => [simple(SimpleType.STRING), primitive({ case: "stringValue", value: v })]),
  fc.boolean().map((v): Sample => [simple(SimpleType.BOOLEAN), primitive({ case: "boolean", value: v })]),
  fc.tuple(TIMESTAMP_SECONDS, NANOS).map(([seconds, nanos]): Sample => [
    simple(SimpleType.DATETIME),
    primitive({ case: "datetime", value: { seconds, nanos } }),
  ]),
  DURATION_NANOS.map((total): Sample => [
    simple(SimpleType.DURATION),
    primitive({
      case: "duration",
      value: { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) },
    }),
  ]),
);

const SAMPLE: fc.Arbitrary<Sample> = fc.oneof(
  { weight: 4, arbitrary: SIMPLE_SAMPLE },
  fc.array(INT64, { maxLength: 4 }).map((values): Sample => [
    collectionOf(simple(SimpleType.INTEGER)),
    collection(...values.map((v) => primitive({ case: "integer", value: v }))),
  ]),
  INT64.map((v): Sample => {
    const variant = simple(SimpleType.INTEGER);
    const type = unionOf(variant, simple(SimpleType.STRING));
    const literal = create(LiteralSchema, {
      value: {
        case: "scalar",
        value: { value: { case: "union", value: { value: primitive({ case: "integer", value: v }), type: variant } } },
      },
    });
    return [type, literal];
  }),
);

Deno.test("property: a launch plan's defaults written to a spec file read back as the same literals", async () => {
  await checkProperty(
    "get: literal → spec YAML → literal",
    fc.asyncProperty(fc.array(SAMPLE, { minLength: 1, maxLength: 6 }), async (samples) => {
      const parameters = Object.fromEntries(
        samples.map((
          [type, literal],
          i,
        ) => [`in${i}`, { var: { type }, behavior: { case: "default", value: literal } }]),
      );
      const launchPlan = create(LaunchPlanSchema, {
        id: { resourceType: 3, project: "p", domain: "d", name: "lp", version: "v1" },
        spec: { defaultInputs: { parameters } },
      } as never);
      const text = await renderSpec(launchPlanExecSpec(launchPlan, new Date(0)));
      const spec = await parseExecutionSpec(text, "spec.yaml");
      const { literals } = inputLiterals(
        spec.inputs,
        Object.fromEntries(samples.map(([type], i) => [`in${i}`, type])),
      );
      samples.forEach(([, literal], i) => {
        const back = literals[`in${i}`];
        ok(
          back && equals(LiteralSchema, back, literal),
          `in${i}: ${toJsonString(LiteralSchema, literal)} came back as ${
            back ? toJsonString(LiteralSchema, back) : "nothing"
          } from:\n${text}`,
        );
      });
    }),
    { numRuns: runs(200) },
  );
});

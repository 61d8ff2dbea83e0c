import { equal } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { BooleanExpressionSchema, ComparisonExpression_Operator } from "../../proto/gen/flyteidl/core/condition_pb.ts";
import { conditionText, goDuration, goFloat, goTime } from "./condition_text.ts";

Deno.test("floats as Go's %v prints them: shortest digits, exponent form below 1e-4 and from 1e+06", () => {
  const cases: [number, string][] = [
    [0.1, "0.1"],
    [1, "1"],
    [-2.5, "-2.5"],
    [123456, "123456"],
    [1e6, "1e+06"],
    [1234567, "1.234567e+06"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [1e21, "1e+21"],
    [1e100, "1e+100"],
    [0, "0"],
    [-0, "-0"],
    [NaN, "NaN"],
    [Infinity, "+Inf"],
    [-Infinity, "-Inf"],
  ];
  for (const [value, text] of cases) equal(goFloat(value), text, String(value));
});

Deno.test("durations and times as Go prints them", () => {
  equal(goDuration(0n), "0s");
  equal(goDuration(1n), "1ns");
  equal(goDuration(1_500n), "1.5µs");
  equal(goDuration(1_500_000n), "1.5ms");
  equal(goDuration(90_000_000_000n), "1m30s");
  equal(goDuration(3_600_000_000_000n), "1h0m0s");
  equal(goDuration(3_723_500_000_000n), "1h2m3.5s");
  equal(goDuration(-2_000_000_000n), "-2s");
  equal(goTime(1_704_164_645n, 0), "2024-01-02 03:04:05 +0000 UTC");
  equal(goTime(1_704_164_645n, 120_000_000), "2024-01-02 03:04:05.12 +0000 UTC");
});

Deno.test("every operand kind and operator in a condition", () => {
  const operand = (value: unknown) => ({ val: value }) as never;
  const comparison = (operator: ComparisonExpression_Operator, left: unknown, right: unknown) =>
    create(BooleanExpressionSchema, {
      expr: { case: "comparison", value: { operator, leftValue: operand(left), rightValue: operand(right) } },
    });
  const primitive = (value: unknown) => ({ case: "primitive", value: { value } });
  equal(
    conditionText(
      comparison(
        ComparisonExpression_Operator.EQ,
        { case: "var", value: ".a" },
        primitive({ case: "integer", value: 40n }),
      ),
    ),
    ".a EQ 40",
  );
  equal(
    conditionText(
      comparison(
        ComparisonExpression_Operator.NEQ,
        primitive({ case: "stringValue", value: "x y" }),
        primitive({ case: "boolean", value: true }),
      ),
    ),
    "x y NEQ true",
  );
  equal(
    conditionText(
      comparison(
        ComparisonExpression_Operator.GTE,
        { case: "var", value: ".d" },
        primitive({ case: "duration", value: { seconds: 60n, nanos: 0 } }),
      ),
    ),
    ".d GTE 1m0s",
  );
  equal(
    conditionText(
      comparison(ComparisonExpression_Operator.LTE, { case: "var", value: ".n" }, {
        case: "scalar",
        value: { value: { case: "noneType", value: {} } },
      }),
    ),
    ".n LTE None",
  );
  equal(conditionText(undefined), "");
});

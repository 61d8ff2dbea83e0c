/**
 * A branch condition as text, the way flytectl labels a branch edge: `<lhs> <OP> <rhs>` for a comparison,
 * `(<a>) AND (<b>)` for a conjunction, operands as Go's `%v` prints the value (`1e+06`, `1h0m0s`,
 * `2024-01-02 03:04:05 +0000 UTC`).
 *
 * @module
 */
import {
  type BooleanExpression,
  ComparisonExpression_Operator,
  ConjunctionExpression_LogicalOperator,
  type Operand,
} from "../../proto/gen/flyteidl/core/condition_pb.ts";
import type { Primitive } from "../../proto/gen/flyteidl/core/literals_pb.ts";

/**
 * The text of a branch condition.
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { BooleanExpressionSchema } from "../../proto/gen/flyteidl/core/condition_pb.ts";
 * import { conditionText } from "./condition_text.ts";
 *
 * const expr = create(BooleanExpressionSchema, {
 *   expr: {
 *     case: "comparison",
 *     value: { operator: 2, leftValue: { val: { case: "var", value: ".x" } }, rightValue: { val: { case: "primitive", value: { value: { case: "integer", value: 5n } } } } },
 *   },
 * });
 * conditionText(expr); // ".x GT 5"
 * ```
 */
export function conditionText(expr: BooleanExpression | undefined): string {
  switch (expr?.expr.case) {
    case "conjunction": {
      const { leftExpression, operator, rightExpression } = expr.expr.value;
      const op = ConjunctionExpression_LogicalOperator[operator] ?? String(operator);
      return `(${conditionText(leftExpression)}) ${op} (${conditionText(rightExpression)})`;
    }
    case "comparison": {
      const { leftValue, operator, rightValue } = expr.expr.value;
      const op = ComparisonExpression_Operator[operator] ?? String(operator);
      return `${operandText(leftValue)} ${op} ${operandText(rightValue)}`;
    }
    default:
      return ""; // flytectl panics on an empty expression; an unlabelled edge says as much.
  }
}

function operandText(operand: Operand | undefined): string {
  switch (operand?.val.case) {
    case "var":
      return operand.val.value;
    case "primitive":
      return primitiveText(operand.val.value);
    case "scalar": {
      const scalar = operand.val.value.value;
      if (scalar.case === "primitive") return primitiveText(scalar.value);
      if (scalar.case === "noneType") return "None";
      return `<${scalar.case ?? "empty"}>`;
    }
    default:
      return "";
  }
}

function primitiveText(primitive: Primitive): string {
  const value = primitive.value;
  switch (value.case) {
    case "integer":
      return value.value.toString();
    case "floatValue":
      return goFloat(value.value);
    case "stringValue":
      return value.value;
    case "boolean":
      return String(value.value);
    case "datetime":
      return goTime(value.value.seconds, value.value.nanos);
    case "duration":
      return goDuration(value.value.seconds * 1_000_000_000n + BigInt(value.value.nanos));
    default:
      return "";
  }
}

/** Go's `%v` of a float64: the shortest digits, in exponent form below 1e-4 and from 1e+06 on. */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, "0");
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${digits}`;
  }
  return String(value); // JavaScript writes this range in plain decimals, with the same shortest digits.
}

/** Go's `time.Time.String()` of a UTC instant: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTime(seconds: bigint, nanos: number): string {
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return `${seconds}s`;
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const fraction = nanos > 0 ? `.${pad(nanos, 9).replace(/0+$/, "")}` : "";
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${fraction} +0000 UTC`;
}

/** Go's `time.Duration.String()`: `1h2m3.5s`, `1.5ms`, `0s`. */
export function goDuration(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return "0s";
  const sign = nanoseconds < 0n ? "-" : "";
  const u = nanoseconds < 0n ? -nanoseconds : nanoseconds;
  const fraction = (whole: bigint, digits: number): string => {
    const scale = 10n ** BigInt(digits);
    const rest = (whole % scale).toString().padStart(digits, "0").replace(/0+$/, "");
    return `${whole / scale}${rest ? `.${rest}` : ""}`;
  };
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${fraction(u, 3)}µs`;
  if (u < 1_000_000_000n) return `${sign}${fraction(u, 6)}ms`;
  const hours = u / 3_600_000_000_000n;
  const minutes = (u / 60_000_000_000n) % 60n;
  const seconds = `${fraction(u % 60_000_000_000n, 9)}s`;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

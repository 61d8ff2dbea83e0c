/**
 * The inputs of a new execution, checked as FlyteAdmin checks them: the launch plan's expected inputs (its default
 * inputs plus the workflow inputs it neither defaults nor fixes), then the user's inputs against them (unknown
 * names, missing required inputs, literal types), then the fixed inputs, which no input may override.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { LaunchPlanSpec } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Parameter } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { ParameterSchema, type VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { type Literal, type LiteralMap, LiteralMapSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { goText } from "./go_text.ts";
import { areTypesCastable, scalarLiteralType } from "./type_casting.ts";
import { invalidArgument as invalid, sortedEntries } from "./shared_validation.ts";

/**
 * The inputs a launch plan expects, as FlyteAdmin computes them when it creates one: its default inputs, plus every
 * workflow input neither defaulted nor fixed, as a required parameter.
 */
export function expectedInputs(
  spec: LaunchPlanSpec,
  workflowInputs: VariableMap | undefined,
): Record<string, Parameter> {
  const defaults = spec.defaultInputs?.parameters ?? {};
  const fixed = spec.fixedInputs?.literals ?? {};
  const expected: Record<string, Parameter> = {};
  for (const [name, variable] of sortedEntries(workflowInputs?.variables ?? {})) {
    if (defaults[name]) expected[name] = defaults[name];
    else if (!fixed[name]) {
      expected[name] = create(ParameterSchema, {
        var: { type: variable.type, description: variable.description },
        behavior: { case: "required", value: true },
      });
    }
  }
  return expected;
}

/**
 * The execution's inputs: the user's, the defaults of those not given, and the fixed inputs. Throws
 * INVALID_ARGUMENT with FlyteAdmin's messages: `invalid input x`, `expected_inputs x missing`,
 * `invalid x input wrong type. Expected …, but got …`, `fixed_inputs x cannot be overridden`.
 */
export function checkAndFetchInputs(
  userInputs: LiteralMap | undefined,
  fixedInputs: LiteralMap | undefined,
  expected: Record<string, Parameter>,
): LiteralMap {
  const inputs: Record<string, Literal> = {};
  for (const [name, value] of sortedEntries(userInputs?.literals ?? {})) {
    if (!expected[name]) throw invalid(`invalid input ${name}`);
    inputs[name] = value;
  }
  for (const [name, parameter] of sortedEntries(expected)) {
    const given = inputs[name];
    if (!given) {
      if (parameter.behavior.case === "required" && parameter.behavior.value) {
        throw invalid(`expected_inputs ${name} missing`);
      }
      if (parameter.behavior.case === "default") inputs[name] = parameter.behavior.value;
      continue;
    }
    const actual = literalTypeOf(given);
    const wanted = parameter.var?.type;
    if (wanted && actual && !areTypesCastable(actual, wanted)) {
      throw invalid(
        `invalid ${name} input wrong type. Expected ${goText(LiteralTypeSchema, wanted)}, but got ${
          goText(LiteralTypeSchema, actual)
        }`,
      );
    }
  }
  for (const [name, value] of sortedEntries(fixedInputs?.literals ?? {})) {
    if (inputs[name]) throw invalid(`fixed_inputs ${name} cannot be overridden`);
    inputs[name] = value;
  }
  return create(LiteralMapSchema, { literals: inputs });
}

const simple = (type: SimpleType) => create(LiteralTypeSchema, { type: { case: "simple", value: type } });

/**
 * The type of a literal, as FlyteAdmin infers an execution input's (its scalars' as the compiler does, a union's as
 * a union of its one variant); undefined for what the sandbox does not model.
 */
export function literalTypeOf(literal: Literal): LiteralType | undefined {
  const value = literal.value;
  switch (value.case) {
    case "scalar":
      return scalarLiteralType(value.value);
    case "collection": {
      const first = value.value.literals[0];
      const element = first ? literalTypeOf(first) : simple(SimpleType.NONE);
      return element && create(LiteralTypeSchema, { type: { case: "collectionType", value: element } });
    }
    case "map": {
      const first = Object.values(value.value.literals)[0];
      const element = first ? literalTypeOf(first) : simple(SimpleType.NONE);
      return element && create(LiteralTypeSchema, { type: { case: "mapValueType", value: element } });
    }
    default:
      return undefined;
  }
}

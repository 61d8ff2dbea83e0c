/**
 * The inputs of a new execution, checked as FlyteAdmin checks them: the launch plan's expected inputs (its default
 * inputs plus the workflow inputs it neither defaults nor fixes), then the user's inputs against them (unknown
 * names, missing required inputs, literal types), then the fixed inputs, which no input may override.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { LaunchPlanSpec } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Parameter } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { ParameterSchema, type VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import {
  type Literal,
  type LiteralMap,
  LiteralMapSchema,
  type Primitive,
  type Scalar,
} from "../../proto/gen/flyteidl/core/literals_pb.ts";
import {
  BlobType_BlobDimensionality,
  type LiteralType,
  LiteralTypeSchema,
  SimpleType,
} from "../../proto/gen/flyteidl/core/types_pb.ts";

function invalid(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** Names in a stable order: FlyteAdmin walks Go maps (random order), the sandbox walks them sorted. */
function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

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
    if (wanted && !castable(actual, wanted)) {
      throw invalid(
        `invalid ${name} input wrong type. Expected ${describeType(wanted)}, but got ${describeType(actual)}`,
      );
    }
  }
  for (const [name, value] of sortedEntries(fixedInputs?.literals ?? {})) {
    if (inputs[name]) throw invalid(`fixed_inputs ${name} cannot be overridden`);
    inputs[name] = value;
  }
  return create(LiteralMapSchema, { literals: inputs });
}

const PRIMITIVE_TYPES: Record<Primitive["value"]["case"] & string, SimpleType> = {
  integer: SimpleType.INTEGER,
  floatValue: SimpleType.FLOAT,
  stringValue: SimpleType.STRING,
  boolean: SimpleType.BOOLEAN,
  datetime: SimpleType.DATETIME,
  duration: SimpleType.DURATION,
};

const simple = (type: SimpleType) => create(LiteralTypeSchema, { type: { case: "simple", value: type } });

/** The type of a literal, as the propeller's compiler infers it; undefined for what the sandbox does not model. */
export function literalTypeOf(literal: Literal): LiteralType | undefined {
  const value = literal.value;
  switch (value.case) {
    case "scalar":
      return scalarType(value.value);
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

function scalarType(scalar: Scalar): LiteralType | undefined {
  const value = scalar.value;
  switch (value.case) {
    case "primitive":
      return value.value.value.case ? simple(PRIMITIVE_TYPES[value.value.value.case]) : undefined;
    case "noneType":
      return simple(SimpleType.NONE);
    case "binary":
      // As FlyteAdmin's validator infers it: a MessagePack binary is a struct (a dataclass, a Pydantic model or a
      // dict sent as MessagePack); any other tag is raw binary.
      return simple(value.value.tag === "msgpack" ? SimpleType.STRUCT : SimpleType.BINARY);
    case "error":
      return simple(SimpleType.ERROR);
    case "generic":
      return simple(SimpleType.STRUCT);
    case "blob":
      return create(LiteralTypeSchema, { type: { case: "blob", value: value.value.metadata?.type ?? {} } });
    case "union":
      return value.value.type;
    default:
      return undefined;
  }
}

/**
 * Whether a value of type `source` may be passed where `target` is expected: equal simple types, unions (a
 * variant accepts it), collections and maps element-wise, blobs of the same dimensionality and a compatible
 * format. Types the sandbox does not model (schemas, datasets, enums, …) are accepted.
 */
export function castable(source: LiteralType | undefined, target: LiteralType): boolean {
  if (!source) return true;
  const to = target.type;
  const from = source.type;
  if (to.case === "unionType") {
    if (from.case === "unionType") return from.value.variants.every((variant) => castable(variant, target));
    return to.value.variants.some((variant) => castable(source, variant));
  }
  if (from.case === "simple" && from.value === SimpleType.NONE && to.case !== "simple") return false;
  switch (to.case) {
    case "simple":
      if (to.value === SimpleType.STRUCT && from.case === "simple" && from.value === SimpleType.STRUCT) return true;
      return from.case === "simple" && from.value === to.value;
    case "collectionType":
      if (from.case !== "collectionType") return false;
      return isNone(from.value) || castable(from.value, to.value);
    case "mapValueType":
      if (from.case !== "mapValueType") return false;
      return isNone(from.value) || castable(from.value, to.value);
    case "blob": {
      if (from.case !== "blob") return false;
      const sameDimensionality = (from.value.dimensionality ?? BlobType_BlobDimensionality.SINGLE) ===
        (to.value.dimensionality ?? BlobType_BlobDimensionality.SINGLE);
      const formats = [from.value.format, to.value.format];
      return sameDimensionality && (formats.includes("") || formats[0] === formats[1]);
    }
    default:
      return true;
  }
}

function isNone(type: LiteralType): boolean {
  return type.type.case === "simple" && type.type.value === SimpleType.NONE;
}

/** A type in the compact text form FlyteAdmin's messages print (`simple:INTEGER`, `collection_type:{…}`). */
export function describeType(type: LiteralType | undefined): string {
  const value = type?.type;
  switch (value?.case) {
    case "simple":
      return `simple:${SimpleType[value.value]}`;
    case "collectionType":
      return `collection_type:{${describeType(value.value)}}`;
    case "mapValueType":
      return `map_value_type:{${describeType(value.value)}}`;
    case "unionType":
      return `union_type:{${value.value.variants.map((variant) => `variants:{${describeType(variant)}}`).join(" ")}}`;
    case "blob":
      return `blob:{format:"${value.value.format}" dimensionality:${
        BlobType_BlobDimensionality[value.value.dimensionality]
      }}`;
    case undefined:
      return "<nil>";
    default:
      return value?.case ?? "<nil>";
  }
}

/**
 * The inputs of a new execution, checked as FlyteAdmin checks them: the launch plan's expected inputs (its default
 * inputs plus the workflow inputs it neither defaults nor fixes), then the user's inputs against them (unknown
 * names, missing required inputs, literal types), then the fixed inputs, which no input may override.
 *
 * @module
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { LaunchPlanSpec } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Parameter } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { ParameterSchema, type VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import {
  type Literal,
  type LiteralMap,
  LiteralMapSchema,
  type Scalar,
} from "../../proto/gen/flyteidl/core/literals_pb.ts";
import {
  BlobTypeSchema,
  type LiteralType,
  LiteralTypeSchema,
  SchemaTypeSchema,
  SimpleType,
  StructuredDatasetTypeSchema,
} from "../../proto/gen/flyteidl/core/types_pb.ts";
import { goText } from "./go_text.ts";
import { areTypesCastable, goNil, scalarLiteralType } from "./type_casting.ts";
import { invalidArgument as invalid, invalidLiteralType, sortedEntries } from "./shared_validation.ts";

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
    if (!actual) throw invalidLiteralType(name);
    const wanted = parameter.var?.type;
    if (wanted && !areTypesCastable(actual, wanted)) {
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
 * The type of a literal as the compiler's LiteralTypeForLiteral infers it, which FlyteAdmin checks an execution's and a
 * launch plan's inputs by: a scalar's from its value (a union's as a union of its one variant), a collection's or
 * map's from its elements' (below), an offloaded literal's the type recorded with it. Undefined where the compiler
 * infers none at all (Go's nil: a blob without metadata, a literal of no kind), which FlyteAdmin's
 * ValidateLiteralType refuses. A nil inside a type is kept where Go keeps it, as {@link goNil}: a collection or map
 * of such elements is a collection or map of nil (which ValidateLiteralType passes: it follows element types only
 * while they are not nil), and then is castable to nothing.
 */
export function literalTypeOf(literal: Literal): LiteralType | undefined {
  const value = literal.value;
  switch (value.case) {
    case "scalar":
      return scalarType(value.value);
    case "collection": {
      const elements = elementsType(value.value.literals);
      if (elements.offloaded) return elements.type;
      return create(LiteralTypeSchema, {
        type: { case: "collectionType", value: elements.type ?? goNil(LiteralTypeSchema) },
      });
    }
    case "map": {
      const elements = elementsType(Object.values(value.value.literals));
      if (elements.offloaded) return elements.type;
      return create(LiteralTypeSchema, {
        type: { case: "mapValueType", value: elements.type ?? goNil(LiteralTypeSchema) },
      });
    }
    case "offloadedMetadata":
      return value.value.inferredType;
    default:
      return undefined;
  }
}

/**
 * A scalar's type as the compiler's literalTypeForScalar gives it, with the nils it puts inside: a union without its
 * type is a union of one nil variant; a blob's metadata without a type, a schema without one, and a structured
 * dataset without metadata (or its type) make a blob, schema or dataset type of nil.
 */
function scalarType(scalar: Scalar): LiteralType | undefined {
  const value = scalar.value;
  const ofNil = (type: MessageInitShape<typeof LiteralTypeSchema>["type"]) => create(LiteralTypeSchema, { type });
  switch (value.case) {
    case "union":
      if (!value.value.type) return ofNil({ case: "unionType", value: { variants: [goNil(LiteralTypeSchema)] } });
      break;
    case "blob":
      if (value.value.metadata && !value.value.metadata.type) {
        return ofNil({ case: "blob", value: goNil(BlobTypeSchema) });
      }
      break;
    case "schema":
      if (!value.value.type) return ofNil({ case: "schema", value: goNil(SchemaTypeSchema) });
      break;
    case "structuredDataset":
      if (!value.value.metadata?.structuredDatasetType) {
        return ofNil({ case: "structuredDatasetType", value: goNil(StructuredDatasetTypeSchema) });
      }
      break;
  }
  return scalarLiteralType(scalar);
}

/**
 * The elements' type as the compiler's literalTypeForLiterals infers it: an offloaded element's stands for all of
 * them (and for the collection itself); an empty collection among them counts only if nothing else does; one type
 * is that type (undefined for Go's nil); several distinct ones (by their text, `<nil>` for a nil) are a union of them
 * in their text's order, a nil among them a nil variant (goNil), a collection of one when they are themselves
 * collections of unions (their variants merged); none at all is NONE.
 */
function elementsType(literals: readonly Literal[]): { type: LiteralType | undefined; offloaded: boolean } {
  const types = new Map<string, LiteralType | undefined>();
  let emptyCollection: LiteralType | undefined;
  for (const literal of literals) {
    const type = literalTypeOf(literal);
    if (literal.value.case === "offloadedMetadata") return { type, offloaded: true };
    if (literal.value.case === "collection" && literal.value.value.literals.length === 0) {
      emptyCollection = type;
      continue;
    }
    const key = type ? goText(LiteralTypeSchema, type) : "<nil>";
    if (!types.has(key)) types.set(key, type);
  }
  if (types.size === 0 && emptyCollection) return { type: emptyCollection, offloaded: false };
  if (types.size === 0) return { type: simple(SimpleType.NONE), offloaded: false };
  if (types.size === 1) return { type: [...types.values()][0], offloaded: false };
  const sorted = [...types].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([, type]) => type ?? goNil(LiteralTypeSchema));
  return { type: multipleTypeUnion(sorted), offloaded: false };
}

/** The compiler's buildMultipleTypeUnion: a union of the types, or of their variants where they are collections of
 * unions, then as a collection. */
function multipleTypeUnion(types: readonly LiteralType[]): LiteralType {
  let nested = false;
  const variants = types.flatMap((type) => {
    const inner = type.type.case === "collectionType" ? type.type.value : undefined;
    if (inner?.type.case !== "unionType") return [type];
    nested = true;
    return inner.type.value.variants;
  });
  const union = create(LiteralTypeSchema, { type: { case: "unionType", value: { variants } } });
  return nested ? create(LiteralTypeSchema, { type: { case: "collectionType", value: union } }) : union;
}

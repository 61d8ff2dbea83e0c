/**
 * Whether a value of one literal type may be bound where another is expected, as Flyte's workflow compiler decides
 * when a workflow is registered (its `AreTypesCastable`), and the type a binding's scalar has. Unlike the execution
 * inputs' check (`execution_inputs.ts`), nothing is accepted for being unmodelled: a type is castable only as the
 * compiler would cast it.
 *
 * @module
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Scalar } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import {
  type LiteralType,
  LiteralTypeSchema,
  type SchemaType,
  SchemaType_SchemaColumn_SchemaColumnType as ColumnType,
  SimpleType,
  type StructuredDatasetType,
} from "../../proto/gen/flyteidl/core/types_pb.ts";
import { goText } from "./go_text.ts";

const simple = (type: SimpleType) => create(LiteralTypeSchema, { type: { case: "simple", value: type } });

/** The messages that stand for Go's nil pointer where the compiler's inferred types hold one (see {@link goNil}). */
const GO_NILS = new WeakSet<object>();

/**
 * A message that stands for Go's nil where the compiler's LiteralTypeForLiteral leaves one inside a type (a union
 * variant, a collection's element type, a blob's type it does not know): it prints as Go prints a nil there (`{}`),
 * and casts as the compiler's checkers cast a nil: to nothing, and to a type compared exactly, as Go's nil
 * dereference does (FlyteAdmin answers the panic INTERNAL, with no message).
 */
export function goNil<Desc extends DescMessage>(schema: Desc): MessageShape<Desc> {
  const message = create(schema);
  GO_NILS.add(message);
  return message;
}

/** Whether `message` stands for Go's nil ({@link goNil}). */
export function isGoNil(message: object | undefined): boolean {
  return message !== undefined && GO_NILS.has(message);
}

/** FlyteAdmin's answer to a panic (its recovery interceptor's): INTERNAL, with no message. */
function recoveredPanic(): ConnectError {
  return new ConnectError("", Code.Internal);
}

const isNone = (type: LiteralType | undefined) => type?.type.case === "simple" && type.type.value === SimpleType.NONE;

/** The type a scalar binding has, as the compiler infers it; undefined for one it does not recognise. */
export function scalarLiteralType(scalar: Scalar): LiteralType | undefined {
  const value = scalar.value;
  switch (value.case) {
    case "primitive": {
      const types = {
        integer: SimpleType.INTEGER,
        floatValue: SimpleType.FLOAT,
        stringValue: SimpleType.STRING,
        boolean: SimpleType.BOOLEAN,
        datetime: SimpleType.DATETIME,
        duration: SimpleType.DURATION,
      } as const;
      return simple(value.value.value.case ? types[value.value.value.case] : SimpleType.NONE);
    }
    case "blob":
      return value.value.metadata
        ? create(LiteralTypeSchema, { type: { case: "blob", value: value.value.metadata.type ?? {} } })
        : undefined;
    case "binary":
      return simple(value.value.tag === "msgpack" ? SimpleType.STRUCT : SimpleType.BINARY);
    case "schema":
      return create(LiteralTypeSchema, { type: { case: "schema", value: value.value.type ?? {} } });
    case "structuredDataset":
      return create(LiteralTypeSchema, {
        type: { case: "structuredDatasetType", value: value.value.metadata?.structuredDatasetType ?? {} },
      });
    case "noneType":
      return simple(SimpleType.NONE);
    case "error":
      return simple(SimpleType.ERROR);
    case "generic":
      return simple(SimpleType.STRUCT);
    case "union":
      return create(LiteralTypeSchema, {
        type: { case: "unionType", value: { variants: value.value.type ? [value.value.type] : [] } },
      });
    default:
      return undefined;
  }
}

/** A type as the compiler's messages print it (its `LiteralTypeToStr`): Go's text form, a struct with its fields. */
export function literalTypeText(type: LiteralType | undefined): string {
  if (!type) return "None";
  if (type.type.case === "simple" && type.type.value === SimpleType.STRUCT) {
    const fields = type.structure?.dataclassType ?? {};
    const structure = Object.keys(fields).sort()
      .map((key) => `dataclass_type:{key:${key} value:{${literalTypeText(fields[key])}}`).join(", ");
    return `simple: STRUCT structure{${structure}}`;
  }
  return goText(LiteralTypeSchema, type);
}

/** The type without what the compiler ignores when it compares two types exactly. */
function bareText(type: LiteralType): string {
  const bare: LiteralType = { ...type, structure: undefined, metadata: undefined, annotation: undefined };
  return goText(LiteralTypeSchema, bare);
}

function trivialCastsFrom(target: LiteralType, upstream: LiteralType): boolean {
  // The compiler copies the upstream type (`*upstreamType`) before it compares: a nil one panics.
  if (isGoNil(upstream)) throw recoveredPanic();
  const isString = (type: LiteralType) => type.type.case === "simple" && type.type.value === SimpleType.STRING;
  // An enum is consumed as a string, and made from one: enums are constrained strings.
  if (upstream.type.case === "enumType" && isString(target)) return true;
  if (target.type.case === "enumType" && isString(upstream)) return true;
  const tag = upstream.structure?.tag ?? "";
  if (tag !== "" && (target.structure?.tag ?? "") !== tag) return false;
  return bareText(upstream) === bareText(target);
}

function columnsMatch(schemaColumn: ColumnType, simpleType: SimpleType | undefined): boolean {
  const pairs: [ColumnType, SimpleType][] = [
    [ColumnType.INTEGER, SimpleType.INTEGER],
    [ColumnType.FLOAT, SimpleType.FLOAT],
    [ColumnType.STRING, SimpleType.STRING],
    [ColumnType.BOOLEAN, SimpleType.BOOLEAN],
    [ColumnType.DATETIME, SimpleType.DATETIME],
    [ColumnType.DURATION, SimpleType.DURATION],
  ];
  return pairs.some(([column, simpleMatch]) => column === schemaColumn && simpleMatch === simpleType);
}

const simpleOf = (type: LiteralType | undefined) => type?.type.case === "simple" ? type.type.value : undefined;

/** Downstream columns must be a subset of the upstream's, each matching; no columns on either side matches all. */
function schemaFromSchema(upstream: SchemaType, downstream: SchemaType | undefined): boolean {
  const down = downstream?.columns ?? [];
  if (upstream.columns.length === 0 || down.length === 0) return true;
  const types = new Map(upstream.columns.map((column) => [column.name, column.type]));
  return down.every((column) => types.get(column.name) === column.type);
}

function datasetFromDataset(upstream: StructuredDatasetType, downstream: StructuredDatasetType | undefined): boolean {
  const downFormat = downstream?.format ?? "";
  if (upstream.format !== "" && downFormat !== "" && upstream.format.toLowerCase() !== downFormat.toLowerCase()) {
    return false;
  }
  const down = downstream?.columns ?? [];
  if (upstream.columns.length === 0 || down.length === 0) return true;
  const types = new Map(upstream.columns.map((column) => [column.name, column.literalType]));
  return down.every((column) => {
    const from = types.get(column.name);
    const none = create(LiteralTypeSchema);
    return types.has(column.name) && castsFrom(column.literalType ?? none, from ?? none);
  });
}

function datasetFromSchema(upstream: SchemaType, downstream: StructuredDatasetType | undefined): boolean {
  const down = downstream?.columns ?? [];
  if (upstream.columns.length === 0 || down.length === 0) return true;
  const types = new Map(upstream.columns.map((column) => [column.name, column.type]));
  return down.every((column) =>
    types.has(column.name) && columnsMatch(types.get(column.name)!, simpleOf(column.literalType))
  );
}

function schemaFromDataset(upstream: StructuredDatasetType, downstream: SchemaType | undefined): boolean {
  const down = downstream?.columns ?? [];
  if (upstream.columns.length === 0 || down.length === 0) return true;
  const types = new Map(upstream.columns.map((column) => [column.name, simpleOf(column.literalType)]));
  return down.every((column) => types.has(column.name) && columnsMatch(column.type, types.get(column.name)));
}

/** Whether `target` accepts a value of type `upstream` (the compiler's type checker of `target`). */
function castsFrom(target: LiteralType, upstream: LiteralType): boolean {
  const to = target.type;
  const from = upstream.type;
  switch (to.case) {
    // A nil inside the upstream type (goNil) is no collection, map, blob, schema or dataset to these checkers.
    case "collectionType":
      if (from.case !== "collectionType" || isGoNil(from.value)) return false;
      return isNone(from.value) || castsFrom(to.value, from.value);
    case "mapValueType":
      if (from.case !== "mapValueType" || isGoNil(from.value)) return false;
      return isNone(from.value) || castsFrom(to.value, from.value);
    case "blob": {
      if (from.case !== "blob" || isGoNil(from.value)) return false;
      return from.value.format === "" || to.value.format === "" || from.value.format === to.value.format;
    }
    case "schema":
      if (from.case === "schema") return !isGoNil(from.value) && schemaFromSchema(from.value, to.value);
      if (from.case !== "structuredDatasetType" || isGoNil(from.value)) return false;
      // A Flyte schema is only ever parquet.
      if (from.value.format !== "" && from.value.format.toLowerCase() !== "parquet") return false;
      return schemaFromDataset(from.value, to.value);
    case "unionType": {
      if (from.case === "unionType") {
        return from.value.variants.every((variant) => to.value.variants.some((d) => areTypesCastable(variant, d)));
      }
      // Castable only when exactly one variant accepts it.
      return to.value.variants.filter((variant) => areTypesCastable(upstream, variant)).length === 1;
    }
    case "structuredDatasetType": {
      // Structured datasets are nullable.
      if (isNone(upstream)) return true;
      if (from.case === "schema") {
        if (isGoNil(from.value)) return false;
        const format = to.value.format;
        if (format !== "" && format.toLowerCase() !== "parquet") return false;
        return datasetFromSchema(from.value, to.value);
      }
      if (from.case !== "structuredDatasetType" || isGoNil(from.value)) return false;
      return datasetFromDataset(from.value, to.value);
    }
    default:
      if (isNone(target)) return isNone(upstream);
      return trivialCastsFrom(target, upstream);
  }
}

/**
 * Whether a binding of type `upstream` may feed an input of type `downstream`, as the compiler's
 * `AreTypesCastable` decides.
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
 * import { areTypesCastable } from "./type_casting.ts";
 *
 * const int = create(LiteralTypeSchema, { type: { case: "simple", value: SimpleType.INTEGER } });
 * const str = create(LiteralTypeSchema, { type: { case: "simple", value: SimpleType.STRING } });
 * console.log(areTypesCastable(int, str)); // false
 * ```
 */
export function areTypesCastable(upstream: LiteralType, downstream: LiteralType): boolean {
  // A union of one variant casts as that variant does, too.
  const from = upstream.type;
  if (from.case === "unionType" && from.value.variants.length === 1 && castsFrom(downstream, from.value.variants[0])) {
    return true;
  }
  return castsFrom(downstream, upstream);
}

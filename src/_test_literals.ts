/**
 * Builders of flyteidl literals and literal types for tests (test code only), so that each test file writes
 * `int(3)` or `simple(SimpleType.STRING)` rather than the nested oneofs, and every file builds them the same way.
 *
 * Each returns a message made by `create`: it goes wherever a message or its init shape is taken (a nested init
 * included), and `create` of it returns it as it is.
 *
 * @module
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Literal, LiteralSchema, type PrimitiveSchema } from "../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralType, LiteralTypeSchema, type SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";

/** A Literal as `create(LiteralSchema, …)` takes it. */
export type LiteralInit = MessageInitShape<typeof LiteralSchema>;

/** A LiteralType as `create(LiteralTypeSchema, …)` takes it. */
export type LiteralTypeInit = MessageInitShape<typeof LiteralTypeSchema>;

/** The Primitive oneof: `{ case: "integer", value: 3n }`, `{ case: "stringValue", value: "hi" }`, … */
export type PrimitiveCase = MessageInitShape<typeof PrimitiveSchema>["value"];

/** A scalar primitive literal: `primitive({ case: "boolean", value: true })`. */
export function primitive(value: PrimitiveCase): Literal {
  return create(LiteralSchema, {
    value: { case: "scalar", value: { value: { case: "primitive", value: { value } } } },
  });
}

/** An integer literal: `int(3)` or `int(2n ** 63n - 1n)`. */
export function int(value: number | bigint): Literal {
  return primitive({ case: "integer", value: BigInt(value) });
}

/** A string literal: `str("hi")`. */
export function str(value: string): Literal {
  return primitive({ case: "stringValue", value });
}

/** A boolean literal: `bool(true)`. */
export function bool(value: boolean): Literal {
  return primitive({ case: "boolean", value });
}

/** A datetime literal, seconds and nanoseconds since the epoch: `datetime(43_200n)` is 1970-01-01T12:00:00Z. */
export function datetime(seconds: bigint, nanos = 0): Literal {
  return primitive({ case: "datetime", value: { seconds, nanos } });
}

/** A duration literal: `duration(90n, 500)` is 90.0000005 s. */
export function duration(seconds: bigint, nanos = 0): Literal {
  return primitive({ case: "duration", value: { seconds, nanos } });
}

/** The none literal (a scalar `noneType`): `none()`. */
export function none(): Literal {
  return create(LiteralSchema, { value: { case: "scalar", value: { value: { case: "noneType", value: {} } } } });
}

/** A collection literal of `literals`: `collection(int(1), int(2))`. */
export function collection(...literals: LiteralInit[]): Literal {
  return create(LiteralSchema, { value: { case: "collection", value: { literals } } });
}

/** A simple literal type: `simple(SimpleType.INTEGER)`. */
export function simple(value: SimpleType): LiteralType {
  return create(LiteralTypeSchema, { type: { case: "simple", value } });
}

/** The type of a collection of `inner`: `collectionOf(simple(SimpleType.STRING))`. */
export function collectionOf(inner: LiteralTypeInit): LiteralType {
  return create(LiteralTypeSchema, { type: { case: "collectionType", value: inner } });
}

/** The type of a map from strings to `inner`: `mapOf(simple(SimpleType.FLOAT))`. */
export function mapOf(inner: LiteralTypeInit): LiteralType {
  return create(LiteralTypeSchema, { type: { case: "mapValueType", value: inner } });
}

/** A union type of `variants`: `unionOf(simple(SimpleType.INTEGER), simple(SimpleType.NONE))`. */
export function unionOf(...variants: LiteralTypeInit[]): LiteralType {
  return create(LiteralTypeSchema, { type: { case: "unionType", value: { variants } } });
}

/** An enum type of `values`: `enumOf("RED", "GREEN")`. */
export function enumOf(...values: string[]): LiteralType {
  return create(LiteralTypeSchema, { type: { case: "enumType", value: { values } } });
}

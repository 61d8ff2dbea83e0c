/**
 * Placeholder values for declared outputs, so a sandbox execution that succeeds without planned outputs still
 * reports one value of each output's type.
 *
 * @module
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import type { LiteralMapSchema, LiteralSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralType, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";

type LiteralInit = MessageInitShape<typeof LiteralSchema>;

/** A primitive literal; `value` is the Primitive oneof (`{ case: "integer", value: 0n }`). */
const primitive = (value: unknown) =>
  ({ value: { case: "scalar", value: { value: { case: "primitive", value: { value } } } } }) as LiteralInit;

/** A value of the type: zero, empty, false, the epoch; undefined for types without an obvious one. */
export function defaultLiteral(type: LiteralType | undefined): LiteralInit | undefined {
  const value = type?.type;
  switch (value?.case) {
    case "simple":
      switch (value.value) {
        case SimpleType.INTEGER:
          return primitive({ case: "integer", value: 0n });
        case SimpleType.FLOAT:
          return primitive({ case: "floatValue", value: 0 });
        case SimpleType.STRING:
          return primitive({ case: "stringValue", value: "" });
        case SimpleType.BOOLEAN:
          return primitive({ case: "boolean", value: false });
        case SimpleType.DATETIME:
          return primitive({ case: "datetime", value: { seconds: 0n } });
        case SimpleType.DURATION:
          return primitive({ case: "duration", value: { seconds: 0n } });
        case SimpleType.NONE:
          return { value: { case: "scalar", value: { value: { case: "noneType", value: {} } } } };
        default:
          return undefined;
      }
    case "collectionType":
      return { value: { case: "collection", value: { literals: [] } } };
    case "mapValueType":
      return { value: { case: "map", value: { literals: {} } } };
    case "unionType":
      return defaultLiteral(value.value.variants[0]);
    default:
      return undefined;
  }
}

/** A value for each variable that has an obvious one. */
export function defaultLiterals(variables: VariableMap | undefined): MessageInitShape<typeof LiteralMapSchema> {
  const literals: Record<string, LiteralInit> = {};
  for (const [name, variable] of Object.entries(variables?.variables ?? {})) {
    const literal = defaultLiteral(variable.type);
    if (literal) literals[name] = literal;
  }
  return { literals };
}

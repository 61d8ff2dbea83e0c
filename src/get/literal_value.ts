/**
 * A literal (a launch plan's default input) as the value an execution spec file holds: what `create execution`
 * reads back into the same literal. A msgpack binary (flytekit's dataclass defaults) is written decoded.
 *
 * @module
 */
import type { Literal, Primitive } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { SpecValue } from "../tasks/exec_spec.ts";
import { decodeMsgpack } from "./msgpack_decode.ts";

/** Seconds and nanos as Go's duration text (`1h0m0s` style is not needed: `3600s` reads back the same). */
function durationText(seconds: bigint, nanos: number): string {
  return nanos === 0 ? `${seconds}s` : `${Number(seconds) + nanos / 1e9}s`;
}

/** The spec value of a primitive; undefined for one newer than these protos. */
function primitiveValue(primitive: Primitive): SpecValue | undefined {
  const p = primitive.value;
  switch (p.case) {
    case "integer":
      return Number(p.value);
    case "floatValue":
    case "stringValue":
    case "boolean":
      return p.value;
    case "datetime":
      return new Date(Number(p.value.seconds) * 1000 + Math.floor(p.value.nanos / 1e6)).toISOString();
    case "duration":
      return durationText(p.value.seconds, p.value.nanos);
    default:
      return undefined;
  }
}

/** The spec value of `literal`; undefined when it has none to give (a promise, offloaded data). */
export function literalValue(literal: Literal | undefined): SpecValue | undefined {
  const v = literal?.value;
  switch (v?.case) {
    case "collection":
      return v.value.literals.map((l) => literalValue(l) ?? null);
    case "map":
      return Object.fromEntries(Object.entries(v.value.literals).map(([k, l]) => [k, literalValue(l) ?? null]));
    case "scalar":
      break;
    default:
      return undefined;
  }
  const s = v.value.value;
  switch (s.case) {
    case "primitive":
      return primitiveValue(s.value);
    case "noneType":
      return null;
    case "blob":
    case "schema":
    case "structuredDataset":
      return s.value.uri;
    case "generic":
      // protobuf-es holds a Struct as its JSON object.
      return s.value as SpecValue;
    case "union":
      return literalValue(s.value.value);
    case "binary":
      if (s.value.tag === "msgpack") {
        try {
          return decodeMsgpack(s.value.value);
        } catch {
          // Not one value flytekit wrote: the bytes as they are, which still read back.
        }
      }
      return { value: [...s.value.value], tag: s.value.tag };
    default:
      return undefined;
  }
}

/**
 * A literal (a launch plan's default input) as the value an execution spec file holds: what `create execution`
 * reads back into the same literal. A msgpack binary (flytekit's dataclass defaults) is written decoded.
 *
 * @module
 */
import type { Literal, Primitive } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { SpecValue } from "../tasks/exec_spec.ts";
import { decodeMsgpack } from "./msgpack_decode.ts";

/**
 * Seconds and nanos (the same sign, as google.protobuf.Duration holds them) as Go duration text the spec reader
 * takes back exactly: `90s`, `1.000000001s`, `-0.5s`; never a float's `1e-9s`.
 */
export function durationText(seconds: bigint, nanos: number): string {
  const total = seconds * 1_000_000_000n + BigInt(nanos);
  const magnitude = total < 0n ? -total : total;
  const whole = magnitude / 1_000_000_000n;
  const fraction = String(magnitude % 1_000_000_000n).padStart(9, "0").replace(/0+$/, "");
  return `${total < 0n ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}s`;
}

/** A timestamp as RFC 3339 in UTC with every nanosecond it has (`Date` alone keeps milliseconds). */
export function timestampText(seconds: bigint, nanos: number): string {
  const fraction = String(nanos).padStart(9, "0").replace(/0+$/, "");
  const base = new Date(Number(seconds) * 1000).toISOString().replace(/\.\d+Z$/, "");
  return `${base}${fraction ? `.${fraction}` : ""}Z`;
}

/** The spec value of a primitive; undefined for one newer than these protos. */
function primitiveValue(primitive: Primitive): SpecValue | undefined {
  const p = primitive.value;
  switch (p.case) {
    case "integer":
      // Beyond 2^53 a number would round: such an integer is written from its bigint, digit for digit.
      return Number.isSafeInteger(Number(p.value)) ? Number(p.value) : p.value;
    case "floatValue":
    case "stringValue":
    case "boolean":
      return p.value;
    case "datetime":
      return timestampText(p.value.seconds, p.value.nanos);
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

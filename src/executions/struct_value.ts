/**
 * Struct inputs (dataclasses, Pydantic models, dicts): a mapping as MessagePack in `binary{tag: "msgpack"}`,
 * as flytekit writes them, or as the old protobuf `Struct` (`generic`). In MessagePack integers stay integers
 * and floats floats: a float that happens to be whole (`1.0`) is written as a float64, so a Python float field
 * gets a float.
 *
 * @module
 */
// The package's ES-module build (its `module` field): Deno reads only `main`, the CommonJS build, whose loading starts
// Deno's CommonJS loader (tens of milliseconds of a cold `create execution`).
import { encode } from "@msgpack/msgpack/dist.esm/index.mjs";
import type { JsonValue } from "@bufbuild/protobuf";
import type { InputValue } from "./input_value.ts";

/** Flyte's tag for MessagePack bytes in `Binary`. */
export const MSGPACK_TAG = "msgpack";

/** A plain value for the MessagePack encoder: exact integers as bigint beyond the safe range. */
type Plain = null | boolean | number | bigint | string | Plain[] | { [key: string]: Plain };

/** Whether `value` holds a float whose value is whole (`1.0`): the encoder would write it as an integer. */
function hasWholeFloat(value: InputValue): boolean {
  switch (value.kind) {
    case "float":
      return Number.isInteger(value.value);
    case "list":
      return value.items.some(hasWholeFloat);
    case "map":
      return [...value.entries.values()].some(hasWholeFloat);
    default:
      return false;
  }
}

function toPlain(value: InputValue, bigIntegers: boolean): Plain {
  switch (value.kind) {
    case "null":
      return null;
    case "bool":
    case "string":
      return value.value;
    case "float":
      return value.value;
    case "int":
      // Beyond 32 bits the encoder writes a number as a float64 (with useBigInt64): a bigint it writes as
      // int64/uint64, as Python's msgpack does for these integers.
      return bigIntegers || value.value > 0xffff_ffffn || value.value < -0x8000_0000n
        ? value.value
        : Number(value.value);
    case "list":
      return value.items.map((item) => toPlain(item, bigIntegers));
    case "map": {
      const out: { [key: string]: Plain } = {};
      for (const [key, item] of value.entries) {
        Object.defineProperty(out, key, { value: toPlain(item, bigIntegers), enumerable: true, writable: true });
      }
      return out;
    }
  }
}

/**
 * `value` as MessagePack bytes. Integers in the smallest form (as Python's msgpack writes them) unless the
 * value holds a whole float: then every number is written by its kind, integers as int64/uint64 and floats as
 * float64, since the encoder cannot otherwise tell `1.0` from `1`.
 */
export function msgpackBytes(value: InputValue): Uint8Array {
  if (hasWholeFloat(value)) {
    return encode(toPlain(value, true), { useBigInt64: true, forceIntegerToFloat: true });
  }
  return encode(toPlain(value, false), { useBigInt64: true });
}

/**
 * `value` as JSON for a protobuf `Struct`, whose numbers are doubles; or the reason it cannot be one (an
 * integer a double cannot hold exactly, an infinite or NaN float).
 */
export function structJson(value: InputValue): { json: JsonValue } | { problem: string } {
  switch (value.kind) {
    case "null":
      return { json: null };
    case "bool":
    case "string":
      return { json: value.value };
    case "float":
      return Number.isFinite(value.value)
        ? { json: value.value }
        : { problem: `${value.text} cannot be held in a protobuf Struct (JSON numbers are finite)` };
    case "int": {
      const number = Number(value.value);
      return BigInt(number) === value.value && Number.isSafeInteger(number)
        ? { json: number }
        : { problem: `${value.text} cannot be held exactly in a protobuf Struct (its numbers are doubles)` };
    }
    case "list": {
      const items: JsonValue[] = [];
      for (const item of value.items) {
        const converted = structJson(item);
        if ("problem" in converted) return converted;
        items.push(converted.json);
      }
      return { json: items };
    }
    case "map": {
      const out: { [key: string]: JsonValue } = {};
      for (const [key, item] of value.entries) {
        const converted = structJson(item);
        if ("problem" in converted) return converted;
        Object.defineProperty(out, key, { value: converted.json, enumerable: true, writable: true });
      }
      return { json: out };
    }
  }
}

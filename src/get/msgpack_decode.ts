/**
 * The values flytekit writes as binary literals (`tag: msgpack`, dataclass and Pydantic defaults), decoded by the
 * MessagePack library the literal builder encodes with, as spec values: nil, booleans, integers, floats, strings,
 * binary (a list of byte values) arrays and maps. What a spec value cannot hold exactly is refused, so that the
 * caller falls back to the raw bytes, which read back unchanged: an extension type (a timestamp included), an
 * integer beyond ±2^53 (64-bit integers are decoded as bigint, never rounded), a map key that is no string or
 * number, a value nested more than {@link MAX_DEPTH} arrays and maps deep. A truncated value, or bytes after it, is
 * refused too.
 *
 * @module
 */
import { decode } from "@msgpack/msgpack";
import type { SpecValue } from "../tasks/exec_spec.ts";

/**
 * The deepest nesting of arrays and maps decoded, as protobuf-es bounds a message's. A dataclass nests a few levels;
 * a value thousands deep (a few KiB of an admin's answer) decoded, but overflowed the stack of whatever wrote it
 * out next (the YAML of `get launchplan --execFile`): one nested deeper is refused, and the raw bytes shown.
 */
const MAX_DEPTH = 100;

/**
 * Decodes one MessagePack value that fills `bytes` exactly.
 *
 * @throws {Error} the bytes are no single MessagePack value, or one a spec value cannot hold exactly
 */
export function decodeMsgpack(bytes: Uint8Array): SpecValue {
  return specValue(decode(bytes, { useBigInt64: true }), 0);
}

/** `value`, found `depth` arrays and maps deep, as a spec value. */
function specValue(value: unknown, depth: number): SpecValue {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value;
    case "bigint":
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw new Error(`the msgpack integer ${value} is beyond what a spec value holds exactly`);
      }
      return Number(value);
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return [...value];
  if ((Array.isArray(value) || typeof value === "object") && depth >= MAX_DEPTH) {
    throw new Error(`the msgpack value nests arrays and maps more than ${MAX_DEPTH} deep`);
  }
  if (Array.isArray(value)) return value.map((item) => specValue(item, depth + 1));
  // Decoded maps are plain objects; an extension type decodes to an object of its own class (or a Date).
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const map: { [key: string]: SpecValue } = {};
    for (const [key, item] of Object.entries(value)) map[key] = specValue(item, depth + 1);
    return map;
  }
  throw new Error("a msgpack extension type has no spec value");
}

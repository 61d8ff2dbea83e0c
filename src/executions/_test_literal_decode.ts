/**
 * Test code only: literals back to plain values, so that tests compare what a spec file said with what would
 * be sent. Integers decode as bigint and floats as number everywhere, MessagePack included: its decoder here is
 * written from the format's specification (not the encoder's library), so that an integer written as a float,
 * or a float as an integer, shows.
 *
 * @module
 */
import type { Literal } from "../../proto/gen/flyteidl/core/literals_pb.ts";

/** A decoded value: ints bigint, floats number, datetimes `{seconds, nanos}`, durations `{durationNanos}`. */
export type Decoded =
  | null
  | boolean
  | number
  | bigint
  | string
  | Decoded[]
  | { [key: string]: Decoded };

/** `literal` as a plain value; unions decode to their value, blobs/schemas/datasets to `{uri}`. */
export function decodeLiteral(literal: Literal): Decoded {
  const v = literal.value;
  switch (v.case) {
    case "collection":
      return v.value.literals.map(decodeLiteral);
    case "map":
      return Object.fromEntries(Object.entries(v.value.literals).map(([k, l]) => [k, decodeLiteral(l)]));
    case "scalar":
      break;
    default:
      throw new Error(`cannot decode a ${v.case} literal`);
  }
  const s = v.value.value;
  switch (s.case) {
    case "primitive": {
      const p = s.value.value;
      switch (p.case) {
        case "integer":
        case "floatValue":
        case "stringValue":
        case "boolean":
          return p.value;
        case "datetime":
          return { seconds: p.value.seconds, nanos: p.value.nanos };
        case "duration":
          return { durationNanos: p.value.seconds * 1_000_000_000n + BigInt(p.value.nanos) };
      }
      throw new Error("empty primitive");
    }
    case "noneType":
      return null;
    case "union":
      return decodeLiteral(s.value.value!);
    case "blob":
      return { uri: s.value.uri };
    case "schema":
      return { uri: s.value.uri };
    case "structuredDataset":
      return { uri: s.value.uri };
    case "binary":
      if (s.value.tag !== "msgpack") return { tag: s.value.tag, bytes: [...s.value.value].map(BigInt) };
      return decodeMsgpack(s.value.value);
    case "generic":
      return { generic: s.value as Decoded };
    case "error":
      return { failedNodeId: s.value.failedNodeId, message: s.value.message };
    default:
      throw new Error(`cannot decode a ${s.case} scalar`);
  }
}

/** MessagePack bytes as a plain value (ints bigint, floats number); throws on anything left over. */
export function decodeMsgpack(bytes: Uint8Array): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const text = (n: number) => {
    const s = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(pos, pos + n));
    pos += n;
    return s;
  };
  const read = (): Decoded => {
    const b = view.getUint8(pos++);
    if (b <= 0x7f) return BigInt(b);
    if (b >= 0xe0) return BigInt(b - 0x100);
    if (b >= 0xa0 && b <= 0xbf) return text(b - 0xa0);
    if (b >= 0x90 && b <= 0x9f) return array(b - 0x90);
    if (b >= 0x80 && b <= 0x8f) return map(b - 0x80);
    const at = pos;
    switch (b) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xca:
        pos += 4;
        return view.getFloat32(at);
      case 0xcb:
        pos += 8;
        return view.getFloat64(at);
      case 0xcc:
        pos += 1;
        return BigInt(view.getUint8(at));
      case 0xcd:
        pos += 2;
        return BigInt(view.getUint16(at));
      case 0xce:
        pos += 4;
        return BigInt(view.getUint32(at));
      case 0xcf:
        pos += 8;
        return view.getBigUint64(at);
      case 0xd0:
        pos += 1;
        return BigInt(view.getInt8(at));
      case 0xd1:
        pos += 2;
        return BigInt(view.getInt16(at));
      case 0xd2:
        pos += 4;
        return BigInt(view.getInt32(at));
      case 0xd3:
        pos += 8;
        return view.getBigInt64(at);
      case 0xd9:
        pos += 1;
        return text(view.getUint8(at));
      case 0xda:
        pos += 2;
        return text(view.getUint16(at));
      case 0xdb:
        pos += 4;
        return text(view.getUint32(at));
      case 0xdc:
        pos += 2;
        return array(view.getUint16(at));
      case 0xdd:
        pos += 4;
        return array(view.getUint32(at));
      case 0xde:
        pos += 2;
        return map(view.getUint16(at));
      case 0xdf:
        pos += 4;
        return map(view.getUint32(at));
      default:
        throw new Error(`unexpected msgpack byte 0x${b.toString(16)} at ${at - 1}`);
    }
  };
  const array = (n: number): Decoded[] => Array.from({ length: n }, read);
  const map = (n: number): { [key: string]: Decoded } => {
    const out: { [key: string]: Decoded } = {};
    for (let i = 0; i < n; i++) {
      const key = read();
      if (typeof key !== "string") throw new Error("msgpack map key is not a string");
      Object.defineProperty(out, key, { value: read(), enumerable: true, writable: true });
    }
    return out;
  };
  const value = read();
  if (pos !== bytes.length) throw new Error(`${bytes.length - pos} bytes left after the msgpack value`);
  return value;
}

/**
 * `value` as text that tells every kind apart: `1n` (an integer) from `1` (a float), `-0` from `0`, NaN from
 * NaN. Comparing these is stricter than `assert.deepStrictEqual`, which here takes `1n` and `1` as equal.
 */
export function canonical(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  throw new Error(`cannot compare a ${typeof value}`);
}

/** Asserts that `actual` and `expected` are the same value, kind for kind (see {@link canonical}). */
export function assertSameValue(actual: unknown, expected: unknown, message?: string): void {
  const [a, e] = [canonical(actual), canonical(expected)];
  if (a !== e) throw new Error(`${message ? `${message}: ` : ""}${a} !== ${e}`);
}

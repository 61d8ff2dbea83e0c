/**
 * A MessagePack decoder for the values flytekit writes as binary literals (`tag: msgpack`, dataclass and
 * Pydantic defaults): nil, booleans, integers, floats, strings, binary, arrays and maps. An extension type or a
 * truncated value is an error: the caller falls back to the raw bytes.
 *
 * @module
 */
import type { SpecValue } from "../tasks/exec_spec.ts";

/** Decodes one MessagePack value that fills `bytes` exactly. */
export function decodeMsgpack(bytes: Uint8Array): SpecValue {
  const reader = new Reader(bytes);
  const value = reader.value();
  if (reader.at !== bytes.length) throw new Error("trailing bytes after the msgpack value");
  return value;
}

class Reader {
  at = 0;
  readonly #view: DataView;
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  #take(n: number): number {
    const at = this.at;
    if (at + n > this.#bytes.length) throw new Error("truncated msgpack value");
    this.at += n;
    return at;
  }

  #uint(n: 1 | 2 | 4 | 8): number {
    const at = this.#take(n);
    if (n === 1) return this.#view.getUint8(at);
    if (n === 2) return this.#view.getUint16(at);
    if (n === 4) return this.#view.getUint32(at);
    return Number(this.#view.getBigUint64(at));
  }

  #int(n: 1 | 2 | 4 | 8): number {
    const at = this.#take(n);
    if (n === 1) return this.#view.getInt8(at);
    if (n === 2) return this.#view.getInt16(at);
    if (n === 4) return this.#view.getInt32(at);
    return Number(this.#view.getBigInt64(at));
  }

  #str(n: number): string {
    const at = this.#take(n);
    return new TextDecoder("utf-8", { fatal: true }).decode(this.#bytes.subarray(at, at + n));
  }

  #bin(n: number): SpecValue {
    const at = this.#take(n);
    return [...this.#bytes.subarray(at, at + n)];
  }

  #array(n: number): SpecValue[] {
    return Array.from({ length: n }, () => this.value());
  }

  #map(n: number): { [key: string]: SpecValue } {
    const map: { [key: string]: SpecValue } = {};
    for (let i = 0; i < n; i++) {
      const key = this.value();
      map[typeof key === "string" ? key : JSON.stringify(key)] = this.value();
    }
    return map;
  }

  value(): SpecValue {
    const b = this.#uint(1);
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if ((b & 0xf0) === 0x80) return this.#map(b & 0x0f);
    if ((b & 0xf0) === 0x90) return this.#array(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return this.#str(b & 0x1f);
    switch (b) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.#bin(this.#uint(1));
      case 0xc5:
        return this.#bin(this.#uint(2));
      case 0xc6:
        return this.#bin(this.#uint(4));
      case 0xca:
        return this.#view.getFloat32(this.#take(4));
      case 0xcb:
        return this.#view.getFloat64(this.#take(8));
      case 0xcc:
        return this.#uint(1);
      case 0xcd:
        return this.#uint(2);
      case 0xce:
        return this.#uint(4);
      case 0xcf:
        return this.#uint(8);
      case 0xd0:
        return this.#int(1);
      case 0xd1:
        return this.#int(2);
      case 0xd2:
        return this.#int(4);
      case 0xd3:
        return this.#int(8);
      case 0xd9:
        return this.#str(this.#uint(1));
      case 0xda:
        return this.#str(this.#uint(2));
      case 0xdb:
        return this.#str(this.#uint(4));
      case 0xdc:
        return this.#array(this.#uint(2));
      case 0xdd:
        return this.#array(this.#uint(4));
      case 0xde:
        return this.#map(this.#uint(2));
      case 0xdf:
        return this.#map(this.#uint(4));
      default:
        throw new Error(`unsupported msgpack type 0x${b.toString(16)}`);
    }
  }
}

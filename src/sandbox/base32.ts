/**
 * Go's `encoding/base32`, which FlyteAdmin and flytepropeller name things with: FlyteAdmin an uploaded file's folder
 * (`base32.StdEncoding`), flytepropeller a long node execution id (its own alphabet, no padding).
 *
 * @module
 */

/** RFC 4648's alphabet, Go's `base32.StdEncoding`. */
export const STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * `bytes` in base32 of the 32 characters of `alphabet`, padded with `=` to whole blocks of 8 unless `padding` is
 * false, as Go's encoder writes it.
 *
 * ```ts
 * import { base32 } from "./base32.ts";
 *
 * console.log(base32(new TextEncoder().encode("f"))); // "MY======"
 * console.log(base32(new TextEncoder().encode("f"), "abcdefghijklmnopqrstuvwxyz123456", false)); // "my"
 * ```
 */
export function base32(bytes: Uint8Array, alphabet = STD_ALPHABET, padding = true): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return padding ? out.padEnd(Math.ceil(out.length / 8) * 8, "=") : out;
}

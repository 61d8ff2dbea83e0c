/**
 * The sandbox authorization server's JWTs (RFC 7519): id_tokens as OpenID Connect providers issue them, signed
 * with whichever algorithm a provider chose, and JWT access tokens (RFC 9068). Each key is made on first use
 * (an RSA key costs a moment) and published nowhere: clients of the sandbox are not meant to verify them, only
 * to cope with them. Signing is synchronous (node:crypto), so issuing a token stays synchronous.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { constants, createHmac, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/** The JWS algorithms the sandbox signs with (RFC 7518 §3.1). */
export type JwtAlgorithm = "HS256" | "ES256" | "RS256" | "PS256";

const base64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");

/** Signs JWTs with keys of its own. */
export class JwtSigner {
  #hmacKey?: Uint8Array;
  #ecKey?: KeyObject;
  #rsaKey?: KeyObject;

  /** The compact JWS of `claims`, signed with `alg`; `typ` is the header's type (`JWT`, `at+jwt`). */
  sign(alg: JwtAlgorithm, claims: Record<string, unknown>, typ = "JWT"): string {
    const input = `${base64url(JSON.stringify({ alg, typ, kid: `sandbox-${alg.toLowerCase()}` }))}.${
      base64url(JSON.stringify(claims))
    }`;
    return `${input}.${base64url(this.#signature(alg, Buffer.from(input)))}`;
  }

  #signature(alg: JwtAlgorithm, input: Buffer): Uint8Array {
    switch (alg) {
      case "HS256":
        this.#hmacKey ??= randomBytes(32);
        return createHmac("sha256", this.#hmacKey).update(input).digest();
      case "ES256":
        this.#ecKey ??= generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
        // JWS wants the raw r‖s pair, not DER.
        return sign("sha256", input, { key: this.#ecKey, dsaEncoding: "ieee-p1363" });
      case "RS256":
        this.#rsaKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
        return sign("sha256", input, this.#rsaKey);
      case "PS256":
        this.#rsaKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
        return sign("sha256", input, { key: this.#rsaKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
    }
  }
}

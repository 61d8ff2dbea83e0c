/**
 * Redaction of secret values (storage secret keys, client secrets, tokens) from every text fctl
 * writes: log records, error messages, stack traces and command output. A secret is hidden in every form
 * fctl sends it in, since a server may echo a request back in an error: as is, JSON-escaped, percent- and
 * form-encoded (a form body's `client_secret=…`), and in base64 and base64url, inside an HTTP Basic credential
 * or anything else encoded whole.
 *
 * @module
 */
import { printable } from "../output/printable.ts";

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/**
 * Secrets shorter than this are not redacted: replacing every "ab" in the output would destroy it
 * while protecting nothing (such a value is not a credential anyone could rely on).
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Shortest base64 text hidden as part of a secret's encoding: a secret of 6 bytes or more. Shorter pieces of
 * base64 would match ordinary words.
 */
const MIN_BASE64_PIECE = 8;

/**
 * A growing set of secret values and the function that hides them.
 *
 * ```ts
 * import { Redactor } from "./redact.ts";
 *
 * const secrets = new Redactor();
 * secrets.add("s3cr3t/value");
 * secrets.redact("client_secret=s3cr3t%2Fvalue"); // "client_secret=[redacted]"
 * secrets.redact(`Basic ${btoa("id:s3cr3t/value")}`); // "Basic aWQ6[redacted]"
 * ```
 */
export class Redactor {
  #secrets = new Set<string>();
  /** The secrets longest first, as {@link redact} replaces them; made again after an {@link add}. */
  #ordered?: string[];

  /**
   * Registers a secret (and its trimmed form, as files and commands often end it with a newline), in every
   * form fctl may send it in (see {@link secretForms}); not one of whitespace alone, nor shorter than
   * {@link MIN_SECRET_LENGTH}.
   */
  add(secret: string | undefined): void {
    // Whitespace alone hides nothing: registered, it would cut every indentation and blank line out of the output.
    if (!secret?.trim()) return;
    for (const value of [secret, secret.trim()]) {
      if (value.length >= MIN_SECRET_LENGTH) {
        for (const form of secretForms(value)) this.#secrets.add(form);
        this.#ordered = undefined;
      }
    }
  }

  /** Whether any secret is registered. */
  get empty(): boolean {
    return this.#secrets.size === 0;
  }

  /** `text` with every registered secret replaced by {@link REDACTED}, longest first. */
  redact(text: string): string {
    if (this.#secrets.size === 0) return text;
    this.#ordered ??= [...this.#secrets].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.#ordered) {
      if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    }
    return out;
  }
}

/**
 * The forms a secret takes in what fctl writes and sends: as is; JSON-escaped (JSON output escapes quotes and
 * backslashes); as {@link printable} shows it; percent-encoded as `encodeURIComponent` does, as an
 * `application/x-www-form-urlencoded` body does (`+` for a space), and as OAuth's HTTP Basic credential does
 * (RFC 6749 §2.3.1); and each of those in base64 and base64url, whole and as the part of a longer encoding
 * that only the secret's bytes make up (whatever precedes it, as `id:` does in `base64(id:secret)`).
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), printable(secret)]);
  for (const encode of [encodeURIComponent, formUrlEncode, oauthFormEncode]) {
    try {
      forms.add(encode(secret));
    } catch {
      // A lone surrogate cannot be percent-encoded: fctl sends no such form.
    }
  }
  for (const form of [...forms]) {
    for (const piece of base64Pieces(form)) {
      if (piece.length >= MIN_BASE64_PIECE) forms.add(piece);
    }
  }
  return [...forms];
}

/**
 * The HTTP Basic credentials of a client: `base64(id:secret)` with both parts form-encoded, as oauth4webapi
 * sends them (RFC 6749 §2.3.1), and without encoding, as other clients do; to register beside the secret, so
 * that an echoed `Authorization` header is hidden whole, the client id with it.
 *
 * ```ts
 * import { basicCredentials, Redactor } from "./redact.ts";
 *
 * const secrets = new Redactor();
 * for (const credential of basicCredentials("flytepropeller", "a b")) secrets.add(credential);
 * secrets.redact(`Basic ${btoa("flytepropeller:a+b")}`); // "Basic [redacted]"
 * ```
 */
export function basicCredentials(clientId: string, secret: string): string[] {
  const credentials: string[] = [];
  for (const encode of [oauthFormEncode, (text: string) => text]) {
    try {
      credentials.push(base64(new TextEncoder().encode(`${encode(clientId)}:${encode(secret)}`)));
    } catch {
      // Not encodable (a lone surrogate): never sent.
    }
  }
  return credentials;
}

/** `application/x-www-form-urlencoded` as `URLSearchParams` writes a form body. */
function formUrlEncode(text: string): string {
  return new URLSearchParams([["", text]]).toString().slice(1);
}

/** Form encoding as OAuth's HTTP Basic credential applies it (oauth4webapi: `-_.!~*'()` escaped too, `+` for space). */
function oauthFormEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[-_.!~*'()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64Url(text: string): string {
  return text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * `text`'s UTF-8 bytes in base64 and base64url: whole (with and without padding), and for each of the three
 * places the bytes can start at within a 3-byte group, the characters of the encoding made of the secret's
 * bits alone, which appear in the encoding of any longer text holding it there.
 */
function base64Pieces(text: string): string[] {
  const bytes = new TextEncoder().encode(text);
  const whole = base64(bytes);
  const pieces = [whole, whole.replace(/=+$/, "")];
  for (let lead = 0; lead < 3; lead++) {
    const padded = new Uint8Array(lead + bytes.length);
    padded.set(bytes, lead);
    // Character c of the encoding carries bits [6c, 6c + 6); the secret's are [8 lead, 8 (lead + n)).
    const first = Math.ceil((8 * lead) / 6);
    const end = Math.floor((8 * (lead + bytes.length)) / 6);
    pieces.push(base64(padded).slice(first, end));
  }
  return [...pieces, ...pieces.map(base64Url)];
}

/**
 * `scheme://user:password@`: the password of a URL's user information, up to the host. The scheme's letters are
 * listed in both cases rather than with the `i` flag: the first case-insensitive expression a process compiles costs
 * it a few tenths of a millisecond more, on every command with a URL among its options.
 */
const URL_PASSWORD = /[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s/?#@:]*:([^\s/?#@]+)@/g;

/**
 * The passwords written in URLs inside `text` (`http://user:PASSWORD@host`), as written and
 * percent-decoded, so that a caller can register them as secrets.
 */
export function urlPasswords(text: string): string[] {
  // Every string option of every run is asked; few hold a URL at all.
  if (!text.includes("://")) return [];
  const found: string[] = [];
  for (const [, password] of text.matchAll(URL_PASSWORD)) {
    found.push(password);
    try {
      found.push(decodeURIComponent(password));
    } catch {
      // Not valid percent-encoding: the password as written is all there is to hide.
    }
  }
  return found;
}

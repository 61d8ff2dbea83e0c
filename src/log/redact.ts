/**
 * Redaction of secret values (storage secret keys, client secrets, tokens) from every text fctl
 * writes: log records, error messages, stack traces and command output.
 *
 * @module
 */

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/**
 * Secrets shorter than this are not redacted: replacing every "ab" in the output would destroy it
 * while protecting nothing (such a value is not a credential anyone could rely on).
 */
export const MIN_SECRET_LENGTH = 4;

/** A growing set of secret values and the function that hides them. */
export class Redactor {
  #secrets = new Set<string>();

  /** Registers a secret (and its trimmed form, as files and commands often end it with a newline). */
  add(secret: string | undefined): void {
    for (const value of [secret, secret?.trim()]) {
      if (value && value.length >= MIN_SECRET_LENGTH) {
        this.#secrets.add(value);
        // JSON output escapes quotes and backslashes; hide the escaped form too.
        this.#secrets.add(JSON.stringify(value).slice(1, -1));
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
    let out = text;
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      out = out.replaceAll(secret, REDACTED);
    }
    return out;
  }
}

/** `scheme://user:password@`: the password of a URL's user information, up to the host. */
const URL_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:([^\s/?#@]+)@/gi;

/**
 * The passwords written in URLs inside `text` (`http://user:PASSWORD@host`), as written and
 * percent-decoded, so that a caller can register them as secrets.
 */
export function urlPasswords(text: string): string[] {
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

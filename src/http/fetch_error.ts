/**
 * What a failed `fetch` says, in one line: Deno's `TypeError: fetch failed` (or "error sending request")
 * hides the reason in its `cause` chain (DNS, refused connection, TLS certificate errors).
 *
 * @module
 */

/** Most causes followed, against a cycle. */
const MAX_CAUSES = 8;

/**
 * The certificate failure that trusting the server's CA mends (rustls's name for it); an expired certificate
 * or one for another host is not mended that way, so gets no hint.
 */
const UNKNOWN_ISSUER = /\bUnknownIssuer\b/;

/** What follows an unknown issuer: every HTTPS call fctl makes trusts the CA file's certificates too. */
export const TRUST_CA_HINT = "trust the server's CA with admin.caCertFilePath";

/** Parts of Deno's messages that say nothing: the URL is named by the caller, without its query. */
const NOISE = [/^fetch failed$/i, /^error sending request for url \(\S+\)$/i, /^client error \(\w+\)$/i];

/**
 * The failure's causes from outermost to innermost, without repetitions, Deno's wrapping or any URL's
 * query, joined with ": ", e.g. `dns error: failed to lookup address information: Name or service not known`, or
 * `invalid peer certificate: UnknownIssuer (trust the server's CA with admin.caCertFilePath)`.
 */
export function describeFetchFailure(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < MAX_CAUSES; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    // A serialized URL holds no whitespace, so `\S+` spans it (its closing parenthesis is the run's last).
    // Deno's wrapping, in both of its shapes: `error sending request for url (URL): ` and
    // `error sending request from LOCAL for URL (PEER): `.
    const unwrapped = message.replace(
      /error sending request (?:from \S+ )?for (?:url )?\(?\S+\)?(?: \([^)\s]+\))?:?\s*/gi,
      "",
    )
      .replace(/([a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#]\S*/gi, "$1");
    for (const part of unwrapped.split(/:\s+/)) {
      const text = part.trim();
      if (text && !parts.includes(text) && !NOISE.some((noise) => noise.test(text))) parts.push(text);
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  const description = parts.join(": ") || (err instanceof Error ? err.message : String(err));
  return UNKNOWN_ISSUER.test(description) ? `${description} (${TRUST_CA_HINT})` : description;
}

/**
 * The credentials a request carries that fctl did not learn as secrets of the run, hidden from what a server answers
 * to it: a signed URL's query (an S3 `X-Amz-Signature` and `X-Amz-Credential`, a GCS `X-Goog-Signature`, an Azure
 * SAS `sig`, a data proxy's token) and a request's signature. An object store's error document may echo the request's
 * URL or signature back (S3's `SignatureDoesNotMatch` names the signature it was given).
 *
 * @module
 */
import { Redactor } from "../log/redact.ts";

/**
 * Shortest query value hidden: dates, expiry seconds and algorithm names are shorter than any signature or token,
 * and hiding them would only garble the message.
 */
const MIN_HIDDEN_LENGTH = 16;

/**
 * A redactor of `url`'s query values that may be credentials (16 characters or more, in every form a server may
 * echo them: as sent, decoded, and each `/`-separated part of one, such as the access key id in `X-Amz-Credential`).
 *
 * ```ts
 * import { signedUrlRedactor } from "./url_secrets.ts";
 *
 * const url = new URL("https://bucket.example.com/k?X-Amz-Signature=0123456789abcdef0123456789abcdef");
 * signedUrlRedactor(url).redact("<SignatureProvided>0123456789abcdef0123456789abcdef</SignatureProvided>");
 * // "<SignatureProvided>[redacted]</SignatureProvided>"
 * ```
 */
export function signedUrlRedactor(url: URL): Redactor {
  const redactor = new Redactor();
  const raw = url.search.slice(1).split("&").map((pair) => pair.slice(pair.indexOf("=") + 1));
  const decoded = [...url.searchParams.values()];
  for (const value of [...raw, ...decoded]) {
    if (value.length < MIN_HIDDEN_LENGTH) continue;
    redactor.add(value);
    for (const part of value.split(/\/|%2F/i)) {
      if (part.length >= MIN_HIDDEN_LENGTH) redactor.add(part);
    }
  }
  return redactor;
}

/**
 * A request signature as a server may echo it: SigV4's `Signature=` (in an `Authorization` header) and the query
 * signatures of S3, GCS and Azure (`X-Amz-Signature=`, `X-Goog-Signature=`, a SAS `sig=`), or S3's
 * `<SignatureProvided>` element.
 */
const SIGNATURE = /\b((?:X-Amz-|X-Goog-)?Signature=|sig=)[^\s&,;"'<>]+|(<SignatureProvided>)[^<]*/gi;

/**
 * `text` with every request signature it holds (see {@link SIGNATURE}) replaced by `[redacted]`: an object store's
 * error may quote the request it refused, and the SDK's message carries it on.
 *
 * ```ts
 * import { hideSignatures } from "./url_secrets.ts";
 *
 * hideSignatures("bad AWS4-HMAC-SHA256 Credential=AK/20260101/us-east-1/s3/aws4_request, Signature=0a1b2c");
 * // "bad AWS4-HMAC-SHA256 Credential=AK/20260101/us-east-1/s3/aws4_request, Signature=[redacted]"
 * ```
 */
export function hideSignatures(text: string): string {
  return text.replace(
    SIGNATURE,
    (_, name: string | undefined, element: string | undefined) => `${name ?? element}[redacted]`,
  );
}

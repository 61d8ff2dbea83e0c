/**
 * Bounds on what is read of an answer, so that no server can fill fctl's memory: an answer read whole (a token, the
 * authorization server's metadata, a GitHub API answer) is read up to its call's `maxBodyBytes`, past which the call
 * fails naming the limit; an error answer's body, read only for its message, is read up to
 * {@link ERROR_BODY_MAX_BYTES} and the rest dropped. Downloads (archives, objects) are streamed and have no bound but
 * their time limits.
 *
 * @module
 */
import { OperationError } from "../errors.ts";
import { formatLimit } from "../fs/read_bounded.ts";
import { redactUrl } from "../log/shown_url.ts";

/** The most read of an error answer's body (the rest is dropped): only its first words are ever shown. */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;

/** The most read of an OAuth answer (token, device code, authorization server metadata); real ones are a few KiB. */
export const OAUTH_ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * A call's `init` with the HTTP client's own per-call option; `fetch` ignores it.
 *
 * ```ts
 * import { connect, type HttpRequestInit } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const http = await flyte.http();
 * const init: HttpRequestInit = { headers: { accept: "application/json" }, maxBodyBytes: 1024 * 1024 };
 * const metadata = await (await http.fetch("https://auth.example.com/.well-known/openid-configuration", init)).json();
 * console.log(metadata.issuer);
 * ```
 */
export interface HttpRequestInit extends RequestInit {
  /**
   * The answer is read whole (as `json()` or `text()`): a body over this many bytes fails the call with an
   * {@link HttpBodyTooLargeError}, and all of it is due within `http.headersTimeout`. None by default (a download).
   */
  maxBodyBytes?: number;
}

/**
 * An answer was larger than its call's `maxBodyBytes`; the message names the call (its URL without the query) and
 * the limit.
 *
 * ```ts
 * import { connect, HttpBodyTooLargeError } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const http = await flyte.http();
 * try {
 *   await (await http.fetch("https://example.com/huge.json", { maxBodyBytes: 1024 })).text();
 * } catch (err) {
 *   if (err instanceof HttpBodyTooLargeError) console.error(err.message); // "GET https://… answered more than 1 KiB, …"
 * }
 * ```
 */
export class HttpBodyTooLargeError extends OperationError {}

/** `fetch` with `init.maxBodyBytes` applied to every call: the answer's reads fail past it. */
export function withMaxBodyBytes(inner: typeof fetch, maxBodyBytes: number): typeof fetch {
  return (input, init) => inner(input, { ...init, maxBodyBytes } as HttpRequestInit);
}

/**
 * `fetch` whose answers are bounded: an error answer's body is cut at {@link ERROR_BODY_MAX_BYTES}; a call with
 * `maxBodyBytes` resolves once its whole answer is in (at most that many bytes, else it fails naming them), so that
 * whatever reads it (an OAuth library) meets a failure to get it as the call's own, not as a body it cannot parse.
 */
export function boundedBodies(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.body === null) return response;
    if (!response.ok) return withBody(response, upTo(response.body, ERROR_BODY_MAX_BYTES));
    const max = (init as HttpRequestInit | undefined)?.maxBodyBytes;
    if (max === undefined) return response;
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const tooLarge = () =>
      new HttpBodyTooLargeError(
        `${method} ${redactUrl(request?.url ?? String(input))} answered more than ${
          formatLimit(max)
        }, the most fctl reads of this answer`,
      );
    // A length announced over the limit fails before a byte is read.
    if (Number(response.headers.get("content-length") ?? 0) > max) {
      await response.body.cancel().catch(() => {});
      throw tooLarge();
    }
    return withBody(response, await whole(response.body, max, tooLarge));
  };
}

/** `response` with another body (same status and headers). */
function withBody(response: Response, body: BodyInit): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** `source` up to `max` bytes, then its end: the rest is never read (the source is cancelled). */
function upTo(source: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let left = max;
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      const chunk = await reader.read();
      if (chunk.done) {
        out.close();
        return;
      }
      if (chunk.value.length <= left) {
        left -= chunk.value.length;
        out.enqueue(chunk.value);
        return;
      }
      if (left > 0) out.enqueue(chunk.value.subarray(0, left));
      left = 0;
      out.close();
      await reader.cancel().catch(() => {});
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** All of `source`, or `tooLarge()` as soon as it has more than `max` bytes (the source is then cancelled). */
async function whole(
  source: ReadableStream<Uint8Array>,
  max: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = source.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/**
 * Time limits of every plain HTTP call, so that no server can hang a command: one for the response headers
 * (connecting, TLS, the server's think time), one for a stall between chunks of the response body (large
 * archives take long, but never stop for long), and an optional one for the whole call
 * (`storage.defaultHttpClient.timeout`, as flytectl's key bounds its storage client's calls).
 *
 * @module
 */
import { OperationError } from "../errors.ts";
import { formatDuration } from "../config/duration.ts";
import { redactUrl } from "./fetch_error.ts";

/**
 * Time limits in milliseconds; 0 for none.
 *
 * ```ts
 * import type { HttpClientOptions, HttpTimeouts } from "@fctl/fctl";
 *
 * // A stalled server fails the call within a minute; a slow but steady download may take as long as it needs.
 * const timeouts: HttpTimeouts = { headersMs: 60_000, idleMs: 60_000, totalMs: 0 };
 * const options: HttpClientOptions = { timeouts };
 * console.log(options);
 * ```
 */
export interface HttpTimeouts {
  /** From the request to the response headers (`http.headersTimeout`); not applied to requests with a body. */
  headersMs?: number;
  /** Longest wait for the next chunk of a response body (`http.idleTimeout`). */
  idleMs?: number;
  /** The whole call, body included (`storage.defaultHttpClient.timeout`). */
  totalMs?: number;
}

/**
 * An HTTP call ran out of one of its {@link HttpTimeouts}; the message names the URL (without its query) and which.
 *
 * ```ts
 * import { connect, HttpTimeoutError } from "@fctl/fctl";
 *
 * await using flyte = await connect({ flags: { "http.headersTimeout": "5s" } });
 * const http = await flyte.http();
 * try {
 *   await http.fetch("https://flyte.example.com/healthcheck");
 * } catch (err) {
 *   if (err instanceof HttpTimeoutError) console.error(err.message); // "GET https://… timed out: …"
 * }
 * ```
 */
export class HttpTimeoutError extends OperationError {}

/** `fetch` with `timeouts` applied to the call and to the body of its response. */
export function fetchWithTimeouts(inner: typeof fetch, timeouts: HttpTimeouts): typeof fetch {
  const headersMs = timeouts.headersMs ?? 0;
  const idleMs = timeouts.idleMs ?? 0;
  const totalMs = timeouts.totalMs ?? 0;
  if (headersMs <= 0 && idleMs <= 0 && totalMs <= 0) return inner;
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = redactUrl(request?.url ?? String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const controller = new AbortController();
    const outer = init?.signal ?? request?.signal;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener("abort", onAbort, { once: true });
    const expire = (what: string) => controller.abort(new HttpTimeoutError(`${method} ${url} timed out: ${what}`));
    let stage: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number, what: string) => {
      clearTimeout(stage);
      stage = ms > 0 ? setTimeout(() => expire(what), ms) : undefined;
    };
    const total = totalMs > 0
      ? setTimeout(
        () => expire(`not finished within ${formatDuration(totalMs)} (storage.defaultHttpClient.timeout)`),
        totalMs,
      )
      : undefined;
    const done = () => {
      clearTimeout(stage);
      clearTimeout(total);
      outer?.removeEventListener("abort", onAbort);
    };
    const timedOut = () => controller.signal.reason instanceof HttpTimeoutError ? controller.signal.reason : undefined;
    // An upload's headers come after its body, which may take long to send: only the whole call's limit applies.
    const hasBody = init?.body !== undefined && init.body !== null;
    if (!hasBody) arm(headersMs, `no response headers within ${formatDuration(headersMs)} (http.headersTimeout)`);
    let response: Response;
    try {
      response = await inner(input, { ...init, signal: controller.signal });
    } catch (err) {
      done();
      throw timedOut() ?? err;
    }
    clearTimeout(stage);
    if (response.body === null) {
      done();
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        arm(idleMs, `no data for ${formatDuration(idleMs)} in the middle of the response body (http.idleTimeout)`);
        try {
          const chunk = await reader.read();
          clearTimeout(stage);
          if (chunk.done) {
            done();
            out.close();
          } else {
            out.enqueue(chunk.value);
          }
        } catch (err) {
          done();
          out.error(timedOut() ?? err);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

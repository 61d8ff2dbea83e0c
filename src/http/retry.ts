/**
 * Retries of plain HTTP calls that failed in passing, as the admin's calls are retried: an object store answering
 * 503 Slow Down to an upload, a CDN's 502 for a release archive, a connection closed before its answer. Only calls
 * that can be repeated without changing anything twice (GET, HEAD, PUT, DELETE, OPTIONS, or a call marked
 * {@link REPEATABLE}) and whose body can be sent again (none, bytes, a `Blob`: the uploads' file bodies are `Blob`s that
 * reopen the file) are retried. A POST is not, unless marked: a client-credentials token request is (it only issues
 * another token), a refresh or an authorization code exchange never is (each spends what it sends). A call that ran out
 * of its time limit is not retried either: it already took that long.
 *
 * @module
 */
import { backoffDelay, type BackoffOptions, DEFAULT_INITIAL_BACKOFF_MS, sleep } from "../backoff.ts";
import { describeFetchFailure } from "./fetch_error.ts";
import { redactUrl } from "../log/shown_url.ts";

/**
 * How HTTP calls are retried. `maxBackoffMs` also bounds a server's `Retry-After`: an answer asking for a longer
 * wait is the caller's at once.
 *
 * ```ts
 * import type { HttpClientOptions, HttpRetryOptions } from "@fctl/fctl";
 *
 * const retry: HttpRetryOptions = {
 *   maxAttempts: 4,
 *   maxBackoffMs: 8_000,
 *   onRetry: (info) => console.warn(`${info.method} ${info.url}: ${info.reason}, retrying in ${info.delayMs} ms`),
 * };
 * const options: HttpClientOptions = { retry };
 * console.log(options);
 * ```
 */
export interface HttpRetryOptions extends BackoffOptions {
  /** Told about every failed attempt that will be retried (for logs). */
  onRetry?: (info: HttpRetryInfo) => void;
}

/**
 * An HTTP retry about to happen.
 *
 * ```ts
 * import type { HttpClientOptions, HttpRetryInfo } from "@fctl/fctl";
 *
 * const retries: HttpRetryInfo[] = [];
 * const options: HttpClientOptions = {
 *   retry: { maxAttempts: 3, maxBackoffMs: 1_000, onRetry: (info: HttpRetryInfo) => retries.push(info) },
 * };
 * console.log(options, retries.map((info) => `attempt ${info.attempt}/${info.maxAttempts}: ${info.reason}`));
 * ```
 */
export interface HttpRetryInfo {
  /** The request's method, e.g. `PUT`. */
  method: string;
  /** The URL without its query (a signed URL's signature is one). */
  url: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Attempts allowed in total. */
  maxAttempts: number;
  /** Why it failed: `HTTP 503`, or the connection's failure (`connection closed before message completed`). */
  reason: string;
  /** The wait before the next attempt: the server's `Retry-After`, else an exponential backoff with jitter. */
  delayMs: number;
}

/** Answers that say "not now" rather than "no": timeouts, throttling and a server or gateway failing in passing. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

const REPEATABLE_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/**
 * Marks a call whose repetition changes nothing, whatever its method, as retryable: `fetch(url, { ...init,
 * [REPEATABLE]: true })`. `fetch` itself ignores the key.
 *
 * ```ts
 * import { REPEATABLE } from "@fctl/fctl";
 *
 * const init = { method: "POST", body: new URLSearchParams({ grant_type: "client_credentials" }), [REPEATABLE]: true };
 * console.log(init[REPEATABLE]);
 * ```
 */
export const REPEATABLE: unique symbol = Symbol("fctl.http.repeatable");

/** Connection failures that a new connection may not meet; a refused certificate or an unknown host would. */
const PASSING_FAILURE = /\bconnection (?:refused|reset|closed|aborted)\b|\bbroken pipe\b/i;

/** Whether `body` can be sent again: it is not a stream, which a first attempt consumes. */
function resendable(body: BodyInit | null | undefined): boolean {
  return body === undefined || body === null || typeof body === "string" || body instanceof Blob ||
    body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof URLSearchParams ||
    body instanceof FormData;
}

/** The wait a `Retry-After` header asks for (seconds, or an HTTP date), in ms; undefined if absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * `fetch` that repeats a repeatable call after a retryable answer ({@link RETRYABLE_STATUSES}) or a connection that
 * failed in passing, at most `maxAttempts` times in all. The last attempt's answer or error is the caller's, as
 * without retries. `signal` (the run's) and the call's own signal end a wait between attempts.
 */
export function retryingFetch(inner: typeof fetch, options: HttpRetryOptions, signal?: AbortSignal): typeof fetch {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts));
  if (maxAttempts === 1) return inner;
  const random = options.random ?? Math.random;
  const backoff = { initialMs: options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS, maxMs: options.maxBackoffMs };
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const marked = (init as { [REPEATABLE]?: boolean } | undefined)?.[REPEATABLE] === true;
    // A Request's own body is a stream, read by the first attempt.
    const repeatable = (REPEATABLE_METHODS.has(method) || marked) &&
      (request ? request.body === null : resendable(init?.body));
    if (!repeatable) return inner(input, init);
    const callSignal = init?.signal ?? request?.signal ?? undefined;
    const waitSignal = callSignal && signal ? AbortSignal.any([callSignal, signal]) : callSignal ?? signal;
    const url = redactUrl(request?.url ?? String(input));
    for (let attempt = 1;; attempt++) {
      let reason: string;
      let askedMs: number | undefined;
      try {
        const response = await inner(input, init);
        if (attempt === maxAttempts || !RETRYABLE_STATUSES.has(response.status)) return response;
        askedMs = retryAfterMs(response.headers.get("retry-after"));
        // A server that asks for a longer wait than we would make gets its answer to the caller now.
        if (askedMs !== undefined && askedMs > options.maxBackoffMs) return response;
        await response.body?.cancel().catch(() => {});
        reason = `HTTP ${response.status}`;
      } catch (err) {
        if (attempt === maxAttempts || waitSignal?.aborted) throw err;
        reason = describeFetchFailure(err);
        if (!PASSING_FAILURE.test(reason)) throw err;
      }
      const delayMs = askedMs ?? backoffDelay(attempt, backoff, random);
      options.onRetry?.({ method, url, attempt, maxAttempts, reason, delayMs });
      await sleep(delayMs, waitSignal);
    }
  };
}

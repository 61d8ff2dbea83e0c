/**
 * The one HTTP client of a command: every plain HTTP call (archive downloads, the GitHub API, signed
 * upload URLs, and OAuth) goes through it, so the CA file and the proxy settings apply to all of them.
 *
 * - Proxy: `proxy` (`admin.httpProxyURL`) for every call when set; else, per URL, `HTTPS_PROXY` /
 *   `HTTP_PROXY` from the given environment unless `NO_PROXY` excludes the host (as curl reads them).
 *   The environment is the command's, never read from the process here.
 * - TLS: the system roots plus `caCertificates`. `insecureSkipVerify` cannot be honoured: Deno's `fetch`
 *   verifies certificates unless the whole process runs with `--unsafely-ignore-certificate-errors`
 *   (`Deno.createHttpClient` has no per-client switch), so the first `https://` call warns, once, that
 *   certificates are still verified, rather than ignoring the setting silently.
 * - Limits: the time limits of every call (`timeouts.ts`), and what is read of an answer (`bounded_body.ts`): an
 *   answer read whole up to its call's `maxBodyBytes`, an error answer's body up to 64 KiB.
 * - Ending: the run's signal, a time limit or the caller's signal ends a call at once, a read of its body included.
 * - Redirects: followed as `fetch` follows them, but never from `https://` to plain `http://` (`redirects.ts`).
 *
 * @module
 */
import type { StoreSource } from "../storage/store.ts";
import { boundedBodies, type HttpRequestInit } from "./bounded_body.ts";
import { type HttpCallLog, loggedFetch } from "./call_log.ts";
import { TRUST_CA_HINT } from "./fetch_error.ts";
import { type PutInit, putWithContentLength } from "./put.ts";
import { prefetching } from "./prefetch.ts";
import { httpProxyFor } from "./proxy_env.ts";
import { followingRedirects } from "./redirects.ts";
import { type HttpRetryOptions, retryingFetch } from "./retry.ts";
import { fetchWithTimeouts, type HttpTimeouts } from "./timeouts.ts";

/**
 * How the HTTP client is built.
 *
 * ```ts
 * import type { HttpClientOptions } from "@fctl/fctl";
 *
 * const options: HttpClientOptions = {
 *   proxy: "http://proxy.internal:3128",
 *   caCertificates: await Deno.readTextFile("ca.pem"),
 *   warn: (message) => console.warn(message),
 * };
 * console.log(options.proxy);
 * ```
 */
export interface HttpClientOptions {
  /** `admin.httpProxyURL`: every call goes through this proxy. */
  proxy?: string;
  /** Where `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` are read when no {@link proxy} is given. */
  env?: Readonly<Record<string, string | undefined>>;
  /** PEM CA certificates trusted in addition to the system roots. */
  caCertificates?: string;
  /** `admin.insecureSkipVerify`: not supported for HTTP calls; the first `https://` call warns through {@link warn}. */
  insecureSkipVerify?: boolean;
  /** Where the client's one warning goes (the command's logger). */
  warn?: (message: string) => void;
  /**
   * Where a debug record of every call goes (method, URL without its query, status, time to the answer); none
   * when unset, and the calls then take no extra step.
   */
  debug?: HttpCallLog;
  /** Time limits of every call (headers, a stalled body, the whole call); none by default. */
  timeouts?: HttpTimeouts;
  /**
   * Retries of calls that failed in passing (see `retryingFetch`), each attempt with its own time limits; none by
   * default.
   */
  retry?: HttpRetryOptions;
  /**
   * The run's abort signal (Ctrl-C): every call is cancelled with it, those made by libraries that take no signal
   * (token requests) included.
   */
  signal?: AbortSignal;
}

/** The warning of a client asked to skip certificate verification, which Deno's fetch cannot do per client. */
export const SKIP_VERIFY_UNSUPPORTED =
  "admin.insecureSkipVerify does not apply to HTTPS downloads, uploads, the GitHub API or token requests: " +
  `their certificates are still verified (Deno's fetch cannot skip verification per client); ${TRUST_CA_HINT}`;

/**
 * Plain HTTP calls with the configured proxy and CA.
 *
 * ```ts
 * import { connect, type HttpClient } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const http: HttpClient = await flyte.http(); // the configured proxy and CA
 * const response = await http.fetch("https://flyte.example.com/healthcheck");
 * console.log(response.status);
 * await http.put("https://bucket.example.com/upload?signature=…", { bytes: new TextEncoder().encode("hello") });
 * ```
 */
export interface HttpClient {
  /**
   * `fetch`, through the proxy that applies to the URL, trusting the configured CA; `init.maxBodyBytes` bounds an
   * answer read whole (see {@link HttpRequestInit}).
   */
  fetch: (input: RequestInfo | URL, init?: HttpRequestInit) => Promise<Response>;
  /**
   * PUTs bytes (or a local file, streamed) to a signed URL with a fixed `Content-Length`, which signed
   * URLs require (they refuse chunked bodies); resolves on any 2xx answer.
   *
   * @throws {OperationError} a non-2xx answer or a network failure, naming the URL without its query and
   *   the failure's cause
   */
  put(url: string, body: StoreSource, init?: PutInit): Promise<void>;
  /**
   * Says that a GET of `url` will follow: the client may start it now, and the next {@link fetch} of `url` takes it
   * over, its time limits counting from then (see `prefetching`). Until then `init.signal` cancels it. A client may
   * also do nothing.
   */
  prefetch(url: string, init?: RequestInit): void;
  /** Releases pooled connections (and cancels downloads started ahead and not taken). */
  close(): void;
}

export type { PutInit } from "./put.ts";
export { HttpBodyTooLargeError, type HttpRequestInit } from "./bounded_body.ts";
export { describeFetchFailure } from "./fetch_error.ts";
export { HttpTimeoutError, type HttpTimeouts } from "./timeouts.ts";

/** Creates the HTTP client; connections are pooled per proxy until {@link HttpClient.close}. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const clients = new Map<string, Deno.HttpClient>();
  const clientFor = (url: string): Deno.HttpClient => {
    const proxy = options.proxy || httpProxyFor(url, options.env ?? {}) || "";
    let client = clients.get(proxy);
    if (!client) {
      client = Deno.createHttpClient({
        proxy: proxy ? { url: proxy } : undefined,
        caCerts: options.caCertificates ? [options.caCertificates] : undefined,
      });
      clients.set(proxy, client);
    }
    return client;
  };
  let warnSkipVerify = options.insecureSkipVerify === true;
  const networkFetch: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (warnSkipVerify && url.startsWith("https:")) {
      warnSkipVerify = false;
      options.warn?.(SKIP_VERIFY_UNSUPPORTED);
    }
    return fetch(input, { ...init, client: clientFor(url) });
  };
  // Below the prefetch: a call started ahead is logged when its answer comes, taken over or not. Redirects are
  // followed below the log (one record per call, naming where it ended), each hop through its own URL's proxy, never
  // from https to plain http.
  const redirecting = followingRedirects(networkFetch);
  const proxiedFetch = options.debug ? loggedFetch(redirecting, options.debug) : redirecting;
  const ahead = prefetching(proxiedFetch);
  const timed = fetchWithTimeouts(ahead.fetch, options.timeouts ?? {});
  const bounded = boundedBodies(timed);
  const retried = options.retry ? retryingFetch(bounded, options.retry, options.signal) : bounded;
  // The run's signal joins each call's own at the top, so that the time limits' layer, which ends the reads of an
  // answer's body, sees it too.
  const withRunSignal = (init: RequestInit | undefined, input?: RequestInfo | URL): RequestInit | undefined => {
    if (!options.signal) return init;
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    return { ...init, signal: own ? AbortSignal.any([own, options.signal]) : options.signal };
  };
  const httpFetch: typeof fetch = (input, init) => retried(input, withRunSignal(init, input));
  return {
    fetch: httpFetch,
    put: (url, body, init) => putWithContentLength(httpFetch, url, body, init),
    prefetch: (url, init) => ahead.start(url, withRunSignal(init)),
    close: () => {
      ahead.close();
      for (const client of clients.values()) client.close();
      clients.clear();
    },
  };
}

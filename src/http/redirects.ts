/**
 * Redirects, followed by fctl rather than by `fetch`, so that none takes a call where it must not go: `fetch` follows a
 * redirect from `https://` to plain `http://` (an archive, a release asset or an upload would then travel in the clear,
 * and a hostile server could point fctl at a service on this machine, which the release asset check refuses for the
 * first URL only). Each hop goes through the proxy that applies to its own URL; the rest is what `fetch` does: at most
 * {@link MAX_REDIRECTS} hops, `Authorization`, `Cookie` and `Proxy-Authorization` dropped on a hop to another origin,
 * a 303 (and a 301 or 302 of a POST) made a GET without its body, and a 307 or 308 sent again with its body when it can
 * be (not a stream, which the first hop read: that answer is the caller's as it came). A `Request` with a body is
 * `fetch`'s to follow (see {@link followedByFetch}).
 *
 * @module
 */
import { OperationError } from "../errors.ts";
import { redactUrl, shownUrl } from "../log/shown_url.ts";

/** The most hops followed, as `fetch` follows. */
export const MAX_REDIRECTS = 20;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that carry a credential for one origin: never sent on to another. */
const ORIGIN_CREDENTIALS = ["authorization", "cookie", "proxy-authorization"];

/** Headers that describe a body: dropped with it. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/**
 * `fetch` that follows redirects itself (see the module doc); a call asking for `redirect: "manual"` or `"error"` is
 * `inner`'s as it is.
 *
 * @throws {OperationError} a redirect from `https://` to another scheme, to a URL that is not `http(s)://`, or past
 *   {@link MAX_REDIRECTS} hops, naming the URLs without their queries
 */
export function followingRedirects(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    if ((init?.redirect ?? request?.redirect ?? "follow") !== "follow") return await inner(input, init);
    let url = new URL(request?.url ?? String(input));
    if (request?.body && init?.body === undefined) return await followedByFetch(inner, request, init, url);
    let method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    let headers = new Headers(init?.headers ?? request?.headers);
    let body: BodyInit | null | undefined = init?.body ?? request?.body;
    let response = await inner(input, { ...init, redirect: "manual" });
    for (let hops = 1; REDIRECT_STATUSES.has(response.status); hops++) {
      const location = response.headers.get("location");
      if (location === null) return response;
      const next = URL.parse(location, url);
      const refuse = (why: string) => {
        response.body?.cancel().catch(() => {});
        const where = next ? shownUrl(next.href) : "a location that is no URL";
        return new OperationError(`${method} ${redactUrl(url)} was redirected to ${where}: ${why}`);
      };
      if (next === null || (next.protocol !== "http:" && next.protocol !== "https:")) {
        throw refuse("only http(s) URLs are followed");
      }
      if (url.protocol === "https:" && next.protocol !== "https:") {
        throw refuse("a redirect from https to plain http is not followed");
      }
      if (hops > MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects`);
      const keepsBody = response.status === 307 || response.status === 308;
      // The first hop read a stream; it cannot be sent again.
      if (keepsBody && body instanceof ReadableStream) return response;
      await response.body?.cancel().catch(() => {});
      if (!keepsBody && (response.status === 303 ? method !== "HEAD" : method === "POST")) {
        method = "GET";
        body = undefined;
        for (const name of BODY_HEADERS) headers.delete(name);
      }
      if (next.origin !== url.origin) {
        headers = new Headers(headers);
        for (const name of ORIGIN_CREDENTIALS) headers.delete(name);
      }
      url = next;
      response = await inner(url.href, { ...init, method, headers, body, redirect: "manual" });
      // As `fetch` says of an answer it reached through redirects (the call's debug record names where it ended).
      Object.defineProperties(response, { redirected: { value: true }, url: { value: url.href } });
    }
    return response;
  };
}

/**
 * A `Request` with a body (the S3 SDK's uploads), whose redirects `fetch` follows itself: its body is a stream that
 * the first hop reads, which `fetch` can send again (a `Blob`'s) where this module could not. A redirect from https to
 * plain http is refused once the answer is in (the body may have gone there: fctl makes no such `Request` itself).
 */
async function followedByFetch(
  inner: typeof fetch,
  request: Request,
  init: RequestInit | undefined,
  url: URL,
): Promise<Response> {
  const response = await inner(request, init);
  const to = URL.parse(response.url);
  if (!response.redirected || url.protocol !== "https:" || to === null || to.protocol === "https:") return response;
  await response.body?.cancel().catch(() => {});
  throw new OperationError(
    `${request.method} ${redactUrl(url)} was redirected to ${shownUrl(to.href)}: a redirect from https to plain ` +
      "http is not followed",
  );
}

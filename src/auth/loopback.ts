/**
 * The loopback HTTP server of Pkce (RFC 8252 §7.3): it listens on the redirect URI's port (on `localhost`,
 * else 127.0.0.1 when that name does not resolve), takes the first request to the redirect URI's path as the
 * authorization response, and answers the browser with a plain success or failure page.
 *
 * @module
 */
import { OperationError, quote } from "../errors.ts";

/** A listening loopback server. */
export interface Loopback {
  /** The authorization response's parameters, once accepted; rejects with the reason it was refused. */
  response: Promise<URLSearchParams>;
  close(): Promise<void>;
}

/** The redirect URI when fctl can receive it: plain HTTP on a loopback host. */
export function loopbackRedirect(redirectUri: string): URL {
  const url = URL.canParse(redirectUri) ? new URL(redirectUri) : undefined;
  if (!url || url.protocol !== "http:" || !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    throw new OperationError(
      `the redirect URI ${
        quote(redirectUri)
      } is not an http://localhost URL: admin.authType Pkce cannot receive the sign-in`,
    );
  }
  return url;
}

const PAGE_HEADERS = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

/**
 * Listens for the redirect to `redirect`; `check` accepts the parameters (the ones to use) or says why not
 * (an error, whose message the page shows: it must hold nothing secret).
 */
export function listenLoopback(redirect: URL, check: (params: URLSearchParams) => URLSearchParams | Error): Loopback {
  const outcome = Promise.withResolvers<URLSearchParams>();
  // A refusal is for whoever awaits the response; the server never leaves it unhandled.
  outcome.promise.catch(() => {});
  let answered = false;
  const handler = (request: Request): Response => {
    const url = new URL(request.url);
    if (url.pathname !== redirect.pathname) return new Response("not found\n", { status: 404, headers: PAGE_HEADERS });
    if (answered) return new Response("fctl has already received a sign-in\n", { status: 409, headers: PAGE_HEADERS });
    answered = true;
    const checked = check(url.searchParams);
    if (checked instanceof Error) {
      outcome.reject(checked);
      return new Response(`fctl sign-in failed: ${checked.message}\nYou can close this window.\n`, {
        status: 400,
        headers: PAGE_HEADERS,
      });
    }
    outcome.resolve(checked);
    return new Response("fctl is signed in. You can close this window.\n", { headers: PAGE_HEADERS });
  };
  const port = Number(redirect.port || 80);
  const hostname = redirect.hostname.replace(/^\[(.*)\]$/, "$1");
  const serve = (host: string) => Deno.serve({ hostname: host, port, onListen: () => {} }, handler);
  let server: Deno.HttpServer;
  try {
    try {
      server = serve(hostname);
    } catch (err) {
      // `localhost` may not resolve (a stripped /etc/hosts): the IPv4 loopback address is what it means.
      if (hostname !== "localhost" || (err instanceof Error && err.name === "AddrInUse")) throw err;
      server = serve("127.0.0.1");
    }
  } catch (err) {
    const reason = err instanceof Error && err.name === "AddrInUse"
      ? `port ${port} is in use`
      : err instanceof Error
      ? err.message
      : String(err);
    throw new OperationError(`cannot listen for the sign-in at ${redirect.origin}${redirect.pathname}: ${reason}`, {
      cause: err,
    });
  }
  return { response: outcome.promise, close: () => server.shutdown() };
}

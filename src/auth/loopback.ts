/**
 * The loopback HTTP server of Pkce (RFC 8252 §7.3): it listens on the redirect URI's port (on `localhost`,
 * else 127.0.0.1 when that name does not resolve), takes the first request to the redirect URI's path as the
 * authorization response, and answers the browser once the sign-in has ended: signed in only when fctl holds
 * the tokens, else why not. A browser (asking for HTML) gets an HTML page with the reason escaped, anything
 * else plain text.
 *
 * @module
 */
import { OperationError, quote } from "../errors.ts";

/** A listening loopback server. */
export interface Loopback {
  /** The authorization response's parameters, once accepted; rejects with the reason it was refused. */
  response: Promise<URLSearchParams>;
  /**
   * Tells the waiting browser how the sign-in ended: signed in (no failure) or the failure, whose message the
   * page shows (it must hold nothing secret). The first call counts.
   */
  finish(failure?: Error): void;
  /** Stops listening; a browser still waiting is told the sign-in did not complete. */
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

/**
 * How long the browser's request waits for the end of the sign-in, after which its page says to look at fctl's
 * output: the token request has limits of its own, the browser's tab need not share them.
 */
export const PAGE_WAIT_MS = 60_000;

const SIGNED_IN = "fctl is signed in. You can close this window.";
const STILL_WORKING = "fctl received the sign-in and is still completing it; its output says how it ends. " +
  "You can close this window.";
const NOT_COMPLETED = "fctl stopped before the sign-in completed";

/**
 * Listens for the redirect to `redirect`; `check` accepts the parameters (the ones to use) or says why not
 * (an error, whose message the page shows: it must hold nothing secret). An accepted redirect's page waits
 * for {@link Loopback.finish}, at most `pageWaitMs`.
 */
export function listenLoopback(
  redirect: URL,
  check: (params: URLSearchParams) => URLSearchParams | Error,
  pageWaitMs = PAGE_WAIT_MS,
): Loopback {
  const outcome = Promise.withResolvers<URLSearchParams>();
  // A refusal is for whoever awaits the response; the server never leaves it unhandled.
  outcome.promise.catch(() => {});
  const ended = Promise.withResolvers<Error | undefined>();
  let answered = false;
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname !== redirect.pathname) return plain(404, "not found");
    if (answered) return plain(409, "fctl has already received a sign-in");
    answered = true;
    const checked = check(url.searchParams);
    if (checked instanceof Error) {
      outcome.reject(checked);
      return signInPage(request, 400, failed(checked));
    }
    outcome.resolve(checked);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      ended.promise,
      new Promise<"waiting">((resolve) => timer = setTimeout(() => resolve("waiting"), pageWaitMs)),
    ]);
    clearTimeout(timer);
    if (waited === "waiting") return signInPage(request, 202, STILL_WORKING);
    return waited ? signInPage(request, 500, failed(waited)) : signInPage(request, 200, SIGNED_IN);
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
  return {
    response: outcome.promise,
    finish: (failure) => ended.resolve(failure),
    close: () => {
      ended.resolve(new OperationError(NOT_COMPLETED));
      return server.shutdown();
    },
  };
}

function failed(failure: Error): string {
  return `fctl sign-in failed: ${failure.message}\nYou can close this window.`;
}

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * The page of the sign-in's end: HTML for a browser (the text escaped, nothing loaded, no referrer: the
 * address held the code), else plain text.
 */
function signInPage(request: Request, status: number, text: string): Response {
  if (!(request.headers.get("accept") ?? "").includes("text/html")) return plain(status, text);
  const paragraphs = text.split("\n").map((line) => `<p>${escapeHtml(line)}</p>`).join("\n");
  const html = `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>fctl sign-in</title></head>\n` +
    `<body>\n${paragraphs}\n</body>\n</html>\n`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    },
  });
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` as HTML text: an authorization server's words are never markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

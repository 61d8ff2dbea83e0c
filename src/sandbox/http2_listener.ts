/**
 * The HTTP/2 server under the sandbox's gRPC router: h2c, or TLS when given a certificate, with a close that
 * lets answers in flight reach their clients but never hangs.
 *
 * @module
 */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";

/** Where and how to listen. */
export interface Http2ListenOptions {
  port: number;
  hostname: string;
  /** PEM certificate and key: serve TLS (`h2` by ALPN) instead of h2c. */
  tls?: { cert: string; key: string };
}

/** A listening HTTP/2 server. */
export interface Http2Listener {
  port: number;
  /** Stops accepting, closes every session and resolves once the server is closed. */
  close(): Promise<void>;
}

/** A request listener on Node's HTTP/2 compatibility API, such as Connect's `connectNodeAdapter` returns. */
export type Http2RequestListener = (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => void;

type Http2Server = http2.Http2Server | http2.Http2SecureServer;

/** How long calls in flight get to send their answers before their sessions are destroyed. */
const CLOSE_GRACE_MS = 500;

/** Starts an HTTP/2 server that hands every request to `onRequest`. */
export async function listenHttp2(
  onRequest: Http2RequestListener,
  options: Http2ListenOptions,
): Promise<Http2Listener> {
  const server = options.tls
    ? http2.createSecureServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
    : http2.createServer(onRequest);
  const sessions = trackSessions(server);
  const port = await listen(server, options.port, options.hostname);
  return { port, close: () => closeGracefully(server, sessions) };
}

function trackSessions(server: Http2Server): Set<http2.ServerHttp2Session> {
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  return sessions;
}

function listen(server: Http2Server, port: number, hostname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Stops accepting and closes sessions with GOAWAY, so calls being answered reach their clients (destroying
 * them at once leaves Deno's HTTP/2 client waiting forever); sessions still open after a short grace period
 * are destroyed.
 */
function closeGracefully(server: Http2Server, sessions: Set<http2.ServerHttp2Session>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      for (const session of sessions) session.destroy();
    }, CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    for (const session of sessions) session.close();
  });
}

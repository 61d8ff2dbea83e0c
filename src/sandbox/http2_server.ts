/**
 * The HTTP/2 listener under the gRPC services: h2c, or TLS when given a certificate, with a close that
 * lets answers in flight reach their clients but never hangs.
 *
 * @module
 */
import * as http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { coalesceWrites } from "../admin/write_coalescing.ts";

/** Where and how to listen. */
export interface Http2ListenOptions {
  port: number;
  hostname: string;
  tls?: { cert: string; key: string };
}

/** A listening HTTP/2 server. */
export interface Http2Listener {
  port: number;
  close(): Promise<void>;
}

type Http2Server = http2.Http2Server | http2.Http2SecureServer;
/** A listener for the server's `"stream"` event: one per request stream, on the core HTTP/2 API. */
export type Http2StreamListener = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

/** How long in-flight calls get to send their answers before their sessions are destroyed. */
const CLOSE_GRACE_MS = 500;

/**
 * Starts an HTTP/2 server that hands every stream to `onStream`. No `"request"` listener is registered, so
 * Node's compat request/response layer is never set up.
 */
export async function startHttp2Server(
  onStream: Http2StreamListener,
  options: Http2ListenOptions,
): Promise<Http2Listener> {
  const server = options.tls
    ? http2.createSecureServer({ cert: options.tls.cert, key: options.tls.key })
    : http2.createServer();
  server.on("stream", onStream);
  // As fctl does with its own connection: one write per turn of the event loop, as Node's HTTP/2 does.
  server.on(options.tls ? "secureConnection" : "connection", (socket: Socket) => void coalesceWrites(socket));
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

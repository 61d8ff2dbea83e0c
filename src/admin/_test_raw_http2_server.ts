/**
 * Test helper: a raw HTTP/2 server on loopback that answers every stream with a handler, for answers
 * and misbehaviour a real gRPC server never produces. It records each request's headers and keeps its
 * sessions, for tests to close (GOAWAY) or drop. Shared by the client's tests and the GOAWAY scenario
 * they run in a process of its own.
 *
 * @module
 */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";

/** How the server answers one stream. */
export type StreamHandler = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

/** What a test sees of the server. */
export interface RawServer {
  /** `http://127.0.0.1:port`. */
  endpoint: string;
  /** Every request's headers, in arrival order. */
  seen: http2.IncomingHttpHeaders[];
  /** Every session a client opened, in order. */
  sessions: http2.ServerHttp2Session[];
}

/** Runs `fn` with a server answering every stream with `handler`; closes it afterwards. */
export async function withRawServer(handler: StreamHandler, fn: (server: RawServer) => Promise<void>): Promise<void> {
  const raw = http2.createServer();
  const server: RawServer = { endpoint: "", seen: [], sessions: [] };
  raw.on("session", (session) => server.sessions.push(session));
  raw.on("stream", (stream, headers) => {
    server.seen.push(headers);
    stream.on("error", () => {}); // a client's reset is expected in some tests
    stream.resume();
    handler(stream, headers);
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  server.endpoint = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  try {
    await fn(server);
  } finally {
    for (const session of server.sessions) session.destroy();
    await new Promise((resolve) => raw.close(resolve));
  }
}

/** The gRPC length-prefixed message framing: a flags byte (1 = compressed), a big-endian length, the bytes. */
export function grpcFrame(message: Uint8Array, flags = 0): Uint8Array {
  const frame = new Uint8Array(5 + message.length);
  frame[0] = flags;
  new DataView(frame.buffer).setUint32(1, message.length);
  frame.set(message, 5);
  return frame;
}

const GRPC_HEADERS = { ":status": 200, "content-type": "application/grpc+proto" };

/** A handler that answers with gRPC headers, `body` and then `trailers`. */
export function answer(
  body: Uint8Array,
  trailers: http2.OutgoingHttpHeaders = { "grpc-status": "0" },
  headers: http2.OutgoingHttpHeaders = {},
): StreamHandler {
  return (stream) => {
    stream.respond({ ...GRPC_HEADERS, ...headers }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers(trailers));
    stream.end(body);
  };
}

/** A handler that answers with headers only (a gRPC "trailers-only" answer, or an HTTP error). */
export function headersOnly(headers: http2.OutgoingHttpHeaders): StreamHandler {
  return (stream) => stream.respond({ ...GRPC_HEADERS, ...headers }, { endStream: true });
}

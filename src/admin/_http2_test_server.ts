/**
 * Test helpers for the HTTP/2 connection: a server that answers every request with 200 and keeps its
 * sessions, and a GET through an {@link Http2Connection}. Shared by `http2_connection_test.ts` and the
 * GOAWAY scenario it runs in a process of its own.
 *
 * @module
 */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { Http2Connection } from "./http2_connection.ts";

/** Runs `fn` with a server answering every request with 200; its sessions are for `fn` to close or drop. */
export async function withServer(
  fn: (url: string, sessions: http2.ServerHttp2Session[]) => Promise<void>,
): Promise<void> {
  const server = http2.createServer();
  const sessions: http2.ServerHttp2Session[] = [];
  server.on("session", (session) => sessions.push(session));
  server.on("stream", (stream) => {
    stream.resume();
    stream.respond({ ":status": 200 }, { endStream: true });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessions);
  } finally {
    for (const session of sessions) session.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A GET of `/` on `connection`; resolves with the response status. */
export async function get(connection: Http2Connection): Promise<number> {
  const stream = await connection.request({ ":method": "GET", ":path": "/" });
  return await new Promise((resolve, reject) => {
    stream.on("response", (headers) => resolve(Number(headers[":status"])));
    stream.on("error", reject);
    stream.resume();
    stream.end();
  });
}

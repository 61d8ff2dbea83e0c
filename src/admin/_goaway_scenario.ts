/**
 * The GOAWAY scenario of `http2_connection_test.ts`, run as its own process: a server closes the client's
 * session with GOAWAY, then drops the next one, and each following call must open a new session.
 *
 * Why a process of its own: Deno's node:http2 can abort the whole process inside nghttp2 when a client
 * session that has made calls receives GOAWAY (`find_stream_on_goaway_func: Assertion 'stream->closed_next
 * == NULL' failed`, an open Deno bug). Here that abort ends one attempt instead of the whole test run.
 *
 * Exits 0 when every expectation holds; an assertion error exits non-zero with its message.
 *
 * @module
 */
import { equal } from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Http2Connection } from "./http2_connection.ts";

const server = http2.createServer();
const sessions: http2.ServerHttp2Session[] = [];
server.on("session", (session) => sessions.push(session));
server.on("stream", (stream) => {
  stream.resume();
  stream.respond({ ":status": 200 }, { endStream: true });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const connection = new Http2Connection(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);

async function get(): Promise<number> {
  const stream = await connection.request({ ":method": "GET", ":path": "/" });
  return await new Promise((resolve, reject) => {
    stream.on("response", (headers) => resolve(Number(headers[":status"])));
    stream.on("error", reject);
    stream.resume();
    stream.end();
  });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

try {
  equal(await get(), 200);
  equal(await get(), 200);
  equal(sessions.length, 1, "calls share one session");

  sessions[0].close(); // GOAWAY, as a server restarting or closing idle connections sends
  await tick();
  equal(await get(), 200);
  equal(sessions.length, 2, "after GOAWAY the next call opens a new session");

  sessions[1].destroy();
  await tick();
  equal(await get(), 200);
  equal(sessions.length, 3, "after a dropped session the next call opens a new session");
} finally {
  connection.close();
  for (const session of sessions) session.destroy();
  await new Promise((resolve) => server.close(resolve));
}

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
import { Http2Connection } from "./http2_connection.ts";
import { get, withServer } from "./_http2_test_server.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

await withServer(async (url, sessions) => {
  const connection = new Http2Connection(url);
  try {
    equal(await get(connection), 200);
    equal(await get(connection), 200);
    equal(sessions.length, 1, "calls share one session");

    sessions[0].close(); // GOAWAY, as a server restarting or closing idle connections sends
    await tick();
    equal(await get(connection), 200);
    equal(sessions.length, 2, "after GOAWAY the next call opens a new session");

    sessions[1].destroy();
    await tick();
    equal(await get(connection), 200);
    equal(sessions.length, 3, "after a dropped session the next call opens a new session");
  } finally {
    connection.close();
  }
});

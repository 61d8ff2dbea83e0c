import { equal, ok } from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Http2Connection } from "./http2_connection.ts";

/** An HTTP/2 server answering every request with 200, keeping its sessions for the test to end. */
async function withServer(fn: (url: string, sessions: http2.ServerHttp2Session[]) => Promise<void>) {
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

async function get(connection: Http2Connection): Promise<number> {
  const stream = await connection.request({ ":method": "GET", ":path": "/" });
  return await new Promise((resolve, reject) => {
    stream.on("response", (headers) => resolve(Number(headers[":status"])));
    stream.on("error", reject);
    stream.resume();
    stream.end();
  });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("Http2Connection: calls share one session; after GOAWAY or a dropped session the next opens a new one", async () => {
  await withServer(async (url, sessions) => {
    const connection = new Http2Connection(url);
    try {
      equal(await get(connection), 200);
      equal(await get(connection), 200);
      equal(sessions.length, 1);

      sessions[0].close(); // GOAWAY, as a server restarting or closing idle connections sends
      await tick();
      equal(await get(connection), 200);
      equal(sessions.length, 2);

      sessions[1].destroy();
      await tick();
      equal(await get(connection), 200);
      equal(sessions.length, 3);
    } finally {
      connection.close();
    }
  });
});

Deno.test("Http2Connection: ready() connects ahead; close() ends the sessions, twice is fine, use reopens", async () => {
  await withServer(async (url, sessions) => {
    const connection = new Http2Connection(url);
    const session = await connection.ready();
    equal(sessions.length, 1);
    equal(await get(connection), 200);
    equal(sessions.length, 1, "the call used the session made ahead");
    connection.close();
    connection.close();
    ok(session.destroyed);
    equal(await get(connection), 200);
    equal(sessions.length, 2);
    connection.close();
  });
});

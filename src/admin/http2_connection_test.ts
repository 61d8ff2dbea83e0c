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

Deno.test("Http2Connection: calls share one session; after GOAWAY or a dropped session the next opens a new one", async () => {
  // In a process of its own, tried again only when Deno's nghttp2 aborted it (see _goaway_scenario.ts).
  const scenario = new URL("./_goaway_scenario.ts", import.meta.url).pathname;
  const config = new URL("../../deno.json", import.meta.url).pathname;
  for (let attempt = 1;; attempt++) {
    const { success, code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--config", config, "--allow-net", "--allow-read", scenario],
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    if (success) return;
    const message = new TextDecoder().decode(stderr);
    if (attempt < 3 && message.includes("find_stream_on_goaway_func")) continue;
    throw new Error(`the GOAWAY scenario failed (exit ${code}, attempt ${attempt}):\n${message}`);
  }
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

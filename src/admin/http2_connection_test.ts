import { equal, ok } from "node:assert/strict";
import { Http2Connection } from "./http2_connection.ts";
import { get, withServer } from "./_http2_test_server.ts";

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

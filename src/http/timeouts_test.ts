/**
 * The time limits of calls with a request body, against real loopback servers: an upload's response headers are
 * timed from the end of its body, a stall while sending it is a stall, and a small body (a token request's form)
 * is timed from the start as a GET is.
 */
import { equal, match, ok, rejects } from "node:assert/strict";
import { createHttpClient } from "./http_client.ts";
import { HttpTimeoutError } from "./timeouts.ts";
import { withMuteServer } from "./_test_mute_server.ts";

const LIMITS = { headersMs: 300, idleMs: 300 };

Deno.test("an upload that is taken and never answered fails after http.headersTimeout, counted from its body's end", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-timeouts-test-" });
  const http = createHttpClient({ timeouts: LIMITS });
  try {
    const path = `${dir}/source.tar.gz`;
    await Deno.writeFile(path, new Uint8Array(1_000_000));
    await withMuteServer(async ({ url }) => {
      await rejects(http.put(`${url}/upload?sig=secret`, { path, size: 1_000_000 }), (err) => {
        match(String((err as Error).message), /no response headers within 300ms after the request body was sent/);
        match(String((err as Error).message), /\(http\.headersTimeout\)/);
        return !String((err as Error).message).includes("secret");
      });
    });
  } finally {
    http.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an upload the server stops reading fails after http.idleTimeout; bytes in memory are watched as a file is", async () => {
  const http = createHttpClient({ timeouts: LIMITS });
  try {
    // More than the loopback socket buffers hold, so that sending stalls.
    const bytes = new Uint8Array(64_000_000);
    await withMuteServer(async ({ url }) => {
      await rejects(http.put(`${url}/upload`, { bytes }), (err) => {
        match((err as Error).message, /no progress sending the request body for 300ms \(http\.idleTimeout\)/);
        return true;
      });
    }, { read: false });
  } finally {
    http.close();
  }
});

Deno.test("a small request body (a token request's form) is timed from the start, as a GET is", async () => {
  const http = createHttpClient({ timeouts: LIMITS });
  try {
    await withMuteServer(async ({ url }) => {
      const form = new URLSearchParams({ grant_type: "client_credentials" });
      await rejects(http.fetch(`${url}/oauth2/token`, { method: "POST", body: form }), (err) => {
        return err instanceof HttpTimeoutError &&
          /^POST http:\/\/127\.0\.0\.1:\d+\/oauth2\/token timed out: no response headers within 300ms \(http\.headersTimeout\)$/
            .test(err.message);
      });
    });
  } finally {
    http.close();
  }
});

Deno.test("a slow but steady upload takes as long as it needs: its headers wait only from its end", async () => {
  // Limits with room for a loaded machine; the upload takes twice the headers limit.
  const http = createHttpClient({ timeouts: { headersMs: 1_000, idleMs: 1_000 } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    return new Response(String((await req.arrayBuffer()).byteLength));
  });
  try {
    // A body that comes slowly (as from a slow source): 40 chunks, one every 50 ms, two seconds in all.
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 40) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.enqueue(new Uint8Array(16_384));
        sent++;
      },
    });
    const started = performance.now();
    const response = await http.fetch(`http://127.0.0.1:${server.addr.port}/upload`, { method: "PUT", body });
    const took = performance.now() - started;
    equal(await response.text(), String(40 * 16_384));
    ok(
      took > 1_500,
      `the upload took ${Math.round(took)} ms: too short to show its headers were not timed from the start`,
    );
  } finally {
    http.close();
    await server.shutdown();
  }
});

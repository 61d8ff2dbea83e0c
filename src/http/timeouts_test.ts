/**
 * The time limits of calls with a request body, against real loopback servers: an upload's response headers are
 * timed from the end of its body, a stall while sending it is a stall, and a small body (a token request's form)
 * is timed from the start as a GET is. And what ends a call ends a read of its answer, after garbage collections
 * too; an answer read whole is due whole within the headers' limit.
 */
import { equal, match, ok, rejects } from "node:assert/strict";
import { createHttpClient } from "./http_client.ts";
import { HttpTimeoutError } from "./timeouts.ts";
import { withMuteServer } from "./_test_mute_server.ts";
import { endStalledBodies } from "./_test_bodies.ts";

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

/**
 * A server that sends `chunks` small chunks (one every 10 ms) and then stalls until `release`; the stalled bodies are
 * ended by the caller.
 */
function startTricklingThenStalling(chunks: number) {
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        start: (controller) => void bodies.push(controller),
        async pull(controller) {
          if (sent++ >= chunks) return await new Promise(() => {});
          await new Promise((resolve) => setTimeout(resolve, 10));
          controller.enqueue(new Uint8Array(100));
        },
      }),
    );
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/archive.tgz`,
    close: async () => {
      endStalledBodies(bodies);
      await server.shutdown();
    },
  };
}

/**
 * Reads `response`'s body to its end while making garbage (so that collections happen, as a download's chunks make
 * them), and what ended it, or "still waiting" past `boundMs`.
 */
async function readWhileCollecting(response: Response, boundMs: number): Promise<string> {
  const reader = response.body!.getReader();
  const read = (async () => {
    try {
      for (;;) {
        // Short-lived objects, megabytes of them: young-generation collections between the reads.
        let garbage: unknown[] = [];
        for (let i = 0; i < 20_000; i++) garbage.push({ i, text: `chunk ${i}` });
        garbage = [];
        if ((await reader.read()).done) return "the end";
      }
    } catch (err) {
      return (err as Error).message;
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<string>((resolve) => timer = setTimeout(() => resolve("still waiting"), boundMs));
  try {
    return await Promise.race([read, bound]);
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

Deno.test("a body that stalls after garbage collections still ends at http.idleTimeout, naming it", async () => {
  const server = startTricklingThenStalling(30);
  const http = createHttpClient({ timeouts: { idleMs: 500 } });
  try {
    // Before, Deno's own signal for the call, held only weakly once the first Response was dropped, was collected:
    // the limit fired and the read waited for ever.
    const ended = await readWhileCollecting(await http.fetch(server.url), 10_000);
    match(
      ended,
      /^GET http:\/\/127\.0\.0\.1:\d+\/archive\.tgz timed out: no data for 500ms in the middle of the response body \(http\.idleTimeout\)$/,
    );
  } finally {
    http.close();
    await server.close();
  }
});

Deno.test("Ctrl-C (the client's signal) ends a body that stalls after garbage collections, long before its time limit", async () => {
  const server = startTricklingThenStalling(30);
  const interrupt = new AbortController();
  const http = createHttpClient({ signal: interrupt.signal, timeouts: { idleMs: 60_000 } });
  try {
    const response = await http.fetch(server.url);
    setTimeout(() => interrupt.abort(new Error("interrupted")), 800);
    equal(await readWhileCollecting(response, 10_000), "interrupted");
  } finally {
    http.close();
    await server.close();
  }
});

Deno.test("an answer read whole (maxBodyBytes) that trickles ends at http.headersTimeout, though each byte is in time", async () => {
  const server = startTricklingThenStalling(1_000);
  const http = createHttpClient({ timeouts: { headersMs: 500, idleMs: 10_000 } });
  try {
    await rejects(http.fetch(server.url, { method: "POST", maxBodyBytes: 1024 * 1024 }), (err) => {
      return err instanceof HttpTimeoutError &&
        /^POST http:\/\/127\.0\.0\.1:\d+\/archive\.tgz timed out: no complete answer within 500ms \(http\.headersTimeout\)$/
          .test(err.message);
    });
  } finally {
    http.close();
    await server.close();
  }
});

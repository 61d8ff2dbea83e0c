import { equal, ok } from "node:assert/strict";
import { createHttpClient } from "./http_client.ts";
import { prefetching } from "./prefetch.ts";
import { withDroppingServer } from "./_test_dropping_server.ts";
import { endStalledBodies } from "./_test_bodies.ts";

interface Served {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Bodies the client dropped before their end. */
  cancelled: number;
}

/**
 * Runs `fn` with a loopback server: `/slow` answers after 300 ms, `/endless` sends one chunk and then waits for
 * ever, anything else answers its path at once.
 */
async function withServer(fn: (served: Served) => Promise<void>): Promise<void> {
  const served: Served = { url: "", requests: [], cancelled: 0 };
  const endless: ReadableStreamDefaultController<Uint8Array>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = new URL(request.url).pathname;
    served.requests.push(path);
    if (path === "/slow") await new Promise((resolve) => setTimeout(resolve, 300));
    if (path !== "/endless") return new Response(path);
    return new Response(
      new ReadableStream({
        start: (controller) => {
          endless.push(controller);
          controller.enqueue(new TextEncoder().encode("first"));
        },
        cancel: () => void served.cancelled++,
      }),
    );
  });
  served.url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await fn(served);
  } finally {
    endStalledBodies(endless);
    await server.shutdown();
  }
}

const until = async (done: () => boolean) => {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5_000) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

Deno.test("prefetch: the next fetch of the URL takes over the download started ahead", async () => {
  await withServer(async (served) => {
    const ahead = prefetching(fetch);
    ahead.start(`${served.url}/a`);
    await until(() => served.requests.length === 1);
    const response = await ahead.fetch(`${served.url}/a`);
    equal(await response.text(), "/a");
    // Taken once: the next fetch is a request of its own.
    equal(await (await ahead.fetch(`${served.url}/a`)).text(), "/a");
    equal(served.requests.join(" "), "/a /a");
    ahead.close();
  });
});

Deno.test("prefetch: one not taken is cancelled by its signal or by close(); a fetch after that asks again", async () => {
  await withServer(async (served) => {
    const ahead = prefetching(fetch);
    const controller = new AbortController();
    ahead.start(`${served.url}/endless`, { signal: controller.signal });
    await until(() => served.requests.length === 1);
    controller.abort();
    await until(() => served.cancelled === 1);
    const response = await ahead.fetch(`${served.url}/endless`);
    equal(served.requests.length, 2);
    await response.body?.cancel();
    await until(() => served.cancelled === 2);

    ahead.start(`${served.url}/endless`);
    await until(() => served.requests.length === 3);
    ahead.close();
    await until(() => served.cancelled === 3);
  });
});

Deno.test("prefetch: once taken, the taker's signal cancels it and the starter's no longer does", async () => {
  await withServer(async (served) => {
    const ahead = prefetching(fetch);
    const starter = new AbortController();
    ahead.start(`${served.url}/endless`, { signal: starter.signal });
    const taker = new AbortController();
    const response = await ahead.fetch(`${served.url}/endless`, { signal: taker.signal });
    const reader = response.body!.getReader();
    equal(new TextDecoder().decode((await reader.read()).value), "first");
    starter.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    equal(served.cancelled, 0, "the starter's signal no longer applies");
    taker.abort();
    await until(() => served.cancelled === 1);
    ahead.close();
  });
});

Deno.test("prefetch: one older than its limit is dropped and asked for again", async () => {
  await withServer(async (served) => {
    let clock = 0;
    const ahead = prefetching(fetch, 1_000, () => clock);
    ahead.start(`${served.url}/endless`);
    await until(() => served.requests.length === 1);
    clock = 1_001;
    const response = await ahead.fetch(`${served.url}/endless`);
    equal(served.requests.length, 2);
    await until(() => served.cancelled === 1);
    await response.body?.cancel();
    ahead.close();
  });
});

Deno.test("prefetch: one that failed before it was taken gets a fresh attempt", async () => {
  // The first connection is dropped before any answer; the next gets one.
  await withDroppingServer("fresh", async (server) => {
    const url = `${server.url}/asset`;
    const ahead = prefetching(fetch);
    ahead.start(url);
    await until(() => server.connections() === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    equal(await (await ahead.fetch(url)).text(), "fresh");
    equal(server.connections(), 2);
    ahead.close();
  });
});

Deno.test("prefetch through the HTTP client: its time limits count from the fetch that takes the download", async () => {
  await withServer(async (served) => {
    const http = createHttpClient({ timeouts: { headersMs: 200 } });
    try {
      // The answer comes 300 ms after the request, which was started 250 ms before the fetch: 50 ms within its limit.
      http.prefetch(`${served.url}/slow`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      equal(await (await http.fetch(`${served.url}/slow`)).text(), "/slow");
      // Asked now, the same answer is out of time.
      const late = await http.fetch(`${served.url}/slow`).then(() => "answered", (err) => String(err));
      ok(late.includes("timed out"), late);
    } finally {
      http.close();
    }
  });
});

/**
 * What the HTTP client reads of an answer, against a real loopback server: an answer read whole up to its call's
 * `maxBodyBytes` (an endless or announced-too-large one fails naming the call and the limit), an error answer's body
 * up to 64 KiB with the rest dropped, and a download without a bound.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { createHttpClient, HttpBodyTooLargeError } from "./http_client.ts";
import { ERROR_BODY_MAX_BYTES } from "./bounded_body.ts";
import { endStalledBodies } from "./_test_bodies.ts";

/** A server answering `/endless` with a body without end (and `status`), `/sized` with `size` bytes. */
function startServer(status = 200, size = 0) {
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  const chunk = new Uint8Array(65536).fill(120);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/sized") return new Response(new Uint8Array(size).fill(121), { status });
    return new Response(
      new ReadableStream<Uint8Array>({
        start: (controller) => void bodies.push(controller),
        pull: (controller) => controller.enqueue(chunk),
      }),
      { status },
    );
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      endStalledBodies(bodies);
      await server.shutdown();
    },
  };
}

Deno.test("maxBodyBytes: an endless answer fails past the limit, naming the call without its query and the limit", async () => {
  const server = startServer();
  const http = createHttpClient();
  try {
    await rejects(http.fetch(`${server.url}/endless?token=secret`, { maxBodyBytes: 1024 * 1024 }), (err) => {
      equal(err instanceof HttpBodyTooLargeError, true);
      equal(
        (err as Error).message,
        `GET ${server.url}/endless answered more than 1 MiB, the most fctl reads of this answer`,
      );
      return true;
    });
  } finally {
    http.close();
    await server.close();
  }
});

Deno.test("maxBodyBytes: an answer announced larger fails before it is read; one within the limit is read whole", async () => {
  const server = startServer(200, 200_000);
  const http = createHttpClient();
  try {
    await rejects(
      http.fetch(`${server.url}/sized`, { method: "POST", maxBodyBytes: 100 * 1024 }),
      /^HttpBodyTooLargeError: POST http:\/\/127\.0\.0\.1:\d+\/sized answered more than 100 KiB, /,
    );
    const response = await http.fetch(`${server.url}/sized`, { maxBodyBytes: 200_000 });
    deepEqual(await response.bytes(), new Uint8Array(200_000).fill(121));
    // Without a bound (a download), all of it.
    equal((await (await http.fetch(`${server.url}/sized`)).bytes()).length, 200_000);
  } finally {
    http.close();
    await server.close();
  }
});

Deno.test("an error answer's body is read up to 64 KiB, the rest dropped without an error", async () => {
  const endless = startServer(403);
  const small = startServer(503, 300);
  const http = createHttpClient();
  try {
    const response = await http.fetch(`${endless.url}/endless`);
    equal(response.status, 403);
    equal((await response.bytes()).length, ERROR_BODY_MAX_BYTES);
    // With a bound for the answer it was meant to be, an error answer is still an answer: its status is the caller's.
    equal((await (await http.fetch(`${endless.url}/endless`, { maxBodyBytes: 1024 })).text()).length, 65536);
    equal(await (await http.fetch(`${small.url}/sized`)).text(), "y".repeat(300));
  } finally {
    http.close();
    await endless.close();
    await small.close();
  }
});

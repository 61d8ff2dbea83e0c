import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { createHttpClient, HttpTimeoutError } from "./http_client.ts";
import type { HttpRetryInfo, HttpRetryOptions } from "./retry.ts";
import { retryAfterMs } from "./retry.ts";
import { withDroppingServer } from "./_test_dropping_server.ts";

interface Served {
  url: string;
  /** `METHOD path`, in order. */
  requests: string[];
  /** The bodies of the PUTs, with their Content-Length header. */
  puts: { length: string | null; body: string }[];
}

/**
 * Runs `fn` with a loopback server whose answers are scripted per path: `/flaky-N` answers 503 the first N times,
 * then 200; `/always` always 503; `/throttled-S` answers 429 with `Retry-After: S` once, then 200; `/hang` never
 * answers; anything else 200.
 */
async function withServer(fn: (served: Served) => Promise<void>): Promise<void> {
  const served: Served = { url: "", requests: [], puts: [] };
  const seen = new Map<string, number>();
  const hanging: (() => void)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = new URL(request.url).pathname;
    served.requests.push(`${request.method} ${path}`);
    const times = (seen.get(path) ?? 0) + 1;
    seen.set(path, times);
    if (request.method === "PUT") {
      served.puts.push({ length: request.headers.get("content-length"), body: await request.text() });
    }
    const flaky = /^\/flaky-(\d+)$/.exec(path);
    if (flaky && times <= Number(flaky[1])) return new Response("Slow Down", { status: 503 });
    if (path === "/always") return new Response("Slow Down", { status: 503 });
    const throttled = /^\/throttled-(\d+)$/.exec(path);
    if (throttled && times === 1) {
      return new Response("later", { status: 429, headers: { "retry-after": throttled[1] } });
    }
    if (path === "/hang") await new Promise<void>((resolve) => hanging.push(resolve));
    return new Response(`ok ${path}`);
  });
  served.url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await fn(served);
  } finally {
    for (const resolve of hanging) resolve();
    await server.shutdown();
  }
}

/** Retry options that wait 1–2 ms between attempts, recording each retry. */
function fastRetry(maxAttempts = 4): { retry: HttpRetryOptions; retries: HttpRetryInfo[] } {
  const retries: HttpRetryInfo[] = [];
  return {
    retries,
    retry: { maxAttempts, maxBackoffMs: 10_000, initialBackoffMs: 1, onRetry: (info) => retries.push(info) },
  };
}

Deno.test("http retries: a GET answered 503 is repeated until it succeeds; each retry says why, without the query", async () => {
  await withServer(async (served) => {
    const { retry, retries } = fastRetry();
    const http = createHttpClient({ retry });
    try {
      const response = await http.fetch(`${served.url}/flaky-2?sig=s3cr3t`);
      deepEqual([response.status, await response.text()], [200, "ok /flaky-2"]);
    } finally {
      http.close();
    }
    deepEqual(served.requests, ["GET /flaky-2", "GET /flaky-2", "GET /flaky-2"]);
    deepEqual(
      retries.map(({ method, url, attempt, maxAttempts, reason }) => [method, url, attempt, maxAttempts, reason]),
      [
        ["GET", `${served.url}/flaky-2`, 1, 4, "HTTP 503"],
        ["GET", `${served.url}/flaky-2`, 2, 4, "HTTP 503"],
      ],
    );
  });
});

Deno.test("http retries: an upload of a file is sent again whole, with its Content-Length", async () => {
  await withServer(async (served) => {
    const dir = await Deno.makeTempDir();
    const { retry, retries } = fastRetry();
    const http = createHttpClient({ retry });
    try {
      const path = `${dir}/fast.tgz`;
      await Deno.writeTextFile(path, "x".repeat(100_000));
      await http.put(`${served.url}/flaky-1?token=s3cr3t`, { path, size: 100_000 });
    } finally {
      http.close();
      await Deno.remove(dir, { recursive: true });
    }
    deepEqual(served.puts.map((put) => [put.length, put.body.length]), [["100000", 100_000], ["100000", 100_000]]);
    equal(retries.length, 1);
  });
});

Deno.test("http retries: after the last attempt its answer is the caller's; a POST is never repeated", async () => {
  await withServer(async (served) => {
    const { retry, retries } = fastRetry(3);
    const http = createHttpClient({ retry });
    try {
      equal((await http.fetch(`${served.url}/always`)).status, 503);
      equal((await http.fetch(`${served.url}/flaky-1`, { method: "POST", body: "grant_type=x" })).status, 503);
    } finally {
      http.close();
    }
    deepEqual(served.requests, ["GET /always", "GET /always", "GET /always", "POST /flaky-1"]);
    deepEqual(retries.map((info) => info.attempt), [1, 2]);
  });
});

Deno.test("http retries: Retry-After is waited for when it is within the longest wait, else the answer is returned", async () => {
  await withServer(async (served) => {
    const { retry, retries } = fastRetry();
    const http = createHttpClient({ retry: { ...retry, maxBackoffMs: 60_000 } });
    try {
      equal((await http.fetch(`${served.url}/throttled-0`)).status, 200);
      equal((await http.fetch(`${served.url}/throttled-3600`)).status, 429);
    } finally {
      http.close();
    }
    deepEqual(served.requests, ["GET /throttled-0", "GET /throttled-0", "GET /throttled-3600"]);
    deepEqual(retries.map((info) => [info.reason, info.delayMs]), [["HTTP 429", 0]]);
  });
  equal(retryAfterMs("120"), 120_000);
  equal(retryAfterMs("Wed, 21 Oct 2015 07:28:30 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")), 30_000);
  equal(retryAfterMs("soon"), undefined);
  equal(retryAfterMs(null), undefined);
});

Deno.test("http retries: a connection closed before its answer is retried; an unknown host and a timeout are not", async () => {
  // The first connection is closed at once, the next ones are answered.
  await withDroppingServer("ok", async (server) => {
    const { retry, retries } = fastRetry();
    const http = createHttpClient({ retry });
    try {
      equal(await (await http.fetch(`${server.url}/a.tgz`)).text(), "ok");
      deepEqual(retries.map((info) => info.reason), ["connection closed before message completed"]);
      await rejects(http.fetch("http://no-such-host.invalid/a.tgz"));
      equal(retries.length, 1, "an unknown host stays unknown: no retry");
    } finally {
      http.close();
    }
  });
  await withServer(async (served) => {
    const timed = fastRetry();
    const client = createHttpClient({ retry: timed.retry, timeouts: { headersMs: 200 } });
    try {
      await rejects(client.fetch(`${served.url}/hang`), HttpTimeoutError);
    } finally {
      client.close();
    }
    deepEqual([served.requests, timed.retries], [["GET /hang"], []]);
  });
});

Deno.test("http retries: Ctrl-C (the client's signal) ends the wait between attempts", async () => {
  await withServer(async (served) => {
    const interrupt = new AbortController();
    const reason = new Error("interrupted");
    const http = createHttpClient({
      signal: interrupt.signal,
      // A wait of a minute, unless the abort ends it: the test would time out without it.
      retry: { maxAttempts: 4, maxBackoffMs: 60_000, initialBackoffMs: 60_000, onRetry: () => interrupt.abort(reason) },
    });
    try {
      await rejects(http.fetch(`${served.url}/flaky-1`), (err) => err === reason);
    } finally {
      http.close();
    }
    deepEqual(served.requests, ["GET /flaky-1"]);
  });
});

Deno.test("http retries: maxAttempts 1 makes every call once", async () => {
  await withServer(async (served) => {
    const http = createHttpClient({ retry: { maxAttempts: 1, maxBackoffMs: 1_000 } });
    try {
      equal((await http.fetch(`${served.url}/flaky-1`)).status, 503);
    } finally {
      http.close();
    }
    ok(served.requests.length === 1);
  });
});

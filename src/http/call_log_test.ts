import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { createHttpClient } from "./http_client.ts";

type Recorded = [string, Record<string, string | number>];

/** A loopback server: `/moved?sig=…` redirects to `/there?sig=…`; anything else answers 201 with its path. */
async function withServer(fn: (url: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/moved") return Response.redirect(new URL(`/there${url.search}`, url), 302);
    return new Response(url.pathname, { status: 201 });
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** The fields of a record, its time checked and left out (it varies). */
function timed([message, fields]: Recorded): Recorded {
  const { ms, ...rest } = fields;
  ok(typeof ms === "number" && ms >= 0, `ms of ${message}`);
  return [message, rest];
}

Deno.test("every call of the HTTP client has one debug record: method, URL without its query, status, time", async () => {
  await withServer(async (base) => {
    const records: Recorded[] = [];
    const http = createHttpClient({ debug: (message, fields) => records.push([message, fields]) });
    try {
      await (await http.fetch(`${base}/file.tgz?X-Amz-Signature=s3cr3t`)).text();
      await http.put(`${base}/bucket/fast.tar.gz?token=s3cr3t`, { bytes: new Uint8Array([1, 2, 3]) });
      await (await http.fetch(`${base}/moved?sig=s3cr3t`)).text();
    } finally {
      http.close();
    }
    deepEqual(records.map(timed), [
      ["http call", { method: "GET", url: `${base}/file.tgz`, status: 201 }],
      ["http call", { method: "PUT", url: `${base}/bucket/fast.tar.gz`, status: 201 }],
      ["http call", { method: "GET", url: `${base}/moved`, to: `${base}/there`, status: 201 }],
    ]);
    ok(!JSON.stringify(records).includes("s3cr3t"));
  });
});

Deno.test("a call that fails is recorded with the reason its error line gives, and still fails", async () => {
  const records: Recorded[] = [];
  const http = createHttpClient({ debug: (message, fields) => records.push([message, fields]) });
  // A port nothing listens on: bound, then closed.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  try {
    await rejects(http.fetch(`http://127.0.0.1:${port}/token?client_secret=s3cr3t`, { method: "post" }));
  } finally {
    http.close();
  }
  equal(records.length, 1);
  const [message, fields] = timed(records[0]);
  equal(message, "http call failed");
  deepEqual([fields.method, fields.url], ["POST", `http://127.0.0.1:${port}/token`]);
  match(String(fields.error), /refused/i);
  ok(!JSON.stringify(records).includes("s3cr3t"));
});

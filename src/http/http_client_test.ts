import { deepEqual, equal, match } from "node:assert/strict";
import { createHttpClient, describeFetchFailure, SKIP_VERIFY_UNSUPPORTED } from "./http_client.ts";
import { startTlsServer } from "./_test_tls.ts";
import { startProxy } from "./_test_proxy.ts";

/** A plain origin server, for calls that go direct. */
function startOrigin(): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("direct"));
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("createHttpClient: HTTP_PROXY for http URLs unless NO_PROXY excludes the host", async () => {
  const proxy = startProxy("env-proxy");
  const origin = startOrigin();
  const proxied = createHttpClient({ env: { HTTP_PROXY: proxy.url } });
  const bypassed = createHttpClient({ env: { HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" } });
  try {
    equal(await (await proxied.fetch("http://archive.invalid/a.tgz")).text(), "env-proxy http://archive.invalid/a.tgz");
    equal(await (await bypassed.fetch(`${origin.url}/a.tgz`)).text(), "direct");
    deepEqual(proxy.seen, ["http://archive.invalid/a.tgz"]);
  } finally {
    proxied.close();
    bypassed.close();
    await proxy.close();
    await origin.close();
  }
});

Deno.test("createHttpClient over https: the CA file is trusted; a file is PUT streamed with Content-Length, bytes too", async () => {
  const server = await startTlsServer();
  const http = createHttpClient({ caCertificates: server.caCert });
  const dir = await Deno.makeTempDir({ prefix: "fctl-http-test-" });
  try {
    // Several chunks, and a last one that is not full.
    const bytes = crypto.getRandomValues(new Uint8Array(65536)).map((_, i) => i % 251);
    // Past the size sent as it is: handed to fetch in pieces whose progress is timed (src/http/timeouts.ts).
    const largeBytes = new Uint8Array(5 * 65536 + 77).map((_, i) => (i * 13) % 256);
    const file = new Uint8Array(3 * 65536 + 123).map((_, i) => (i * 7) % 256);
    await Deno.writeFile(`${dir}/source.tar.gz`, file);
    const headers = { "Content-MD5": "md5", "X-Extra": "1" };
    await http.put(`${server.url}/bucket/a?sig=secret`, { path: `${dir}/source.tar.gz`, size: file.length }, {
      headers,
    });
    await http.put(`${server.url}/bucket/b?sig=secret`, { bytes }, { headers });
    await http.put(`${server.url}/bucket/c?sig=secret`, { bytes: largeBytes }, { headers });
    deepEqual(server.seen.map((r) => [r.method, new URL(r.url).pathname, r.headers.get("content-length")]), [
      ["PUT", "/bucket/a", String(file.length)],
      ["PUT", "/bucket/b", String(bytes.length)],
      ["PUT", "/bucket/c", String(largeBytes.length)],
    ]);
    deepEqual(server.seen.map((r) => [r.headers.get("content-md5"), r.headers.get("x-extra")]), [
      ["md5", "1"],
      ["md5", "1"],
      ["md5", "1"],
    ]);
    deepEqual(server.seen[0].bytes, file);
    deepEqual(server.seen[1].bytes, bytes);
    deepEqual(server.seen[2].bytes, largeBytes);
  } finally {
    http.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createHttpClient over https: an untrusted certificate fails naming the URL without its query and the cause", async () => {
  const server = await startTlsServer();
  const http = createHttpClient();
  try {
    const err = await rejects(
      http.put(`${server.url}/bucket/key?X-Amz-Signature=secret`, { bytes: new Uint8Array(3) }),
    );
    equal(
      err.message,
      `uploading "data" to ${server.url}/bucket/key failed: invalid peer certificate: UnknownIssuer ` +
        "(trust the server's CA with admin.caCertFilePath)",
    );
    deepEqual(server.seen, []);
  } finally {
    http.close();
    await server.close();
  }
});

Deno.test("createHttpClient: insecureSkipVerify is not silently ignored: the first https call warns once, and still verifies", async () => {
  const server = await startTlsServer();
  const warnings: string[] = [];
  const http = createHttpClient({ insecureSkipVerify: true, warn: (message) => warnings.push(message) });
  try {
    await http.fetch("http://127.0.0.1:1/").catch(() => {});
    deepEqual(warnings, [], "no warning for plain http");
    for (let i = 0; i < 2; i++) {
      const err = await rejects(http.fetch(`${server.url}/a`));
      match(describeFetchFailure(err), /invalid peer certificate: UnknownIssuer/);
    }
    deepEqual(warnings, [SKIP_VERIFY_UNSUPPORTED]);
  } finally {
    http.close();
    await server.close();
  }
});

async function rejects(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

Deno.test("createHttpClient: a file PUT goes through the proxy too, with its Content-Length", async () => {
  const seen: [string, string | null, number][] = [];
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push([req.url, req.headers.get("content-length"), (await req.arrayBuffer()).byteLength]);
    return new Response("stored");
  });
  const http = createHttpClient({ proxy: `http://127.0.0.1:${proxy.addr.port}` });
  const dir = await Deno.makeTempDir({ prefix: "fctl-http-test-" });
  try {
    await Deno.writeFile(`${dir}/source.tar.gz`, new Uint8Array(100_000));
    await http.put("http://store.invalid/bucket/key?sig=secret", { path: `${dir}/source.tar.gz`, size: 100_000 });
    deepEqual(seen, [["http://store.invalid/bucket/key?sig=secret", "100000", 100_000]]);
  } finally {
    http.close();
    await proxy.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

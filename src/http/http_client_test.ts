import { deepEqual, equal } from "node:assert/strict";
import { createHttpClient } from "./http_client.ts";

interface RecordingProxy {
  url: string;
  /** The absolute-form request targets the proxy was asked for. */
  seen: string[];
  close(): Promise<void>;
}

/** A forward proxy that answers every request itself, so a test sees which requests went through it. */
function startProxy(name: string): RecordingProxy {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.url);
    return new Response(`${name} ${req.url}`);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

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

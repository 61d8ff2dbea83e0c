/**
 * The gRPC connection through HTTPS_PROXY: a real HTTP CONNECT proxy on loopback, written here, relays
 * the bytes; NO_PROXY bypasses it.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { runFctl } from "./helpers.ts";
import { createHttpClient } from "../src/http/http_client.ts";

interface Proxy {
  url: string;
  /** The CONNECT targets asked for, in order. */
  targets: string[];
  close(): Promise<void>;
}

/** A minimal CONNECT proxy: reads the request head, dials the target, answers 200, then relays both ways. */
function startProxy(): Proxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const targets: string[] = [];
  const open = new Set<Deno.Conn>();
  const relays: Promise<unknown>[] = [];
  const serve = async (client: Deno.Conn) => {
    open.add(client);
    let head = "";
    const buffer = new Uint8Array(4096);
    while (!head.includes("\r\n\r\n")) {
      const n = await client.read(buffer);
      if (n === null) return client.close();
      head += new TextDecoder().decode(buffer.subarray(0, n));
    }
    const connect = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head);
    // A plain HTTP request in absolute form (`GET http://host:port/path`) is forwarded in origin form.
    const forward = /^([A-Z]+) http:\/\/([^/\s]+)(\S*) HTTP\/1\.1\r\n/.exec(head);
    const target = connect?.[1] ?? forward?.[2] ?? "";
    targets.push(connect ? target : `${forward?.[1]} http://${target}`);
    const [hostname, port] = [
      target.slice(0, target.lastIndexOf(":")),
      Number(target.slice(target.lastIndexOf(":") + 1)),
    ];
    const upstream = await Deno.connect({ hostname, port });
    open.add(upstream);
    if (connect) {
      await client.write(new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n"));
    } else {
      await upstream.write(
        new TextEncoder().encode(head.replace(forward![0], `${forward![1]} ${forward![3] || "/"} HTTP/1.1\r\n`)),
      );
    }
    await Promise.allSettled([
      client.readable.pipeTo(upstream.writable),
      upstream.readable.pipeTo(client.writable),
    ]);
  };
  const accepting = (async () => {
    for await (const conn of listener) relays.push(serve(conn).catch(() => {}));
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: async () => {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // already closed by the relay
        }
      }
      await accepting;
      await Promise.allSettled(relays);
    },
  };
}

const CERT = new URL("../src/sandbox/testdata/localhost_cert.pem", import.meta.url).pathname;
const KEY = new URL("../src/sandbox/testdata/localhost_key.pem", import.meta.url).pathname;
const scope = ["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.maxRetries", "1"];

for (const tls of [false, true]) {
  Deno.test(`proxy: ${tls ? "TLS" : "h2c"} gRPC goes through the HTTPS_PROXY CONNECT tunnel`, async () => {
    const sandbox = await startSandbox(
      tls ? { tls: { cert: await Deno.readTextFile(CERT), key: await Deno.readTextFile(KEY) } } : {},
    );
    const proxy = startProxy();
    try {
      const args = [...scope, "--admin.endpoint", sandbox.endpoint, ...(tls ? ["--admin.caCertFilePath", CERT] : [])];
      const result = await runFctl(args, { env: { HTTPS_PROXY: proxy.url } });
      equal(result.stderr, "");
      equal(result.code, 0);
      deepEqual(proxy.targets, [`127.0.0.1:${sandbox.port}`]);
      equal(sandbox.requests.length, 1);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });
}

Deno.test("proxy: NO_PROXY sends the connection direct", async () => {
  const sandbox = await startSandbox();
  const proxy = startProxy();
  try {
    for (const noProxy of ["127.0.0.1", "*", `localhost,127.0.0.1:${sandbox.port}`]) {
      const result = await runFctl([...scope, "--admin.endpoint", sandbox.endpoint], {
        env: { HTTPS_PROXY: proxy.url, NO_PROXY: noProxy },
      });
      equal(result.code, 0, noProxy);
    }
    deepEqual(proxy.targets, []);
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});

Deno.test("proxy: an unreachable proxy is a connection error naming the endpoint", async () => {
  const sandbox = await startSandbox();
  try {
    const result = await runFctl([...scope, "--admin.endpoint", sandbox.endpoint], {
      env: { HTTPS_PROXY: "http://127.0.0.1:1" },
    });
    equal(result.code, 1);
    match(
      result.stderr,
      /^Error: connection to http:\/\/127\.0\.0\.1:\d+ \(insecure: true, auth: none\): ListTasks failed: Unavailable/,
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("proxy: HTTP calls go through admin.httpProxyURL", async () => {
  const proxy = startProxy();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => new Response(`hello ${new URL(req.url).pathname}`),
  );
  const http = createHttpClient({ proxy: proxy.url });
  try {
    const response = await http.fetch(`http://127.0.0.1:${server.addr.port}/config/v1/flyte_client`);
    equal(await response.text(), "hello /config/v1/flyte_client");
    deepEqual(proxy.targets, [`GET http://127.0.0.1:${server.addr.port}`]);
  } finally {
    http.close();
    await server.shutdown();
    await proxy.close();
  }
});

Deno.test("proxy: the token request of an admin that asks for one goes through admin.httpProxyURL, trusting the CA file", async () => {
  const proxy = startProxy();
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const result = await runFctl([
      ...scope,
      ...["--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`],
      ...["--admin.httpProxyURL", proxy.url, "--admin.clientSecretEnvVar", "FLYTE_SECRET"],
    ], { env: { HOME: `${dir}/no-home`, FLYTE_SECRET: SANDBOX_CLIENT.secret } });
    equal(result.stderr, "");
    equal(result.code, 0);
    // gRPC does not use admin.httpProxyURL; the token request tunnels to the authorization server.
    deepEqual(proxy.targets, [new URL(sandbox.auth!.tokenEndpoint).host]);
  } finally {
    await sandbox.close();
    await proxy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

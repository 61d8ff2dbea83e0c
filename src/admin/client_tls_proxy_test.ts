/**
 * The admin client's TLS and proxy options against the sandbox serving a self-signed certificate, and
 * a CONNECT proxy on loopback: the CA is trusted, skip-verify accepts, a refused certificate or proxy is
 * one clear error; h2c and TLS both go through the tunnel.
 */
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { connect as netConnect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { startSandbox } from "../sandbox/mod.ts";
import { type AdminClientOptions, createAdminClient } from "./client.ts";
import { AdminError } from "./errors.ts";

const TESTDATA = new URL("../sandbox/testdata/", import.meta.url);
const CERT = await Deno.readTextFile(new URL("localhost_cert.pem", TESTDATA));
const KEY = await Deno.readTextFile(new URL("localhost_key.pem", TESTDATA));
const LIST = { id: { project: "p", domain: "d" }, limit: 1 };

/** Lists tasks once through a client with `options` against a sandbox (TLS or h2c); returns the calls it saw. */
async function listThrough(tls: boolean, options: Omit<AdminClientOptions, "endpoint">): Promise<number> {
  const sandbox = await startSandbox(tls ? { tls: { cert: CERT, key: KEY } } : {});
  const client = createAdminClient({ endpoint: sandbox.endpoint, ...options });
  try {
    await client.admin.listTasks(LIST);
    return sandbox.requests.length;
  } finally {
    client.close();
    await sandbox.close();
  }
}

/** A CONNECT proxy on loopback that answers `status`, and on 200 relays both ways; records the targets. */
async function withProxy(status: number, fn: (url: string, targets: string[]) => Promise<void>): Promise<void> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.once("data", (head: Uint8Array) => {
      const target = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(new TextDecoder().decode(head))?.[1] ?? "";
      targets.push(target);
      if (status !== 200) return void client.end(`HTTP/1.1 ${status} No\r\n\r\n`);
      const colon = target.lastIndexOf(":");
      const upstream = netConnect(Number(target.slice(colon + 1)), target.slice(0, colon), () => {
        client.write("HTTP/1.1 200 Connection established\r\n\r\n");
        client.pipe(upstream).pipe(client);
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
    });
    client.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, targets);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

Deno.test("TLS: caCertificates makes the self-signed admin trusted; insecureSkipVerify accepts it unverified", async () => {
  equal(await listThrough(true, { caCertificates: CERT }), 1);
  equal(await listThrough(true, { insecureSkipVerify: true }), 1);
});

Deno.test("TLS: without the CA the certificate is refused, with the hint naming admin.caCertFilePath", async () => {
  const sandbox = await startSandbox({ tls: { cert: CERT, key: KEY } });
  const client = createAdminClient({ endpoint: sandbox.endpoint });
  try {
    await rejects(client.admin.listTasks(LIST), (err) => {
      ok(err instanceof AdminError);
      equal(err.status, "Unavailable");
      match(
        err.message,
        /^connection to https:\/\/127\.0\.0\.1:\d+ \(insecure: false, auth: none\): ListTasks failed:/,
      );
      match(err.message, /TLS: the server certificate was refused: .* \(trust its CA with admin\.caCertFilePath\)$/);
      return true;
    });
    equal(sandbox.requests.length, 0);
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("proxy: h2c and TLS calls go through the CONNECT tunnel to the endpoint", async () => {
  for (const tls of [false, true]) {
    await withProxy(200, async (proxy, targets) => {
      equal(await listThrough(tls, { proxy, caCertificates: CERT }), 1);
      equal(targets.length, 1);
      match(targets[0], /^127\.0\.0\.1:\d+$/);
    });
  }
});

Deno.test("proxy: a proxy that refuses the tunnel is an error naming the proxy, the target and its answer", async () => {
  await withProxy(407, async (proxy, targets) => {
    const client = createAdminClient({ endpoint: "http://127.0.0.1:9", proxy });
    try {
      await rejects(client.admin.listTasks(LIST), (err) => {
        ok(err instanceof AdminError);
        match(err.message, /proxy 127\.0\.0\.1:\d+ refused CONNECT 127\.0\.0\.1:9: 407/);
        return true;
      });
      deepEqual(targets, ["127.0.0.1:9"]);
    } finally {
      client.close();
    }
  });
});

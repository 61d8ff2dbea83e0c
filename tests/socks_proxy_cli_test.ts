/**
 * `admin.httpProxyURL` of a SOCKS5 proxy, which flytectl's Go transport takes and so does fctl's HTTP client: the
 * token request of a production-shaped admin (TLS, OAuth client credentials) goes through a real SOCKS5 proxy on
 * loopback, written here, from a fresh fctl process under the declared permissions.
 */
import { deepEqual, equal } from "node:assert/strict";
import { startSandbox } from "../src/sandbox/mod.ts";
import { runFctlProcess } from "./helpers.ts";
import { productionProcessEnv } from "./entity_fixtures.ts";

interface SocksProxy {
  port: number;
  /** The `host:port` each CONNECT asked for, in order. */
  targets: string[];
  close(): void;
}

/** Reads exactly `n` bytes, or null at the end of the stream. */
async function readExact(conn: Deno.Conn, n: number): Promise<Uint8Array | null> {
  const out = new Uint8Array(n);
  for (let at = 0; at < n;) {
    const read = await conn.read(out.subarray(at));
    if (read === null) return null;
    at += read;
  }
  return out;
}

/** A minimal SOCKS5 proxy (RFC 1928): no authentication, CONNECT to an IPv4 address or a name, then a relay. */
function startSocksProxy(): SocksProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const targets: string[] = [];
  const open = new Set<Deno.Conn>();
  const serve = async (client: Deno.Conn) => {
    open.add(client);
    const greeting = await readExact(client, 2);
    if (!greeting || !(await readExact(client, greeting[1]))) return;
    await client.write(new Uint8Array([5, 0])); // version 5, no authentication
    const request = await readExact(client, 4);
    if (!request) return;
    let host: string;
    if (request[3] === 1) host = (await readExact(client, 4))!.join(".");
    else {
      const length = (await readExact(client, 1))![0];
      host = new TextDecoder().decode((await readExact(client, length))!);
    }
    const portBytes = (await readExact(client, 2))!;
    const port = (portBytes[0] << 8) | portBytes[1];
    targets.push(`${host}:${port}`);
    const upstream = await Deno.connect({ hostname: host, port });
    open.add(upstream);
    await client.write(new Uint8Array([5, 0, 0, 1, 0, 0, 0, 0, 0, 0])); // succeeded
    await Promise.allSettled([
      client.readable.pipeTo(upstream.writable),
      upstream.readable.pipeTo(client.writable),
    ]);
  };
  (async () => {
    for await (const conn of listener) serve(conn).catch(() => {}).finally(() => open.delete(conn));
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    targets,
    close: () => {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // Already closed by its relay.
        }
      }
    },
  };
}

Deno.test("admin.httpProxyURL socks5:// and socks5h://: the token request goes through the SOCKS proxy", async () => {
  const proxy = startSocksProxy();
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-socks-proxy-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const env = productionProcessEnv(`${dir}/no-home`);
    for (const scheme of ["socks5", "socks5h"]) {
      proxy.targets.length = 0;
      const result = await runFctlProcess([
        ...["get", "project", "flytesnacks", "-o", "json"],
        ...["--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`],
        ...[
          "--admin.httpProxyURL",
          `${scheme}://127.0.0.1:${proxy.port}`,
          "--admin.clientSecretEnvVar",
          "FLYTE_SECRET",
        ],
      ], env);
      equal(result.stderr, "", scheme);
      equal(result.code, 0, scheme);
      equal(JSON.parse(result.stdout).id, "flytesnacks");
      // gRPC does not use admin.httpProxyURL; the token request goes to the authorization server through SOCKS.
      deepEqual(proxy.targets, [new URL(sandbox.auth!.tokenEndpoint).host], scheme);
    }
  } finally {
    await sandbox.close();
    proxy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

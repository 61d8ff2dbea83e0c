/**
 * TLS against the in-process admin service serving a self-signed certificate: trusted through
 * admin.caCertFilePath, accepted with admin.insecureSkipVerify (with one warning), refused otherwise.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { startSandbox } from "../src/sandbox/mod.ts";
import { runFctl } from "./helpers.ts";

const CERT = new URL("../src/sandbox/testdata/localhost_cert.pem", import.meta.url).pathname;
const KEY = new URL("../src/sandbox/testdata/localhost_key.pem", import.meta.url).pathname;

async function withTlsSandbox(fn: (endpoint: string, port: number) => Promise<void>) {
  const sandbox = await startSandbox({
    tls: { cert: await Deno.readTextFile(CERT), key: await Deno.readTextFile(KEY) },
  });
  try {
    await fn(sandbox.endpoint, sandbox.port);
  } finally {
    await sandbox.close();
  }
}

const scope = ["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.maxRetries", "1"];

Deno.test("TLS: the CA file makes the self-signed admin trusted, in every endpoint form", async () => {
  await withTlsSandbox(async (endpoint, port) => {
    for (const form of [endpoint, `dns:///127.0.0.1:${port}`, `localhost:${port}`, ` https://localhost:${port}/ `]) {
      const result = await runFctl([...scope, "--admin.endpoint", form, "--admin.caCertFilePath", CERT]);
      equal(result.stderr, "", form);
      equal(result.code, 0, form);
      assert(result.stdout.endsWith("0 rows\n"), result.stdout);
    }
  });
});

Deno.test("TLS: the CA file can come from the config file", async () => {
  await withTlsSandbox(async (endpoint) => {
    const config = await Deno.makeTempFile({ suffix: ".yaml" });
    try {
      await Deno.writeTextFile(config, `admin:\n  endpoint: ${endpoint}\n  caCertFilePath: ${CERT}\n`);
      const result = await runFctl([...scope, "-c", config]);
      equal(result.stderr, "");
      equal(result.code, 0);
    } finally {
      await Deno.remove(config);
    }
  });
});

Deno.test("TLS: insecureSkipVerify connects and warns once on stderr", async () => {
  await withTlsSandbox(async (endpoint) => {
    const result = await runFctl([...scope, "--admin.endpoint", endpoint, "--admin.insecureSkipVerify"]);
    equal(result.code, 0);
    const lines = result.stderr.split("\n").filter(Boolean);
    equal(lines.length, 1, result.stderr);
    match(lines[0], /^\{"json":\{\},"level":"warning","msg":"admin.insecureSkipVerify is set: .*not verified"/);
  });
});

Deno.test("TLS: without the CA or skip-verify the certificate is refused, naming the connection", async () => {
  await withTlsSandbox(async (endpoint) => {
    const result = await runFctl([...scope, "--admin.endpoint", endpoint]);
    equal(result.code, 1);
    match(
      result.stderr,
      /^Error: connection to https:\/\/127\.0\.0\.1:\d+ \(insecure: false, auth: none\): ListTasks failed: Unavailable: .*(certificate|cert|issuer)/i,
    );
    equal(result.stderr.split("\n").length, 2, "one line");
  });
});

Deno.test("TLS: a plaintext client against the TLS admin fails; admin.insecure wins over https://", async () => {
  await withTlsSandbox(async (endpoint) => {
    const result = await runFctl([...scope, "--admin.endpoint", endpoint, "--admin.insecure"]);
    equal(result.code, 1);
    match(result.stderr, /^Error: connection to http:\/\/127\.0\.0\.1:\d+ \(insecure: true, auth: none\)/);
  });
});

Deno.test("TLS: a missing CA file is a usage error naming it", async () => {
  const result = await runFctl([...scope, "--admin.endpoint", "localhost:1", "--admin.caCertFilePath", "/no/ca.pem"]);
  equal(result.code, 2);
  equal(result.stderr, 'Error: cannot read admin.caCertFilePath "/no/ca.pem": no such file\n');
});

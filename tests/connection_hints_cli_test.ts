/**
 * The hint that ends a connection error says what happened, as a fresh `fctl` process under the declared
 * permissions prints it: TLS spoken to a plaintext admin, plaintext to a TLS one, a certificate refused, an
 * UNAVAILABLE the admin sent itself, a redirect (a sign-in proxy in front of the admin), and a connection that
 * could not be made. Only the last asks whether the admin is running.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { startSandbox } from "../src/sandbox/mod.ts";
import { withRawServer } from "../src/admin/_test_raw_http2_server.ts";
import { runFctlProcess } from "./helpers.ts";

const CERT = new URL("../src/sandbox/testdata/localhost_cert.pem", import.meta.url).pathname;
const KEY = new URL("../src/sandbox/testdata/localhost_key.pem", import.meta.url).pathname;
const GET = ["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.maxRetries", "1"];

/** The one stderr line of a failed run, after checking there is one and that the run failed with exit 1. */
function errorLine(result: { code: number; stdout: string; stderr: string }): string {
  equal(result.code, 1, result.stderr);
  equal(result.stdout, "");
  const lines = result.stderr.split("\n");
  equal(lines.length, 2, result.stderr);
  equal(lines[1], "");
  return lines[0];
}

Deno.test("hints: TLS to a plaintext admin says it does not speak TLS, not that its certificate was refused", async () => {
  const plain = await startSandbox();
  try {
    const endpoint = `https://127.0.0.1:${plain.port}`;
    const line = errorLine(
      await runFctlProcess([...GET, "--admin.endpoint", endpoint, "--admin.caCertFilePath", CERT]),
    );
    match(line, new RegExp(`^Error: connection to ${endpoint} \\(insecure: false, auth: none\\): ListTasks failed: `));
    assert(line.endsWith(" (the server does not speak TLS; is admin.insecure right for it?)"), line);
    assert(!/certificate|running/.test(line), line);
    equal(plain.requests.length, 0);
  } finally {
    await plain.close();
  }
});

Deno.test("hints: plaintext to a TLS admin, and a refused certificate, never ask whether the admin is running", async () => {
  const tls = await startSandbox({ tls: { cert: await Deno.readTextFile(CERT), key: await Deno.readTextFile(KEY) } });
  try {
    const plaintext = errorLine(await runFctlProcess([...GET, "--admin.endpoint", tls.endpoint, "--admin.insecure"]));
    match(plaintext, /^Error: connection to http:\/\/127\.0\.0\.1:\d+ \(insecure: true, auth: none\): /);
    assert(
      plaintext.endsWith(
        " (a server is there, but closed the connection: is admin.insecure right for it, and is this its gRPC endpoint?)",
      ),
      plaintext,
    );
    assert(!plaintext.includes("running"), plaintext);

    const untrusted = errorLine(await runFctlProcess([...GET, "--admin.endpoint", tls.endpoint]));
    match(untrusted, /ListTasks failed: Unavailable: TLS: the server certificate was refused: .*certificate/);
    assert(untrusted.endsWith(" (trust its CA with admin.caCertFilePath)"), untrusted);
    assert(!untrusted.includes("running"), untrusted);
  } finally {
    await tls.close();
  }
});

Deno.test("hints: an UNAVAILABLE the admin sent says it answered; a refused connection asks whether it runs", async () => {
  const sandbox = await startSandbox();
  const { endpoint } = sandbox;
  try {
    sandbox.failRatio("ListTasks", Code.Unavailable, 1);
    const answered = errorLine(await runFctlProcess([...GET, "--admin.endpoint", endpoint]));
    equal(
      answered,
      `Error: connection to ${endpoint} (insecure: true, auth: none): ListTasks failed: Unavailable: ` +
        "sandbox: injected Unavailable for ListTasks " +
        "(the admin answered UNAVAILABLE itself: it is running, but could not serve the call)",
    );
  } finally {
    await sandbox.close();
  }
  // The same port, nobody listening any more.
  const refused = errorLine(await runFctlProcess([...GET, "--admin.endpoint", endpoint]));
  match(refused, /ListTasks failed: Unavailable: connect ECONNREFUSED /);
  assert(refused.endsWith(` (is the admin service running at ${endpoint}?)`), refused);
});

Deno.test("hints: a redirect (a sign-in proxy in front of the admin) names where it goes, without its query", async () => {
  const login = "https://login.example.com/oauth2/start";
  const redirect = (stream: { respond(headers: Record<string, string | number>): void; end(body: string): void }) => {
    stream.respond({ ":status": 302, location: `${login}?rd=%2F&state=s3cr3t-state`, "content-type": "text/html" });
    stream.end(`<a href="${login}">Found</a>.`);
  };
  await withRawServer(redirect, async ({ endpoint, seen }) => {
    const line = errorLine(await runFctlProcess([...GET, "--admin.endpoint", endpoint]));
    equal(
      line,
      `Error: connection to ${endpoint} (insecure: true, auth: none): ListTasks failed: Unknown: HTTP 302, a ` +
        `redirect to ${login} (something in front of the admin sends callers elsewhere, a sign-in page perhaps, ` +
        "and a gRPC call cannot follow it: is admin.endpoint the admin's gRPC endpoint? An identity-aware proxy's " +
        "credentials go in admin.proxyCommand)",
    );
    assert(!line.includes("s3cr3t"), line);
    assert(seen.length >= 1);
  });
});

/**
 * No secret leaves `connect`'s connection in an error: the command line hides secrets where it prints, but a
 * program prints (or logs, or reports) `err.message` itself. A password in the endpoint, and a client secret that a
 * hostile token endpoint echoes into its error, are hidden from every error `connect`, its client's calls and the
 * library calls made with it throw (message, stack, `serverMessage`, every cause).
 */
import { equal, match, ok as assert, rejects } from "node:assert/strict";
import {
  AdminError,
  connect,
  describeConfig,
  FctlError,
  getTask,
  loadConfig,
  registerFiles,
  UsageError,
} from "../mod.ts";
import { startSandbox } from "../testing.ts";
import { type SeenRequest, startTlsServer } from "../src/http/_test_tls.ts";
import { fixture } from "./helpers.ts";

const SECRET = "Lib s3cret/+value";
const CLIENT_ID = "library-client";

/** Every text an error carries: its message, stack and server message, and its causes'. */
function errorTexts(err: unknown): string[] {
  const texts: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    texts.push(e.message, e.stack ?? "");
    if (e instanceof AdminError) texts.push(e.serverMessage);
  }
  return texts;
}

function assertNoSecret(err: unknown, secretForms: string[], label: string): void {
  for (const text of errorTexts(err)) {
    for (const form of secretForms) assert(!text.includes(form), `${label}: ${JSON.stringify(form)} in ${text}`);
  }
}

Deno.test("connect: a password in the endpoint is not in the UsageError naming the endpoint", async () => {
  const password = "Pa55w0rd%2Fsecret";
  for (const endpoint of [`http://user:${password}@127.0.0.1:1`, `https://user:${password}@127.0.0.1:1`]) {
    await rejects(connect({ flags: { "admin.endpoint": endpoint }, env: {} }), (err) => {
      assert(err instanceof UsageError, String(err));
      match(err.message, /^invalid admin endpoint "https?:\/\/user:\[redacted\]@127\.0\.0\.1:1"/);
      assertNoSecret(err, ["Pa55w0rd"], endpoint);
      return true;
    });
  }
});

Deno.test("connect: a token endpoint echoing the client secret: the errors of getTask and registerFiles do not hold it", async () => {
  const echo = (request: SeenRequest) =>
    Response.json({
      error: "invalid_client",
      error_description: `${request.headers.get("authorization")} for ${new TextDecoder().decode(request.bytes)}`,
    }, { status: 400 });
  const server = await startTlsServer((request) =>
    new URL(request.url).pathname === "/oauth2/token" ? echo(request) : new Response("", { status: 404 })
  );
  const sandbox = await startSandbox({ production: { advertisedIssuer: server.url } });
  const dir = await Deno.makeTempDir({ prefix: "fctl-library-secrets-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}\n${server.caCert}\n`);
    await using flyte = await connect({
      flags: {
        "admin.endpoint": sandbox.endpoint,
        "admin.caCertFilePath": `${dir}/ca.pem`,
        "admin.clientId": CLIENT_ID,
        "admin.clientSecretEnvVar": "FLYTE_SECRET",
        "admin.maxRetries": 1,
      },
      env: { FLYTE_SECRET: SECRET },
      log: { write: () => {} },
    });
    const forms = [
      SECRET,
      encodeURIComponent(SECRET),
      new URLSearchParams([["", SECRET]]).toString().slice(1),
      btoa(`${CLIENT_ID}:${SECRET}`),
    ];
    const scope = { project: "flytesnacks", domain: "development" };
    await rejects(getTask(flyte.client, scope), (err) => {
      assert(err instanceof FctlError, String(err));
      match(err.message, /token request to .* failed: invalid_client: .*\[redacted\]/);
      assertNoSecret(err, forms, "getTask");
      return true;
    });
    const report = await registerFiles(flyte.client, {
      paths: [fixture("flytesnacks-core.tgz")],
      archive: true,
      ...scope,
      version: "v1",
    });
    assert(report.error !== undefined || report.failed > 0, "the registration failed");
    if (report.error) assertNoSecret(report.error, forms, "registerFiles error");
    for (const entry of report.entries) {
      for (const form of forms) assert(!entry.info.includes(form), `registerFiles row: ${entry.info}`);
    }
    equal(server.seen.length > 0, true, "the token endpoint was asked");
  } finally {
    await sandbox.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("describeConfig hides what the command line hides: secret options, a URL's password, storage credentials", async () => {
  const loaded = await loadConfig({
    flags: {
      "admin.httpProxyURL": "http://proxy-user:Pr0xyPass%2Fword@proxy.internal:3128",
      "storage.connection.secret-key": "S3cretKey/value",
      "storage.connection.access-key": "AKIAEXAMPLEKEY",
      "storage.stow.config": 'json={"private_key":"-----PRIVATE-----"},project_id=my-project',
    },
    env: {},
    readTextFile: () => Promise.reject(new Deno.errors.NotFound("no config file")),
  });
  const rows = describeConfig(loaded);
  const shown = JSON.stringify(rows);
  for (const secret of ["Pr0xyPass", "S3cretKey", "AKIAEXAMPLEKEY", "-----PRIVATE-----"]) {
    assert(!shown.includes(secret), `${secret} in ${shown}`);
  }
  const row = (key: string) => rows.find((r) => r.key === key);
  equal(row("admin.httpProxyURL")?.value, "http://proxy-user:[redacted]@proxy.internal:3128");
  equal(row("admin.httpProxyURL")?.json, "http://proxy-user:[redacted]@proxy.internal:3128");
  equal(row("storage.connection.secret-key")?.value, "[redacted]");
  equal(row("storage.connection.access-key")?.value, "[redacted]");
  match(row("storage.stow.config")?.value ?? "", /project_id=my-project/);
});

/**
 * Redirects that would take a call where it must not go: from `https://` to plain `http://` (a release asset, an
 * archive given by URL, an upload to a signed URL), as a hostile or misconfigured server answers. Each run is a fresh
 * fctl process under the declared permissions against a production-shaped admin (TLS, OAuth); the HTTPS servers are
 * trusted through the same CA file, the plain HTTP one records what reached it.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { startTlsServer } from "../src/http/_test_tls.ts";
import { fixture, runFctlProcess } from "./helpers.ts";

const TOKEN = "ghp_redirect_test_token_0123456789";

/** A plain HTTP server that serves `file` at every path, recording each request's method, path and query. */
async function withPlainServer(file: string, fn: (url: string, seen: string[]) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const bytes = await Deno.readFile(file);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}${new URL(req.url).search}`);
    await req.body?.cancel();
    return new Response(bytes.slice());
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

Deno.test("a release asset or an archive URL redirecting from https to plain http: not followed, one line naming both URLs, exit 1, nothing registered", async () => {
  await withPlainServer(fixture("valid-register.tgz"), async (plain, seen) => {
    const github = await startTlsServer((request) => {
      const url = new URL(request.url);
      if (url.pathname === "/repos/flyteorg/flytesnacks/releases/latest") {
        const asset = {
          name: "valid-register.tgz",
          size: 1,
          browser_download_url: `${url.origin}/a/valid-register.tgz`,
        };
        return Response.json({ tag_name: "v1", assets: [asset] });
      }
      // Every download moves to the plain server, with a signed query.
      return new Response(null, { status: 302, headers: { location: `${plain}${url.pathname}?sig=moved-secret` } });
    });
    const sandbox = await startSandbox({ production: true });
    const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-redirect-" });
    try {
      await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${github.caCert}`);
      const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
      flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
      const env = { HOME: `${dir}/home`, FLYTE_SECRET: SANDBOX_CLIENT.secret };
      const examples = await runFctlProcess(["register", "examples", ...flags, "--logger.level", "5"], {
        ...env,
        GITHUB_API_URL: github.url,
        GITHUB_TOKEN: TOKEN,
      });
      const files = await runFctlProcess(
        ["register", "files", "--archive", `${github.url}/b/valid-register.tgz?sig=first`, "--version", "v1", ...flags],
        env,
      );
      // Before, both downloads went on over plain http and registered the archive (exit 0).
      equal(examples.code, 1, examples.stderr);
      const errors = examples.stderr.split("\n").filter((line) => line.startsWith("Error: "));
      deepEqualLines(errors, [
        /^Error: cannot register asset "valid-register\.tgz" of release "v1": cannot download "https:\/\/127\.0\.0\.1:\d+\/a\/valid-register\.tgz": GET https:\/\/127\.0\.0\.1:\d+\/a\/valid-register\.tgz was redirected to http:\/\/127\.0\.0\.1:\d+\/a\/valid-register\.tgz: a redirect from https to plain http is not followed$/,
      ]);
      ok(!`${examples.stdout}${examples.stderr}`.includes(TOKEN), "the token is never shown");
      equal(files.code, 1, files.stderr);
      match(
        files.stderr,
        /^Error: cannot download "https:\/\/127\.0\.0\.1:\d+\/b\/valid-register\.tgz": GET https:\/\/127\.0\.0\.1:\d+\/b\/valid-register\.tgz was redirected to http:\/\/127\.0\.0\.1:\d+\/b\/valid-register\.tgz: a redirect from https to plain http is not followed\n$/,
      );
      for (const output of [examples.stderr, files.stderr]) ok(!/moved-secret|sig=first/.test(output), output);
      equal(seen.length, 0, `the plain server was asked: ${seen.join(", ")}`);
      equal(sandbox.store.tasks().length, 0);
      // GITHUB_TOKEN went to the API's host (the release and its asset's download) and not on to the redirect.
      const examplesCalls = github.seen.filter((request) => !new URL(request.url).pathname.startsWith("/b/"));
      deepEqual(examplesCalls.map((request) => request.headers.get("authorization")), [
        `Bearer ${TOKEN}`,
        `Bearer ${TOKEN}`,
      ]);
    } finally {
      await sandbox.close();
      await github.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
});

/** Each of `lines` matches the pattern at its place, and there are as many. */
function deepEqualLines(lines: string[], patterns: RegExp[]): void {
  equal(lines.length, patterns.length, lines.join("\n"));
  for (const [i, pattern] of patterns.entries()) match(lines[i], pattern);
}

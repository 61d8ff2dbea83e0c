/**
 * `register examples` downloads only `https://` asset URLs (or, for a GitHub API on plain `http://` loopback, that
 * API's own origin): a release answer that names a local path, a `file://` or storage URI, or plain `http://`
 * elsewhere is refused in one line naming the URL (exit 1) before anything is downloaded, read or registered. Fresh
 * fctl processes under the declared permissions, against the production sandbox (TLS, OAuth) and a GitHub API over
 * https trusted through the CA file.
 */
import { deepEqual, equal } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { startTlsServer } from "../src/http/_test_tls.ts";
import { fixture, runFctlProcess } from "./helpers.ts";

const RELEASES = "/repos/flyteorg/flytesnacks/releases/tags/";

/** A release asset as the GitHub API names it. */
const asset = (name: string, url: string) => ({ name, size: 1, browser_download_url: url });

Deno.test("register examples refuses asset URLs that are not https:// before anything is downloaded or registered", async () => {
  const sandbox = await startSandbox({ production: true });
  const core = await Deno.readFile(fixture("flytesnacks-core.tgz"));
  // Each tag is a release whose last archive asset is the one to refuse; the first of "mixed" is a good download.
  const releases: Record<string, ReturnType<typeof asset>[]> = {};
  const github = await startTlsServer((req) => {
    const path = new URL(req.url).pathname;
    const tag = path.startsWith(RELEASES) ? path.slice(RELEASES.length) : undefined;
    if (tag && releases[tag]) return Response.json({ tag_name: tag, assets: releases[tag] });
    if (path === "/download/flytesnacks-core.tgz") return new Response(core);
    return Response.json({ message: "Not Found" }, { status: 404 });
  });
  const dir = await Deno.makeTempDir({ prefix: "fctl-asset-urls-" });
  try {
    const local = fixture("valid-register.tgz");
    const refused: Record<string, [string, string]> = {
      "local-path": ["valid-register.tgz", local],
      "parent-path": ["valid-register.tgz", "../shared/fixtures/flytectl/valid-register.tgz"],
      "file-uri": ["passwd.tgz", "file:///etc/passwd.tgz"],
      "file-uri-fixture": ["valid-register.tgz", `file://${local}`],
      "s3-uri": ["core.tgz", "s3://my-s3-bucket/flytesnacks-core.tgz"],
      "plain-http": ["core.tgz", `${github.url.replace("https:", "http:")}/download/flytesnacks-core.tgz`],
      "mixed": ["passwd.tar", "file:///etc/passwd.tar"],
    };
    for (const [tag, [name, url]] of Object.entries(refused)) {
      releases[tag] = [
        ...(tag === "mixed" ? [asset("flytesnacks-core.tgz", `${github.url}/download/flytesnacks-core.tgz`)] : []),
        asset(name, url),
        asset("checksums.txt", "file:///etc/shadow"),
      ];
    }
    const ca = `${dir}/ca.pem`;
    await Deno.writeTextFile(ca, `${sandbox.caCertificate!}\n${github.caCert}`);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    const env = { FLYTE_SECRET: SANDBOX_CLIENT.secret, GITHUB_API_URL: github.url };
    for (const [tag, [name, url]] of Object.entries(refused)) {
      github.seen.length = 0;
      const result = await runFctlProcess([
        ...["register", "examples", "--version", tag, ...flags],
        ...["--admin.caCertFilePath", ca, "--admin.clientSecretEnvVar", "FLYTE_SECRET"],
      ], env);
      equal(result.code, 1, `${tag}: ${result.stderr}`);
      equal(
        result.stderr,
        `Error: release "${tag}" of flyteorg/flytesnacks names asset "${name}" at ${JSON.stringify(url)}: ` +
          "only https:// downloads are allowed; nothing was downloaded or registered\n",
        tag,
      );
      equal(result.stdout, "", tag);
      deepEqual(github.seen.map((r) => new URL(r.url).pathname), [`${RELEASES}${tag}`], `${tag}: nothing downloaded`);
    }
    deepEqual(sandbox.requests.map((r) => r.method), [], "nothing was registered");
    equal(sandbox.uploads.size, 0);
  } finally {
    await github.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("register examples with a GitHub API on plain http loopback downloads its own origin only", async () => {
  const sandbox = await startSandbox();
  let otherRequests = 0;
  const other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    otherRequests++;
    return new Response("never asked");
  });
  const seen: string[] = [];
  const api = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    const url = `http://127.0.0.1:${other.addr.port}/download/valid-register.tgz`;
    return Response.json({ tag_name: "v1", assets: [asset("valid-register.tgz", url)] });
  });
  try {
    const origin = `http://127.0.0.1:${api.addr.port}`;
    const result = await runFctlProcess(
      ["register", "examples", "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
      { GITHUB_API_URL: origin },
    );
    equal(result.code, 1, result.stderr);
    equal(
      result.stderr,
      `Error: release "v1" of flyteorg/flytesnacks names asset "valid-register.tgz" at ` +
        `"http://127.0.0.1:${other.addr.port}/download/valid-register.tgz": only https:// downloads, or the GitHub ` +
        `API's own ${origin}, are allowed; nothing was downloaded or registered\n`,
    );
    deepEqual(seen, ["/repos/flyteorg/flytesnacks/releases/latest"]);
    equal(otherRequests, 0);
    deepEqual(sandbox.requests, []);
  } finally {
    await api.shutdown();
    await other.shutdown();
    await sandbox.close();
  }
});

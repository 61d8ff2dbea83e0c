/**
 * `runCli`'s injected dependencies: a command uses the admin client or HTTP client it is given instead of
 * building one from the configuration, and leaves it open for its owner.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { runCli } from "../src/cli/run.ts";
import type { HttpClient } from "../src/http/http_client.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { captureIo, fixture } from "./helpers.ts";
import { seedTasks } from "./task_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

Deno.test("get task uses the injected admin client, not admin.endpoint, and leaves it open", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, [{ name: "core.basic.hello", version: "v1" }, { name: "core.basic.hello", version: "v2" }]);
    const io = captureIo();
    // The configured endpoint answers nothing: only the injected client can reach the sandbox.
    const args = [
      "get",
      "task",
      "core.basic.hello",
      "--latest",
      "-o",
      "json",
      ...SCOPE,
      "--admin.endpoint",
      "dns:///127.0.0.1:1",
    ];
    const code = await runCli(args, io, undefined, { admin: client });
    equal(io.err(), "");
    equal(code, 0);
    equal(JSON.parse(io.out()).id.version, "v2");
    // Still usable: the run closed only what it built itself.
    const again = await client.admin.listTasks({ id: { project: "flytesnacks", domain: "development" }, limit: 1 });
    equal(again.tasks.length, 1);
  } finally {
    client.close();
    await sandbox.close();
  }
});

/** An HTTP client whose `fetch` answers in memory: a fake GitHub API and its release asset. */
function fakeGitHub(): HttpClient & { seen: string[]; closed: boolean } {
  const seen: string[] = [];
  const fake = {
    seen,
    closed: false,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      seen.push(`${url.host}${url.pathname}`);
      if (url.pathname === "/repos/flyteorg/flytesnacks/releases/latest") {
        return Response.json({
          tag_name: "v9.9.9",
          assets: [{ name: "valid-register.tgz", size: 1, browser_download_url: "https://assets.invalid/v.tgz" }],
        });
      }
      if (url.href === "https://assets.invalid/v.tgz") {
        return new Response(await Deno.readFile(fixture("valid-register.tgz")));
      }
      return Response.json({ message: "Not Found" }, { status: 404 });
    },
    put: () => Promise.reject(new Error("no upload expected")),
    // A client may ignore the hint.
    prefetch: () => {},
    close: () => void (fake.closed = true),
  };
  return fake;
}

Deno.test("register examples reads the release and its assets through the injected HTTP client", async () => {
  const sandbox = await startSandbox();
  const http = fakeGitHub();
  try {
    const io = captureIo({ env: { GITHUB_API_URL: "https://github-api.invalid" } });
    const args = ["register", "examples", "--dryRun", "-o", "json", ...SCOPE, "--admin.endpoint", sandbox.endpoint];
    const code = await runCli(args, io, undefined, { http });
    equal(io.err(), "");
    equal(code, 0);
    const report = JSON.parse(io.out());
    equal(report.release, "v9.9.9");
    deepEqual(report.assets.map((a: { asset: string }) => a.asset), ["valid-register.tgz"]);
    assert(report.assets[0].report.entries.length > 0);
    // No network: both calls reached the fake; the run left the injected client to its owner.
    deepEqual(http.seen, ["github-api.invalid/repos/flyteorg/flytesnacks/releases/latest", "assets.invalid/v.tgz"]);
    equal(http.closed, false);
  } finally {
    await sandbox.close();
  }
});

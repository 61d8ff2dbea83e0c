import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fixture } from "./_test_helpers.ts";
import { registerExamples } from "./register_examples.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";

/** A GitHub API on loopback whose latest flytesnacks release has one asset, served by the same server. */
async function withGitHub(fn: (apiUrl: string) => Promise<void>): Promise<void> {
  const asset = await Deno.readFile(fixture("valid-register.tgz"));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/repos/flyteorg/flytesnacks/releases/latest") {
      const download = `${url.origin}/assets/valid-register.tgz`;
      return Response.json({
        tag_name: "v9.9.9",
        assets: [{ name: "valid-register.tgz", size: asset.length, browser_download_url: download }],
      });
    }
    if (url.pathname === "/assets/valid-register.tgz") return new Response(asset);
    return Response.json({ message: "Not Found" }, { status: 404 });
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

Deno.test("registerExamples with a client made on demand: a dry run never makes it, a registration once", async () => {
  await withSandbox(async (sandbox, client) => {
    await withGitHub(async (githubApiUrl) => {
      const made: string[] = [];
      const admin = (what: string) => () => {
        made.push(what);
        return Promise.resolve(client);
      };
      const options = { project: "flytesnacks", domain: "development" };
      const dry = await registerExamples(admin("dry run"), { ...options, dryRun: true }, undefined, { githubApiUrl });
      assertEquals(dry.assets.map((a) => [a.asset, a.report?.entries.length, a.report?.dryRun]), [
        ["valid-register.tgz", 4, true],
      ]);
      assertEquals(made, []);
      const real = await registerExamples(admin("registration"), options, undefined, { githubApiUrl });
      assertEquals(real.failed, 0);
      assertEquals(made, ["registration"]);
      assertEquals(sandbox.requests.length, 4);
    });
  });
});

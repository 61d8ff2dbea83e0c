import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fixture } from "./_test_helpers.ts";
import { registerExamples } from "./register_examples.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { createHttpClient } from "../http/http_client.ts";

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

Deno.test("registerExamples starts the next asset's download during the current one, and cancels it when it stops early", async () => {
  const valid = await Deno.readFile(fixture("valid-register.tgz"));
  const requests: string[] = [];
  let cancelled = 0;
  let held: ReadableStreamDefaultController<Uint8Array> | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    requests.push(url.pathname);
    if (url.pathname === "/repos/flyteorg/flytesnacks/releases/latest") {
      const asset = (name: string) => ({ name, size: 1, browser_download_url: `${url.origin}/assets/${name}` });
      return Response.json({ tag_name: "v9.9.9", assets: [asset("truncated.tgz"), asset("valid-register.tgz")] });
    }
    if (url.pathname === "/assets/truncated.tgz") {
      // A valid start, then a long wait and a cut: the next asset's download is asked for while this one is read.
      return new Response(
        new ReadableStream({
          async pull(controller) {
            controller.enqueue(valid.subarray(0, 512));
            await new Promise((resolve) => setTimeout(resolve, 300));
            controller.close();
          },
        }),
      );
    }
    // The second asset sends its first bytes and waits: only a cancel ends it.
    return new Response(
      new ReadableStream({
        start: (controller) => void (held = controller, controller.enqueue(valid.subarray(0, 1024))),
        cancel: () => void cancelled++,
      }),
    );
  });
  // The caller's HTTP client stays open: registerExamples itself must cancel what it started.
  const http = createHttpClient();
  try {
    const githubApiUrl = `http://127.0.0.1:${server.addr.port}`;
    const options = { project: "flytesnacks", domain: "development", dryRun: true };
    const failed = await registerExamples(
      async () => await Promise.reject(new Error("no client")),
      options,
      undefined,
      {
        githubApiUrl,
        http,
      },
    ).then(() => undefined, (err: Error) => err.message);
    assertEquals(/asset "truncated.tgz"/.test(failed ?? ""), true, failed);
    // Both downloads were asked for (on connections of their own, in either order) before the first one failed.
    assertEquals(requests[0], "/repos/flyteorg/flytesnacks/releases/latest");
    assertEquals(requests.slice(1).sort(), ["/assets/truncated.tgz", "/assets/valid-register.tgz"]);
    for (let waited = 0; cancelled === 0 && waited < 5_000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assertEquals(cancelled, 1);
  } finally {
    http.close();
    try {
      held?.close();
    } catch {
      // cancelled
    }
    await server.shutdown();
  }
});

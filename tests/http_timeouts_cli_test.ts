/**
 * Servers that stall never hang a command: `register files --archive http://…` and `register examples` (the
 * GitHub API) against real loopback servers that stop before their headers or in the middle of a body.
 */
import { equal, match } from "node:assert/strict";
import { startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl } from "./helpers.ts";
import { withMuteServer } from "../src/http/_test_mute_server.ts";

/** An HTTP server whose bodies send their first 1,000 bytes of `file`, then stall until the test ends. */
async function withStallingBody(file: string, fn: (url: string) => Promise<void>) {
  const bytes = await Deno.readFile(file);
  const release = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(bytes.slice(0, 1000));
          await release.promise;
          controller.close();
        },
      }),
    ));
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    release.resolve();
    await server.shutdown();
  }
}

const SHORT = ["--http.headersTimeout", "300ms", "--http.idleTimeout", "300ms", "--logger.mute"];

async function registerArchive(url: string, extra: string[] = SHORT) {
  const sandbox = await startSandbox();
  try {
    return await runFctl([
      "register",
      "files",
      "--archive",
      url,
      "--version",
      "v1",
      "-p",
      "flytesnacks",
      "-d",
      "development",
      "--admin.endpoint",
      sandbox.endpoint,
      ...extra,
    ]);
  } finally {
    await sandbox.close();
  }
}

Deno.test("register files --archive: a server silent before its headers fails naming the URL and the timeout", async () => {
  await withMuteServer(async ({ url: base }) => {
    const { code, stderr } = await registerArchive(`${base}/pkg.tgz?sig=secret`);
    equal(code, 1);
    match(
      stderr,
      /^Error: cannot download "http:\/\/127\.0\.0\.1:\d+\/pkg\.tgz": GET http:\/\/127\.0\.0\.1:\d+\/pkg\.tgz timed out: no response headers within 300ms \(http\.headersTimeout\)\n$/,
    );
  });
});

Deno.test("register files --archive: a body that stalls midway fails naming the URL and the idle timeout", async () => {
  await withStallingBody(fixture("valid-register.tgz"), async (base) => {
    const { code, stderr } = await registerArchive(`${base}/valid-register.tgz`);
    equal(code, 1);
    match(
      stderr,
      /^Error: GET http:\/\/127\.0\.0\.1:\d+\/valid-register\.tgz timed out: no data for 300ms in the middle of the response body \(http\.idleTimeout\)\n$/,
    );
  });
});

Deno.test("register files --archive: storage.defaultHttpClient.timeout bounds the whole download", async () => {
  await withStallingBody(fixture("valid-register.tgz"), async (base) => {
    const { code, stderr } = await registerArchive(`${base}/valid-register.tgz`, [
      "--storage.defaultHttpClient.timeout",
      "300ms",
      "--logger.mute",
    ]);
    equal(code, 1);
    match(stderr, /timed out: not finished within 300ms \(storage\.defaultHttpClient\.timeout\)\n$/);
  });
});

/** `register examples` against a sandbox, with the GitHub API at `githubApi`, short timeouts: exit code and stderr. */
async function registerExamples(githubApi: string): Promise<{ code: number; stderr: string }> {
  const sandbox = await startSandbox();
  try {
    const args = ["register", "examples", "-p", "flytesnacks", "-d", "development", "--admin.endpoint"];
    return await runFctl([...args, sandbox.endpoint, ...SHORT], { env: { GITHUB_API_URL: githubApi } });
  } finally {
    await sandbox.close();
  }
}

Deno.test("register examples: a GitHub API silent before its headers fails naming it and the timeout", async () => {
  await withMuteServer(async ({ url: base }) => {
    const { code, stderr } = await registerExamples(base);
    equal(code, 1);
    match(
      stderr,
      /^Error: cannot reach the GitHub API at "http:\/\/127\.0\.0\.1:\d+": GET http:\/\/127\.0\.0\.1:\d+\/repos\/flyteorg\/flytesnacks\/releases\/latest timed out: no response headers within 300ms \(http\.headersTimeout\)\n$/,
    );
  });
});

Deno.test("register examples: a GitHub API answer that stalls midway fails naming it and http.headersTimeout, within which it is due whole", async () => {
  await withStallingBody(fixture("valid-register.tgz"), async (base) => {
    const { code, stderr } = await registerExamples(base);
    equal(code, 1);
    match(
      stderr,
      /^Error: cannot reach the GitHub API at "http:\/\/127\.0\.0\.1:\d+": GET http:\/\/127\.0\.0\.1:\d+\/repos\/flyteorg\/flytesnacks\/releases\/latest timed out: no complete answer within 300ms \(http\.headersTimeout\)\n$/,
    );
  });
});

/**
 * Servers that misbehave never hang fctl nor fill its memory: each case runs fresh fctl processes under the declared
 * permissions against a production-shaped admin (TLS, OAuth) and a real loopback server that stalls, trickles or
 * answers without end, with a time and a memory guard on each process (its peak RSS, polled while it runs).
 */
import { ok } from "node:assert/strict";
import { packTar, unpackTar } from "modern-tar";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { startTlsServer } from "../src/http/_test_tls.ts";
import { endStalledBodies } from "../src/http/_test_bodies.ts";
import { fixture } from "./helpers.ts";
import { assertFailedWith, described, guardedFctl } from "./guarded_fctl.ts";

/** A production-shaped admin, a CA file trusting it and `extraCa`, and the flags and environment of a run. */
async function withProduction(
  options: { dataProxy?: boolean; extraCa?: string },
  fn: (setup: { flags: string[]; env: (run: number) => Record<string, string> }) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox({ production: true, dataProxy: options.dataProxy });
  const dir = await Deno.makeTempDir({ prefix: "fctl-misbehaving-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${options.extraCa ?? ""}`);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    // A HOME of its own per run, which does not exist: no token cache shared between runs.
    const env = (run: number) => ({ HOME: `${dir}/home-${run}`, FLYTE_SECRET: SANDBOX_CLIENT.secret });
    await fn({ flags, env });
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** A body that never ends: `head`, then 64 KiB chunks of `fill` as fast as they are read. */
function endless(head: string, fill: string, bodies: ReadableStreamDefaultController<Uint8Array>[]) {
  const chunk = new TextEncoder().encode(fill.repeat(Math.ceil(65536 / fill.length)));
  let first = true;
  return new ReadableStream<Uint8Array>({
    start: (controller) => void bodies.push(controller),
    pull(controller) {
      controller.enqueue(first ? new TextEncoder().encode(head) : chunk);
      first = false;
    },
  });
}

/** A body that sends `head`, then a byte every `everyMs`, never ending. */
function trickle(head: string, everyMs: number, bodies: ReadableStreamDefaultController<Uint8Array>[]) {
  let timer: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      bodies.push(controller);
      controller.enqueue(new TextEncoder().encode(head));
      timer = setInterval(() => {
        try {
          controller.enqueue(new TextEncoder().encode(" "));
        } catch {
          clearInterval(timer);
        }
      }, everyMs);
    },
    cancel: () => clearInterval(timer),
  });
}

Deno.test("a token or authorization server metadata answer without end: exit 1 naming the call and the 1 MiB limit, memory bounded", async () => {
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  const auth = await startTlsServer(() =>
    new Response(endless('{"access_token":"', "a", bodies), { headers: { "content-type": "application/json" } })
  );
  try {
    await withProduction({ extraCa: auth.caCert }, async ({ flags, env }) => {
      const get = ["get", "task", ...flags];
      const [token, metadata] = await Promise.all([
        guardedFctl([...get, "--admin.tokenUrl", `${auth.url}/oauth2/token?tenant=secret`], env(1), 60_000),
        guardedFctl([...get, "--admin.authorizationServerUrl", `${auth.url}/issuer`], env(2), 60_000),
      ]);
      // Before, each read the answer into memory until the guard killed it.
      assertFailedWith(
        token,
        /^Error: .*POST https:\/\/127\.0\.0\.1:\d+\/oauth2\/token answered more than 1 MiB, the most fctl reads of this answer\n$/,
      );
      ok(!token.stderr.includes("secret"), described(token));
      assertFailedWith(
        metadata,
        /^Error: .*GET https:\/\/127\.0\.0\.1:\d+\/issuer\/\.well-known\/oauth-authorization-server answered more than 1 MiB, the most fctl reads of this answer\n$/,
      );
    });
  } finally {
    endStalledBodies(bodies);
    await auth.close();
  }
});

Deno.test("a token endpoint that trickles its answer: exit 1 once http.headersTimeout has passed, naming it", async () => {
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  const auth = await startTlsServer(() =>
    new Response(trickle('{"access_token":"x"', 200, bodies), { headers: { "content-type": "application/json" } })
  );
  try {
    await withProduction({ extraCa: auth.caCert }, async ({ flags, env }) => {
      const run = await guardedFctl(
        ["get", "task", ...flags, "--admin.tokenUrl", `${auth.url}/oauth2/token`, "--http.headersTimeout", "3s"],
        env(1),
        60_000,
      );
      // Before, each byte restarted http.idleTimeout: a byte every 200 ms kept it waiting for ever.
      assertFailedWith(
        run,
        /^Error: .*POST https:\/\/127\.0\.0\.1:\d+\/oauth2\/token timed out: no complete answer within 3s \(http\.headersTimeout\)\n$/,
      );
    });
  } finally {
    endStalledBodies(bodies);
    await auth.close();
  }
});

/**
 * `valid-register.tgz`'s entities and a fast-registration source of `sourceMib` MiB of random bytes (past the
 * in-memory limit: it is written to disk as it comes), gzipped: a download long enough for garbage collections to
 * happen while it is read.
 */
async function largePackage(sourceMib: number): Promise<Uint8Array> {
  const entries = await unpackTar(
    (await Deno.open(fixture("valid-register.tgz"))).readable.pipeThrough(new DecompressionStream("gzip")),
  );
  const source = new Uint8Array(sourceMib * 1024 * 1024);
  for (let i = 0; i < source.length; i += 65536) crypto.getRandomValues(source.subarray(i, i + 65536));
  const tar = await packTar([
    ...entries.map(({ header, data }) => ({ header, body: data })),
    { header: { name: "fast1.tar.gz", size: source.length }, body: source },
  ]);
  return new Uint8Array(
    await new Response(new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"))).bytes(),
  );
}

Deno.test("a stalled or slow archive download ends at its time limit in every one of 12 concurrent registrations", async () => {
  const archive = await largePackage(6);
  const CHUNK = 64 * 1024;
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  // /stall.tgz: most of the archive at once, then nothing. /slow.tgz: half of it at once, then the rest steadily, in
  // about 5 s.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const slow = new URL(req.url).pathname === "/slow.tgz";
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        start: (controller) => void bodies.push(controller),
        async pull(controller) {
          if (!slow && sent >= archive.length * 0.9) return await new Promise(() => {});
          if (slow && sent >= archive.length / 2) {
            await new Promise((resolve) => setTimeout(resolve, 5_000 / (archive.length / 2 / CHUNK)));
          }
          controller.enqueue(archive.subarray(sent, sent + CHUNK));
          sent += CHUNK;
          if (sent >= archive.length) controller.close();
        },
      }),
    );
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await withProduction({}, async ({ flags, env }) => {
      const register = ["register", "files", "--archive", "--version", "v1", ...flags];
      const runs = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        guardedFctl(
          i % 2 === 0
            ? [...register, `${base}/stall.tgz?sig=secret`, "--http.idleTimeout", "2s"]
            : [...register, `${base}/slow.tgz?sig=secret`, "--storage.defaultHttpClient.timeout", "2s"],
          env(i),
          60_000,
        )));
      for (const [i, run] of runs.entries()) {
        // Before, a garbage collection during the download left its end unseen: the stalled ones hung for ever, and
        // most slow ones were read to their end and registered (exit 0), the limit ignored.
        assertFailedWith(
          run,
          i % 2 === 0
            ? /^Error: GET http:\/\/127\.0\.0\.1:\d+\/stall\.tgz timed out: no data for 2s in the middle of the response body \(http\.idleTimeout\)\n$/
            : /^Error: GET http:\/\/127\.0\.0\.1:\d+\/slow\.tgz timed out: not finished within 2s \(storage\.defaultHttpClient\.timeout\)\n$/,
        );
      }
    });
  } finally {
    endStalledBodies(bodies);
    await server.shutdown();
  }
});

Deno.test("a GitHub release answer without end: register examples exits 1 naming the call and the 10 MiB limit, memory bounded", async () => {
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  const asset = '{"name":"a.tgz","size":1,"browser_download_url":"https://example.invalid/a.tgz"},';
  const github = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(endless('{"tag_name":"v1","assets":[', asset, bodies), {
        headers: { "content-type": "application/json" },
      }),
  );
  try {
    await withProduction({}, async ({ flags, env }) => {
      const run = await guardedFctl(["register", "examples", ...flags], {
        ...env(1),
        GITHUB_API_URL: `http://127.0.0.1:${github.addr.port}`,
      }, 60_000);
      assertFailedWith(
        run,
        /^Error: GET http:\/\/127\.0\.0\.1:\d+\/repos\/flyteorg\/flytesnacks\/releases\/latest answered more than 10 MiB, the most fctl reads of this answer\n$/,
      );
    });
  } finally {
    endStalledBodies(bodies);
    await github.shutdown();
  }
});

Deno.test("an object store whose error answer never ends: only its first 64 KiB are read, exit 1, memory bounded", async () => {
  const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
  const seen: string[] = [];
  // Posing as S3: the bucket exists (HEAD), and every other call is refused with an error document without end.
  const s3 = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(req.method);
    await req.body?.cancel();
    if (req.method === "HEAD") return new Response(null, { status: 200 });
    const head = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>';
    return new Response(endless(head, "denied ", bodies), {
      status: 403,
      headers: { "content-type": "application/xml" },
    });
  });
  try {
    await withProduction({ dataProxy: false }, async ({ flags, env }) => {
      const storage = ["--storage.type", "s3", "--storage.container", "fctl-fast"];
      storage.push("--storage.connection.endpoint", `http://127.0.0.1:${s3.addr.port}`);
      storage.push("--storage.connection.auth-type", "accesskey", "--storage.connection.access-key", "AKIDTEST");
      const run = await guardedFctl(
        ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1", ...flags, ...storage],
        { ...env(1), FCTL_STORAGE_CONNECTION_SECRET_KEY: "not-a-real-secret" },
        60_000,
      );
      // Before, the SDK read the error document into memory until the guard killed it.
      assertFailedWith(
        run,
        /^Error: cannot write "s3:\/\/fctl-fast\/[^"]+": an error answer that is not a readable S3 error document \(HTTP 403; at most 64 KiB of it is read\)\n$/,
      );
      ok(seen.includes("PUT"), `the upload was refused: ${seen.join(" ")}`);
    });
  } finally {
    endStalledBodies(bodies);
    await s3.shutdown();
  }
});

/**
 * Stow google and azure storage that never answers: their SDKs make their own HTTP calls, which fctl's HTTP client
 * does not time, so each call is held to `http.headersTimeout` (and what it sends to `http.idleTimeout`) by fctl.
 * Fresh fctl processes under the declared permissions, guarded in time and memory, against a production-shaped admin
 * (TLS, OAuth) without DataProxy, so that the source goes to the configured storage: a raw server that takes
 * connections and answers nothing (or answers the container's creation, then nothing).
 */
import { equal, ok } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { startFakeGcs } from "../src/storage/_test_gcs_server.ts";
import { assertFailedWith, described, guardedFctl, type GuardedOptions, type GuardedRun } from "./guarded_fctl.ts";
import { fixture } from "./helpers.ts";

/** What the server writes for a request: all of an answer, or its start (`hold`: then nothing, the connection open). */
type Written = string | { bytes: Uint8Array; hold: true };

/**
 * A server that reads each request's head and answers those `answers` picks (by the request line), and never the
 * others; every connection is closed with it.
 */
function startQuietServer(answers: (requestLine: string) => Written | undefined) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const lines: string[] = [];
  const asked = Promise.withResolvers<void>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      (async () => {
        const buffer = new Uint8Array(64 * 1024);
        let head = "";
        while (!head.includes("\r\n\r\n")) {
          const read = await conn.read(buffer);
          if (read === null) return;
          head += new TextDecoder().decode(buffer.subarray(0, read));
        }
        const line = head.slice(0, head.indexOf("\r\n"));
        lines.push(line);
        const answer = answers(line);
        if (answer === undefined) {
          asked.resolve();
          return;
        }
        if (typeof answer !== "string") {
          await conn.write(answer.bytes);
          return;
        }
        await conn.write(new TextEncoder().encode(answer));
        conn.close();
        conns.delete(conn);
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    lines,
    /** Resolves once a request is left unanswered. */
    unanswered: asked.promise,
    close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Closed already.
        }
      }
    },
  };
}

const ACCOUNT = "devstoreaccount1";
const CREATED = "HTTP/1.1 201 Created\r\ncontent-length: 0\r\nx-ms-version: 2021-08-06\r\nconnection: close\r\n\r\n";

/** Runs of `register files --archive ARCHIVE` (a package with a source), with stow storage as `stow` says. */
async function withStow(
  stow: { kind: string; config: Record<string, string> },
  fn: (register: (extra: string[], options?: GuardedOptions) => Promise<GuardedRun>) => Promise<void>,
  archive = fixture("flytesnacks-core.tgz"),
): Promise<void> {
  const sandbox = await startSandbox({ production: true, dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-stow-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.writeTextFile(
      `${dir}/config.yaml`,
      JSON.stringify({ storage: { type: "stow", container: "fctl-fast", stow } }),
    );
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    flags.push("--config", `${dir}/config.yaml`);
    const env = { HOME: `${dir}/home`, FLYTE_SECRET: SANDBOX_CLIENT.secret };
    await fn((extra, options) =>
      guardedFctl(
        ["register", "files", "--archive", archive, "--version", "v1", ...flags, ...extra],
        env,
        60_000,
        options,
      )
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const SHORT_LIMITS = ["--http.headersTimeout", "3s", "--http.idleTimeout", "3s"];

Deno.test("stow azure that never answers, or answers the container's creation and then nothing: exit 1 once http.headersTimeout has passed, or at once on Ctrl-C", async () => {
  const azure = (server: { url: string }) => ({
    kind: "azure",
    config: {
      account: ACCOUNT,
      key: btoa("fctl-azure-account-key-0123456789abcdef"),
      endpoint: `${server.url}/${ACCOUNT}`,
    },
  });
  const mute = startQuietServer(() => undefined);
  try {
    await withStow(azure(mute), async (register) => {
      // Before, the run waited for ever (until the guard killed it).
      assertFailedWith(
        await register(SHORT_LIMITS),
        /^Error: cannot create "abfs:\/\/fctl-fast": no answer within 3s \(http\.headersTimeout\)\n$/,
      );
    });
  } finally {
    mute.close();
  }
  const writeOnly = startQuietServer((line) => line.includes("restype=container") ? CREATED : undefined);
  try {
    await withStow(azure(writeOnly), async (register) => {
      assertFailedWith(
        await register(SHORT_LIMITS),
        /^Error: cannot write "abfs:\/\/fctl-fast\/fast\/v1-fast\w+\.tar\.gz": no answer within 3s after it was sent \(http\.headersTimeout\)\n$/,
      );
      ok(writeOnly.lines.some((line) => line.startsWith(`PUT /${ACCOUNT}/fctl-fast/fast/`)), writeOnly.lines.join());
      // With the default limits (a minute), Ctrl-C while the write waits ends the run at once.
      const before = writeOnly.lines.length;
      const interrupted = await register([], {
        interruptWhen: (async () => {
          while (!writeOnly.lines.slice(before).some((line) => line.includes("/fast/"))) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await new Promise((resolve) => setTimeout(resolve, 300));
        })(),
      });
      equal(interrupted.code, 130, described(interrupted));
      equal(
        interrupted.stderr,
        "Error: interrupted; the report above shows what was and was not registered\n",
        described(interrupted),
      );
      ok(interrupted.ms < 30_000, described(interrupted));
    });
  } finally {
    writeOnly.close();
  }
});

Deno.test("stow google whose storage endpoint never answers, or never answers the upload: exit 1 once http.headersTimeout has passed", async () => {
  // Tokens from a fake token endpoint (the credentials' token_uri); the storage API is mute.
  const gcs = await startFakeGcs();
  const mute = startQuietServer(() => undefined);
  try {
    const google = { kind: "google", config: { json: gcs.serviceAccountJson, project_id: "p", endpoint: mute.url } };
    await withStow(google, async (register) => {
      // Before, the run waited for ever (until the guard killed it).
      assertFailedWith(
        await register(SHORT_LIMITS),
        /^Error: cannot create "gs:\/\/fctl-fast": no answer within 3s \(http\.headersTimeout\)\n$/,
      );
      ok(mute.lines.length > 0, "the storage API was asked");
    });
    // The bucket is there; the upload is never answered.
    const bucket = '{"kind":"storage#bucket","name":"fctl-fast"}';
    const writeOnly = startQuietServer((line) =>
      line.startsWith("GET /storage/v1/b/fctl-fast")
        ? `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${bucket.length}\r\n\r\n${bucket}`
        : undefined
    );
    try {
      const config = { ...google.config, endpoint: writeOnly.url };
      await withStow({ kind: "google", config }, async (register) => {
        assertFailedWith(
          await register(SHORT_LIMITS),
          /^Error: cannot write "gs:\/\/fctl-fast\/fast\/v1-fast\w+\.tar\.gz": no answer within 3s after it was sent \(http\.headersTimeout\)\n$/,
        );
        ok(writeOnly.lines.some((line) => line.includes("/upload/storage/v1/b/fctl-fast/o")), writeOnly.lines.join());
      });
    } finally {
      writeOnly.close();
    }
  } finally {
    mute.close();
    await gcs.close();
  }
});

Deno.test("register files --archive abfs://…: a blob whose download stops in the middle fails once http.idleTimeout has passed", async () => {
  const archive = await Deno.readFile(fixture("flytesnacks-core.tgz"));
  const headers = (status: string) =>
    `HTTP/1.1 ${status}\r\ncontent-length: ${archive.length}\r\ncontent-type: application/octet-stream\r\n` +
    'x-ms-blob-type: BlockBlob\r\nx-ms-version: 2021-08-06\r\netag: "0x8D0000000000001"\r\n\r\n';
  const server = startQuietServer((line) => {
    if (line.startsWith("HEAD ")) return `${headers("200 OK")}`;
    if (line.startsWith("GET ")) {
      // Its headers and half of the archive, then nothing.
      const start = new TextEncoder().encode(headers("200 OK"));
      const half = archive.subarray(0, Math.floor(archive.length / 2));
      const bytes = new Uint8Array(start.length + half.length);
      bytes.set(start);
      bytes.set(half, start.length);
      return { bytes, hold: true };
    }
    return undefined;
  });
  try {
    const azure = {
      kind: "azure",
      config: {
        account: ACCOUNT,
        key: btoa("fctl-azure-account-key-0123456789abcdef"),
        endpoint: `${server.url}/${ACCOUNT}`,
      },
    };
    await withStow(azure, async (register) => {
      // Before, the run waited for the rest for ever (until the guard killed it).
      assertFailedWith(
        await register(SHORT_LIMITS),
        /^Error: cannot read "abfs:\/\/fctl-fast\/pkg\.tgz": no data for 3s in the middle of it \(http\.idleTimeout\)\n$/,
      );
      ok(server.lines.some((line) => line.startsWith(`GET /${ACCOUNT}/fctl-fast/pkg.tgz`)), server.lines.join());
    }, "abfs://fctl-fast/pkg.tgz");
  } finally {
    server.close();
  }
});

/**
 * Where fast registration's source goes, hostile or broken: a signed upload URL (the production-shaped admin's data
 * proxy hands out `https://` ones; a CONNECT proxy given as `admin.httpProxyURL` sends their tunnel to a raw TLS
 * server of the test, trusted through the same CA file) and an S3 endpoint (an admin without DataProxy). Their
 * answers never end, trickle, or echo the request's credentials. Each run is a fresh fctl process under the declared
 * permissions, guarded in time and memory: it must end with one line and its exit code, print no credential, even at
 * `--logger.level 5`, and leave no temp dir behind.
 */
import { equal, match, ok } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { createTestCertificates, type TestCertificates } from "../src/sandbox/test_ca.ts";
import {
  assertFailedWith,
  described,
  guardedFctl,
  type GuardedOptions,
  type GuardedRun,
  MEMORY_LIMIT_MIB,
} from "./guarded_fctl.ts";
import { errorLine, fixture } from "./helpers.ts";

const encoder = new TextEncoder();

/** What a raw server does with a connection, given the request's head (its request line and headers). */
type Respond = (conn: Deno.Conn, head: string) => Promise<void>;

/** The request line and headers of the next request on `conn` (at most 64 KiB of them). */
async function readHead(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(16 * 1024);
  let head = "";
  while (!head.includes("\r\n\r\n") && head.length < 64 * 1024) {
    const read = await conn.read(buffer);
    if (read === null) break;
    head += new TextDecoder().decode(buffer.subarray(0, read));
  }
  return head.slice(0, head.indexOf("\r\n\r\n") + 2);
}

/** A server that writes raw HTTP/1.1 (over TLS with `tls`); every connection is closed with it. */
interface RawServer {
  port: number;
  /** The heads of the requests it was sent. */
  heads: string[];
  /** Resolves at the first request. */
  asked: Promise<void>;
  close(): void;
}

function startRawServer(respond: Respond, tls?: TestCertificates): RawServer {
  const listener = tls
    ? Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: tls.cert, key: tls.key })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const heads: string[] = [];
  const asked = Promise.withResolvers<void>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      (async () => {
        const head = await readHead(conn);
        heads.push(head);
        asked.resolve();
        await respond(conn, head);
      })().catch(() => {}).finally(() => closeQuietly(conn, conns));
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    heads,
    asked: asked.promise,
    close() {
      listener.close();
      for (const conn of conns) closeQuietly(conn, conns);
    },
  };
}

function closeQuietly(conn: Deno.Conn, conns: Set<Deno.Conn>): void {
  conns.delete(conn);
  try {
    conn.close();
  } catch {
    // Closed already.
  }
}

/** An answer's head: the status line, `headers` and the blank line. */
const head = (status: string, headers: string[] = []) =>
  encoder.encode(`HTTP/1.1 ${status}\r\n${[...headers, "connection: close"].join("\r\n")}\r\n\r\n`);

/** Answers `status` and `body` whole. */
const answer = (status: string, body: string, headers: string[] = []): Respond => async (conn) => {
  await conn.write(head(status, [...headers, `content-length: ${encoder.encode(body).length}`]));
  await conn.write(encoder.encode(body));
};

/** Answers `status`, then a body without end, as fast as it is read (until the client goes). */
const endless = (status: string): Respond => async (conn) => {
  await conn.write(head(status));
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  for (;;) await conn.write(chunk);
};

/** Answers `status`, then a byte every 200 ms, without end (until the client goes). */
const trickle = (status: string): Respond => async (conn) => {
  await conn.write(head(status, ["content-type: application/xml"]));
  await conn.write(encoder.encode("<Error><Code>AccessDenied</Code><Message>"));
  for (;;) {
    await conn.write(encoder.encode("."));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** A CONNECT proxy that tunnels to the port `route` picks for the one asked for, on loopback. */
function startConnectProxy(route: (port: number) => number): { url: string; close(): void } {
  const conns = new Set<Deno.Conn>();
  const server = startRawServer(async (conn, request) => {
    const target = /^CONNECT 127\.0\.0\.1:(\d+) /.exec(request);
    if (!target) return await answer("400 Bad Request", "CONNECT only")(conn, request);
    const upstream = await Deno.connect({ hostname: "127.0.0.1", port: route(Number(target[1])) });
    conns.add(upstream);
    await conn.write(encoder.encode("HTTP/1.1 200 Connection established\r\n\r\n"));
    await Promise.allSettled([conn.readable.pipeTo(upstream.writable), upstream.readable.pipeTo(conn.writable)]);
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    close() {
      server.close();
      for (const conn of conns) closeQuietly(conn, conns);
    },
  };
}

/** What a test gets: a way to run `register files` of a package with a source, and what the servers saw. */
interface Setup {
  /** Runs `register files --archive flytesnacks-core.tgz` with `extra` flags, guarded. */
  register(extra: string[], options?: GuardedOptions): Promise<GuardedRun>;
  /** The hostile server. */
  server: RawServer;
  /** The private temp dir the runs have as TMPDIR: empty after every run. */
  tmp: string;
}

/** The longest any of these runs may take: far longer than the 3 s limits they are given. */
const TIME_LIMIT_MS = 60_000;

/** `register files` of flytesnacks-core with `flags` and `env` (and a test's `extra` flags), within the time limit. */
function registerCore(flags: string[], env: Record<string, string>) {
  return (extra: string[], options?: GuardedOptions) =>
    guardedFctl(
      ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1", ...flags, ...extra],
      env,
      TIME_LIMIT_MS,
      options,
    );
}

/**
 * A production-shaped admin with a data proxy whose signed `https://` upload URLs are answered by a raw TLS server
 * responding with `respond`: the runs reach the upload URL through a CONNECT proxy (`admin.httpProxyURL`) that sends
 * that tunnel to the hostile server and every other (token requests) where it was asked to go.
 */
async function withHostileUploadUrl(respond: Respond, fn: (setup: Setup) => Promise<void>): Promise<void> {
  const certificates = await createTestCertificates();
  const server = startRawServer(respond, certificates);
  const sandbox = await startSandbox({ production: true });
  const issuerPort = Number(new URL(sandbox.auth!.issuer).port);
  const proxy = startConnectProxy((port) => port === sandbox.port || port === issuerPort ? port : server.port);
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-upload-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${certificates.caCert}`);
    await Deno.mkdir(`${dir}/tmp`);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    flags.push("--admin.httpProxyURL", proxy.url);
    const env = { HOME: `${dir}/home`, TMPDIR: `${dir}/tmp`, FLYTE_SECRET: SANDBOX_CLIENT.secret };
    const register = registerCore(flags, env);
    await fn({ register, server, tmp: `${dir}/tmp` });
  } finally {
    proxy.close();
    server.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Nothing left in the runs' temp dir. */
async function assertNothingLeft(tmp: string, label: string): Promise<void> {
  const left = await Array.fromAsync(Deno.readDir(tmp), (entry) => entry.name);
  equal(left.length, 0, `${label}: left ${left.join(", ")}`);
}

const SHORT_LIMITS = ["--http.headersTimeout", "3s", "--http.idleTimeout", "3s"];

Deno.test("a signed upload URL refusing the source with an error body that trickles: exit 1 once http.headersTimeout has passed, or at once on Ctrl-C", async () => {
  await withHostileUploadUrl(trickle("403 Forbidden"), async ({ register, server, tmp }) => {
    // Before, each byte restarted http.idleTimeout: a byte every 200 ms kept the upload waiting for ever.
    const limited = await register(SHORT_LIMITS);
    assertFailedWith(
      limited,
      /^Error: PUT https:\/\/127\.0\.0\.1:\d+\/[^?\s]+ timed out: no complete answer within 3s \(http\.headersTimeout\)\n$/,
    );
    await assertNothingLeft(tmp, "timed out");
    // With the default limits (a minute), Ctrl-C while the body trickles ends the run at once.
    const asked = server.heads.length;
    const interrupted = await register([], {
      interruptWhen: (async () => {
        while (server.heads.length === asked) await new Promise((resolve) => setTimeout(resolve, 20));
        await new Promise((resolve) => setTimeout(resolve, 500));
      })(),
    });
    equal(interrupted.code, 130, described(interrupted));
    equal(
      interrupted.stderr,
      "Error: interrupted; the report above shows what was and was not registered\n",
      described(interrupted),
    );
    ok(interrupted.ms < 30_000, described(interrupted));
    await assertNothingLeft(tmp, "interrupted");
  });
});

Deno.test("a signed upload URL accepting the source with a body without end, or one that trickles: the upload is done at its status, memory bounded", async () => {
  for (const [kind, respond] of [["without end", endless("200 OK")], ["trickling", trickle("200 OK")]] as const) {
    await withHostileUploadUrl(respond, async ({ register, server, tmp }) => {
      // Before, the answer was read whole: into memory until the guard killed the run, or for ever.
      const run = await register([]);
      equal(run.killed, undefined, `${kind}: ${described(run)}`);
      equal(run.code, 0, `${kind}: ${described(run)}`);
      ok(run.peakMib < MEMORY_LIMIT_MIB, `${kind}: ${described(run)}`);
      match(run.stdout, /\| Success \|/, kind);
      ok(server.heads.some((request) => request.startsWith("PUT ")), `${kind}: the source was PUT`);
      await assertNothingLeft(tmp, kind);
    });
  }
});

Deno.test("a signed upload URL refusing the source with an error that echoes the URL's token and a signature: shown without them, at every log level", async () => {
  const echo: Respond = (conn, request) => {
    const target = request.split(" ")[1];
    const token = new URL(target, "https://upload.invalid").searchParams.get("token") ?? "";
    const body = `<?xml version="1.0"?><Error><Code>SignatureDoesNotMatch</Code>` +
      `<SignatureProvided>${token}</SignatureProvided><Message>token ${token} (as a form: ` +
      `token=${encodeURIComponent(token)}) refused for ?${target.split("?")[1]}</Message></Error>`;
    return answer("403 Forbidden", body, ["content-type: application/xml"])(conn, request);
  };
  await withHostileUploadUrl(echo, async ({ register, server, tmp }) => {
    for (const level of ["3", "5"]) {
      const run = await register(["--logger.level", level, "--logger.formatter.type", "text"]);
      const token = /[?&]token=([^&\s]+)/.exec(server.heads.find((request) => request.startsWith("PUT "))!)![1];
      ok(token.length >= 16, `the signed URL carries a token: ${token}`);
      equal(run.code, 1, described(run));
      // Before, the refusal was quoted as it came: the token three times.
      for (const output of [run.stdout, run.stderr]) ok(!output.includes(token), `level ${level}: ${described(run)}`);
      const error = errorLine(run, described(run));
      match(
        error,
        /^Error: uploading "core\/_pb_output\/fast\w+\.tar\.gz" to https:\/\/127\.0\.0\.1:\d+\/[^?\s]+ failed: HTTP 403: <\?xml version="1\.0"\?><Error><Code>SignatureDoesNotMatch<\/Code><SignatureProvided>\[redacted\]<\/SignatureProvided><Message>token \[redacted\] \(as a form: token=\[redacted\]\) refused for \?token=\[redacted\]<\/Message><\/Error>$/,
      );
      await assertNothingLeft(tmp, `level ${level}`);
    }
  });
});

/** The access key of the S3 runs: a secret of the run, hidden wherever a server echoes it. */
const ACCESS_KEY = "AKIDHOSTILETEST00001";

/**
 * A production-shaped admin without DataProxy, and an S3 endpoint (plain HTTP) that finds the bucket (HEAD) and answers
 * everything else with `respond`: the source goes there.
 */
async function withHostileS3(respond: Respond, fn: (setup: Setup) => Promise<void>): Promise<void> {
  const server = startRawServer((conn, request) =>
    request.startsWith("HEAD ") ? answer("200 OK", "")(conn, request) : respond(conn, request)
  );
  const sandbox = await startSandbox({ production: true, dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-s3-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.mkdir(`${dir}/tmp`);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    flags.push("--storage.type", "s3", "--storage.container", "fctl-fast");
    flags.push("--storage.connection.endpoint", `http://127.0.0.1:${server.port}`);
    flags.push("--storage.connection.auth-type", "accesskey", "--storage.connection.access-key", ACCESS_KEY);
    const env = {
      HOME: `${dir}/home`,
      TMPDIR: `${dir}/tmp`,
      FLYTE_SECRET: SANDBOX_CLIENT.secret,
      FCTL_STORAGE_CONNECTION_SECRET_KEY: "hostile-test-secret-key",
    };
    const register = registerCore(flags, env);
    await fn({ register, server, tmp: `${dir}/tmp` });
  } finally {
    server.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an S3 endpoint answering the upload with a body without end, or one that trickles (200 or 403): exit 1 naming the call and the bound, memory bounded", async () => {
  const cannotWrite = String
    .raw`^Error: cannot write "s3:\/\/fctl-fast\/fast\/v1-fast\w+\.tar\.gz": PUT http:\/\/127\.0\.0\.1:\d+\/fctl-fast\/fast\/v1-fast\w+\.tar\.gz`;
  const cases: [string, Respond, RegExp][] = [
    [
      "200 without end",
      endless("200 OK"),
      new RegExp(`${cannotWrite} answered more than 1 MiB, the most fctl reads of this answer\n$`),
    ],
    [
      "200 trickling",
      trickle("200 OK"),
      new RegExp(`${cannotWrite} timed out: no complete answer within 3s \\(http\\.headersTimeout\\)\n$`),
    ],
    [
      "403 trickling",
      trickle("403 Forbidden"),
      new RegExp(`${cannotWrite} timed out: no complete answer within 3s \\(http\\.headersTimeout\\)\n$`),
    ],
  ];
  for (const [kind, respond, line] of cases) {
    await withHostileS3(respond, async ({ register, server, tmp }) => {
      // Before, the SDK read the answer whole: into memory until the guard killed the run, or for ever; a 403 that
      // trickled ended at http.headersTimeout with the SDK's "Deserialization error" line after fctl's.
      assertFailedWith(await register(SHORT_LIMITS), line);
      ok(server.heads.some((request) => request.startsWith("PUT ")), `${kind}: the source was PUT`);
      await assertNothingLeft(tmp, kind);
    });
  }
});

Deno.test("an S3 refusal that echoes the request's Authorization header and access key: shown without the signature or the key, at every log level", async () => {
  const echo: Respond = (conn, request) => {
    const authorization = /^authorization: (.*)$/im.exec(request)?.[1].trim() ?? "";
    const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code>` +
      `<Message>The request signature we calculated does not match ${authorization}</Message>` +
      `<AWSAccessKeyId>${ACCESS_KEY}</AWSAccessKeyId><SignatureProvided>${authorization}</SignatureProvided></Error>`;
    return answer("403 Forbidden", body, ["content-type: application/xml"])(conn, request);
  };
  await withHostileS3(echo, async ({ register, server, tmp }) => {
    for (const level of ["3", "5"]) {
      const run = await register(["--logger.level", level, "--logger.formatter.type", "text"]);
      const put = server.heads.find((request) => request.startsWith("PUT "))!;
      const signature = /Signature=([0-9a-f]{64})/.exec(put)![1];
      equal(run.code, 1, described(run));
      // Before, the SDK's message (the error document's) was shown as it came: the signature twice.
      for (const output of [run.stdout, run.stderr]) {
        ok(!output.includes(signature) && !output.includes(ACCESS_KEY), `level ${level}: ${described(run)}`);
      }
      const error = errorLine(run, described(run));
      match(
        error,
        /^Error: cannot write "s3:\/\/fctl-fast\/fast\/v1-fast\w+\.tar\.gz": SignatureDoesNotMatch: The request signature we calculated does not match AWS4-HMAC-SHA256 Credential=\[redacted\]\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=\S+, Signature=\[redacted\] \(HTTP 403\)$/,
      );
      await assertNothingLeft(tmp, `level ${level}`);
    }
  });
});

Deno.test("a signed upload URL redirecting the upload from https to plain http: not followed, nothing sent there, exit 1", async () => {
  const plain = startRawServer(answer("200 OK", ""));
  try {
    const moved: Respond = (conn, request) =>
      answer("307 Temporary Redirect", "", [`location: http://127.0.0.1:${plain.port}/moved?X-Amz-Signature=abc123`])(
        conn,
        request,
      );
    await withHostileUploadUrl(moved, async ({ register, tmp }) => {
      const run = await register(["--logger.level", "5"]);
      // Before, the source was PUT again, in the clear, to wherever the answer said.
      equal(run.code, 1, described(run));
      const error = errorLine(run, described(run));
      match(
        error,
        /^Error: uploading "core\/_pb_output\/fast\w+\.tar\.gz" to (https:\/\/127\.0\.0\.1:\d+\/[^?\s]+) failed: PUT \1 was redirected to http:\/\/127\.0\.0\.1:\d+\/moved: a redirect from https to plain http is not followed$/,
      );
      ok(!run.stderr.includes("abc123"), described(run));
      equal(plain.heads.length, 0, `sent to the plain server: ${plain.heads.join(", ")}`);
      await assertNothingLeft(tmp, "redirected");
    });
  } finally {
    plain.close();
  }
});

Deno.test("a signed upload URL that closes the connection in the middle of the upload: tried again, then one line, exit 1", async () => {
  // Reads the request's head and a piece of its body, then goes.
  const closing: Respond = async (conn) => void await conn.read(new Uint8Array(4096));
  await withHostileUploadUrl(closing, async ({ register, server, tmp }) => {
    const run = await register(["--logger.level", "5"]);
    equal(run.code, 1, described(run));
    const error = errorLine(run, described(run));
    match(
      error,
      /^Error: uploading "core\/_pb_output\/fast\w+\.tar\.gz" to https:\/\/127\.0\.0\.1:\d+\/[^?\s]+ failed: (connection closed before message completed|.*(reset|broken pipe).*)$/i,
    );
    equal(server.heads.filter((request) => request.startsWith("PUT ")).length, 4, "tried 4 times in all");
    await assertNothingLeft(tmp, "closed");
  });
});

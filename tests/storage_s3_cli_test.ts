/**
 * `register files` against an admin without DataProxy, the source written through S3-API storage to a
 * real server (s3rver, in this process, behind a front that checks Content-MD5, see
 * src/storage/_test_s3.ts): `s3` with a custom endpoint, `minio` and stow kind `s3`, over plain HTTP and
 * over TLS trusted through `admin.caCertFilePath`; a missing bucket is created; the object's bytes and
 * MD5 are checked in the server, and its URI in every fast-registered task.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { S3RVER_KEYS, startTestS3, type TestS3Server } from "../src/storage/_test_s3.ts";
import { fixture, runFctl } from "./helpers.ts";
import { assertSourceThroughStorage, CORE, coreSource, KEY } from "./fast_source.ts";

const BUCKET = "fctl-fast";

/** Storage flags of each S3-API way in, for a server at `endpoint`. */
function storageFlags(
  kind: "s3" | "minio" | "stow",
  endpoint: string,
  keys: { accessKey: string; secretKey: string } = S3RVER_KEYS,
): string[] {
  switch (kind) {
    case "s3":
      return [
        ...["--storage.type", "s3", "--storage.connection.endpoint", endpoint],
        ...["--storage.connection.auth-type", "accesskey", "--storage.connection.access-key", keys.accessKey],
        ...["--storage.connection.secret-key", keys.secretKey, "--storage.container", BUCKET],
      ];
    case "minio":
      // No scheme: disable-ssl chooses http, as flytestdlib's does.
      return [
        ...["--storage.type", "minio", "--storage.connection.endpoint", endpoint.replace(/^http:\/\//, "")],
        ...["--storage.connection.disable-ssl", "--storage.connection.auth-type", "accesskey"],
        ...["--storage.connection.access-key", keys.accessKey, "--storage.connection.secret-key", keys.secretKey],
        ...["--storage.container", BUCKET],
      ];
    case "stow":
      return [
        ...["--storage.type", "stow", "--storage.stow.kind", "s3", "--storage.container", BUCKET],
        "--storage.stow.config",
        `endpoint=${endpoint},access_key_id=${keys.accessKey},secret_key=${keys.secretKey},region=us-east-1`,
      ];
  }
}

async function withServers(
  tls: boolean,
  fn: (sandbox: Sandbox, s3: TestS3Server, run: (args: string[]) => ReturnType<typeof runFctl>) => Promise<void>,
): Promise<void> {
  const s3 = await startTestS3({ tls });
  const sandbox = await startSandbox({ dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-s3-test-" });
  try {
    const tlsFlags: string[] = [];
    if (s3.caCert) {
      await Deno.writeTextFile(`${dir}/ca.pem`, s3.caCert);
      tlsFlags.push("--admin.caCertFilePath", `${dir}/ca.pem`);
    }
    const run = (args: string[]) =>
      runFctl([...args, "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint, ...tlsFlags]);
    await fn(sandbox, s3, run);
  } finally {
    await sandbox.close();
    await s3.close();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const tls of [false, true]) {
  for (const kind of ["s3", "minio", "stow"] as const) {
    if (kind === "minio" && tls) continue; // minio's case is the scheme-less endpoint over plain HTTP
    Deno.test(`storage ${kind}${tls ? " over TLS" : ""}: the source goes to a bucket created for it, tasks get its s3:// URI`, async () => {
      const source = await coreSource();
      const md5 = createHash("md5").update(source);
      const [md5Hex, md5Base64] = [md5.copy().digest("hex"), md5.digest("base64")];
      await withServers(tls, async (sandbox, s3, run) => {
        assert(!await s3.hasBucket(BUCKET));
        const result = await run([
          ...["register", "files", "--archive", fixture(CORE), "--version", "v1", "-o", "json"],
          ...storageFlags(kind, s3.endpoint),
        ]);
        equal(result.code, 0, result.stderr);
        const location = `s3://${BUCKET}/${KEY}`;
        const report = JSON.parse(result.stdout);
        deepEqual([report.source.location, report.source.via, report.source.size], [
          location,
          "storage",
          source.length,
        ]);
        // In the server: the bucket created, the bytes as they are, their MD5 sent and checked.
        assert(await s3.hasBucket(BUCKET));
        deepEqual(await s3.object(BUCKET, KEY), source);
        equal(await s3.objectMd5(BUCKET, KEY), md5Hex);
        const puts = s3.requests.filter((r) => r.method === "PUT" && r.path === `/${BUCKET}/${KEY}`);
        deepEqual(puts.map((r) => r.contentMd5), [md5Base64]);
        // Path-style addressing: the bucket is the path's first segment, on the endpoint's host.
        assert(s3.requests.every((r) => r.path.startsWith(`/${BUCKET}/`)), JSON.stringify(s3.requests));
        // No DataProxy: the admin was asked once, answered UNIMPLEMENTED, and was never sent bytes; every
        // placeholder of the 35 fast-registered tasks became the object's URI.
        assertSourceThroughStorage(sandbox, location);
      });
    });
  }
}

Deno.test("storage s3 with an access key the server does not know: one line naming the object and the refusal, exit 1", async () => {
  await withServers(false, async (_sandbox, s3, run) => {
    const keys = { accessKey: "UNKNOWNKEY1", secretKey: "wrong-secret-9q8w7e" };
    const result = await run([
      ...["register", "files", "--archive", fixture(CORE), "--version", "v1"],
      ...storageFlags("s3", s3.endpoint, keys),
    ]);
    equal(result.code, 1, result.stderr);
    match(
      result.stderr,
      /Error: cannot write "s3:\/\/fctl-fast\/fast\/v1-fasted4a62b5c4359e9aed745fa1197a9ea0\.tar\.gz": InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records\. \(HTTP 403\)\n$/,
    );
    assert(!`${result.stdout}${result.stderr}`.includes(keys.secretKey));
    equal(await s3.object(BUCKET, KEY), undefined);
  });
});

Deno.test("storage credentials are redacted at every log level, with a failing upload at debug", async () => {
  await withServers(false, async (_sandbox, s3, run) => {
    const keys = { accessKey: "AKIAFCTLTESTKEY77", secretKey: "stow-secret-0x5e3d" };
    for (const kind of ["s3", "stow"] as const) {
      for (const level of ["0", "5"]) {
        const result = await run([
          ...["register", "files", "--archive", fixture(CORE), "--version", "v1", "--logger.level", level],
          ...storageFlags(kind, s3.endpoint, keys),
        ]);
        equal(result.code, 1, result.stderr);
        const all = `${result.stdout}${result.stderr}`;
        match(result.stderr, /InvalidAccessKeyId/);
        for (const secret of [keys.accessKey, keys.secretKey]) {
          assert(!all.includes(secret), `${kind} ${level}: ${all}`);
        }
        // At debug the configuration is logged: the values are there, redacted.
        if (level === "5") match(result.stderr, /\[redacted\]/);
      }
    }
  });
});

Deno.test("stow kind s3: an unknown key or a missing one is one line naming it and the accepted ones, exit 2", async () => {
  await withServers(false, async (_sandbox, s3, run) => {
    const base = ["register", "files", "--archive", fixture(CORE), "--version", "v1", "--storage.type", "stow"];
    const unknown = await run([
      ...base,
      ...["--storage.stow.kind", "s3", "--storage.container", BUCKET, "--storage.stow.config"],
      `endpoint=${s3.endpoint},access_key_id=a,secret_key=b,force_path=true`,
    ]);
    equal(unknown.code, 2);
    match(
      unknown.stderr,
      /Error: unknown key "force_path" in storage.stow.config for kind s3; accepted keys: auth_type, access_key_id, secret_key, region, endpoint, disable_ssl, v2_signing\n$/,
    );
    const missing = await run([
      ...base,
      "--storage.stow.kind",
      "s3",
      "--storage.stow.config",
      `endpoint=${s3.endpoint}`,
    ]);
    equal(missing.code, 2);
    // Every problem in the one line, as `config validate` lists them.
    match(
      missing.stderr,
      /Error: the storage settings have 2 problems: storage.stow.config for kind s3 with auth_type accesskey needs access_key_id; storage.stow.config for kind s3 with auth_type accesskey needs secret_key\n$/,
    );
    const kind = await run([...base, "--storage.stow.kind", "swift"]);
    equal(kind.code, 2);
    match(kind.stderr, /Error: storage.stow.kind "swift" is not supported; accepted kinds: s3, google, azure\n$/);
  });
});

Deno.test("register files --archive s3://…: the package is streamed from the bucket; another bucket needs multicontainer", async () => {
  await withServers(false, async (sandbox, s3, run) => {
    const { openStorage } = await import("../src/storage/mod.ts");
    const setup = await openStorage({
      type: "minio",
      container: "packages",
      endpoint: s3.endpoint,
      authType: "accesskey",
      ...S3RVER_KEYS,
      defaultLocalRoot: "",
    });
    try {
      const path = fixture(CORE);
      await setup.writeFile("s3://packages/releases/core.tgz", { path, size: (await Deno.stat(path)).size });
    } finally {
      setup.close();
    }
    const args = ["register", "files", "--archive", "s3://packages/releases/core.tgz", "--version", "v1"];
    // storage.container is fctl-fast: the package's bucket is another one.
    const refused = await run([...args, ...storageFlags("s3", s3.endpoint)]);
    equal(refused.code, 2, refused.stderr);
    match(
      refused.stderr,
      /Error: s3 storage cannot serve "s3:\/\/packages\/releases\/core\.tgz": its container "packages" is not storage\.container "fctl-fast"; set storage\.enable-multicontainer to use other containers\n$/,
    );
    const result = await run([...args, ...storageFlags("s3", s3.endpoint), "--storage.enable-multicontainer"]);
    equal(result.code, 0, result.stderr);
    equal(sandbox.requests.filter((r) => /^Create(Task|Workflow|LaunchPlan)$/.test(r.method)).length, 84);
    // The source went to storage.container, as without multicontainer.
    assert(await s3.object(BUCKET, KEY));
    const missing = await run([
      ...["register", "files", "--archive", "s3://packages/none.tgz", "--version", "v2"],
      ...storageFlags("s3", s3.endpoint),
      "--storage.enable-multicontainer",
    ]);
    equal(missing.code, 1);
    match(missing.stderr, /Error: cannot download "s3:\/\/packages\/none\.tgz": no such object\n$/);
  });
});

Deno.test("storage calls go through admin.httpProxyURL, like every other HTTP call of the run", async () => {
  const { startProxy } = await import("../src/http/_test_proxy.ts");
  const proxy = startProxy("proxy");
  try {
    await withServers(false, async (_sandbox, s3, run) => {
      const result = await run([
        ...["register", "files", "--archive", fixture(CORE), "--version", "v1", "--admin.httpProxyURL", proxy.url],
        ...storageFlags("s3", s3.endpoint),
      ]);
      equal(result.code, 0, result.stderr);
      // The proxy answered in the server's place: the object never reached it.
      deepEqual(proxy.seen, [`${s3.endpoint}/${BUCKET}/`, `${s3.endpoint}/${BUCKET}/${KEY}?x-id=PutObject`]);
      deepEqual(s3.requests, []);
    });
  } finally {
    await proxy.close();
  }
});

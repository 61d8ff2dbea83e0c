import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createAdminClient } from "../admin/client.ts";
import { OperationError, UsageError } from "../errors.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { createHttpClient } from "../http/http_client.ts";
import type { StoreSource } from "../storage/store.ts";
import type { PutInit } from "../http/put.ts";

/** One PUT through a fresh HTTP client. */
async function putFile(url: string, options: StoreSource & PutInit): Promise<void> {
  const http = createHttpClient();
  try {
    const { headers, label, signal, ...body } = options;
    await http.put(url, body as StoreSource, { headers, label, signal });
  } finally {
    http.close();
  }
}
import { loadFetch, md5File, requestUploadLocation, uploadFastSource } from "./upload.ts";
import { fixture } from "./_test_helpers.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { LocalStore, MemStore } from "../storage/mod.ts";

interface Received {
  method: string;
  contentLength: string | null;
  transferEncoding: string | null;
  contentMd5: string | null;
  extra: string | null;
  bytes: Uint8Array;
}

/** A real HTTP server that records one PUT and answers with `status`. */
async function withServer(status: number, fn: (url: string, received: Received[]) => Promise<void>): Promise<void> {
  const received: Received[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    received.push({
      method: req.method,
      contentLength: req.headers.get("content-length"),
      transferEncoding: req.headers.get("transfer-encoding"),
      contentMd5: req.headers.get("content-md5"),
      extra: req.headers.get("x-extra"),
      bytes: new Uint8Array(await req.arrayBuffer()),
    });
    return new Response(status === 200 ? "" : "<Error><Code>AccessDenied</Code></Error>", { status });
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/bucket/key.tar.gz?X-Amz-Signature=secret`, received);
  } finally {
    await server.shutdown();
  }
}

Deno.test("md5File hashes a file as a stream", async () => {
  const path = fixture("flytesnacks-core.tgz");
  const bytes = await Deno.readFile(path);
  const { md5, size } = await md5File(path);
  assertEquals(size, bytes.length);
  assertEquals(md5, new Uint8Array(createHash("md5").update(bytes).digest()));
});

Deno.test("putFile streams the file with a Content-Length (S3 refuses chunked PUTs) and the given headers", async () => {
  const path = fixture("flytesnacks-core.tgz");
  const bytes = await Deno.readFile(path);
  await withServer(200, async (url, received) => {
    await putFile(url, { path, size: bytes.length, headers: { "Content-MD5": "abc", "X-Extra": "1" } });
    assertEquals(received.length, 1);
    const [put] = received;
    assertEquals(put.method, "PUT");
    assertEquals(put.contentLength, String(bytes.length));
    assertEquals(put.transferEncoding, null);
    assertEquals([put.contentMd5, put.extra], ["abc", "1"]);
    assertEquals(put.bytes, bytes);
  });
});

Deno.test("a Content-Length among the given headers (a data proxy's) gives way to the body's size", async () => {
  const path = fixture("flytesnacks-core.tgz");
  const bytes = await Deno.readFile(path);
  await withServer(200, async (url, received) => {
    // What FlyteAdmin's object store answers for a signed PUT: the length of the Content-MD5 text.
    await putFile(url, { path, size: bytes.length, headers: { "Content-MD5": "abc", "Content-Length": "24" } });
    assertEquals([received[0].contentLength, received[0].contentMd5], [String(bytes.length), "abc"]);
    assertEquals(received[0].bytes, bytes);
  });
});

Deno.test("a file of many chunks is sent and hashed exactly (its buffers are reused)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-upload-test-" });
  try {
    const path = `${dir}/fast-large.tar.gz`;
    // Random, and not a multiple of any buffer size: a chunk overwritten while in flight shows.
    const bytes = new Uint8Array(5 * 1024 * 1024 + 12345);
    for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
    await Deno.writeFile(path, bytes);
    assertEquals(await md5File(path), {
      md5: new Uint8Array(createHash("md5").update(bytes).digest()),
      size: bytes.length,
    });
    await withServer(200, async (url, received) => {
      await putFile(url, { path, size: bytes.length });
      assertEquals(received[0].contentLength, String(bytes.length));
      assertEquals(received[0].bytes.length, bytes.length);
      assert(received[0].bytes.every((byte, i) => byte === bytes[i]), "the bytes received are the file's");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("putFile sends bytes in memory the same way: sized, not chunked", async () => {
  const bytes = await Deno.readFile(fixture("valid-register.tgz"));
  await withServer(200, async (url, received) => {
    await putFile(url, { bytes, headers: { "Content-MD5": "abc" }, label: "src.tar.gz" });
    assertEquals(received.map((r) => [r.method, r.contentLength, r.transferEncoding, r.contentMd5]), [
      ["PUT", String(bytes.length), null, "abc"],
    ]);
    assertEquals(received[0].bytes, bytes);
  });
});

Deno.test("putFile: a non-2xx answer is an error with the status and body, never the signature", async () => {
  const path = fixture("valid-register.tgz");
  await withServer(403, async (url) => {
    await assertRejects(
      putFile(url, { path, size: (await Deno.stat(path)).size, label: "src.tar.gz" }),
      (err: Error) => {
        assert(err instanceof OperationError);
        assert(!err.message.includes("secret"), err.message);
        assert(
          /^uploading "src.tar.gz" to http:\/\/127\.0\.0\.1:\d+\/bucket\/key\.tar\.gz failed: HTTP 403: <Error><Code>AccessDenied/
            .test(err.message),
          err.message,
        );
        return true;
      },
    );
  });
});

Deno.test("uploadFastSource: CreateUploadLocation with the MD5, then the PUT the sandbox verifies", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    const path = fixture("valid-register.tgz");
    const uploaded = await uploadFastSource(client, {
      project: "p",
      domain: "d",
      path,
      name: "dir/fastabc.tar.gz",
    });
    assert(uploaded.location.endsWith("/fastabc.tar.gz"), uploaded.location);
    assertEquals(sandbox.uploads.get(uploaded.location), await Deno.readFile(path));
    assertEquals(sandbox.requests.map((r) => r.method), ["CreateUploadLocation"]);

    // A digest known from extraction is used as given: the sandbox refuses the PUT when it is wrong.
    const wrong = { md5: new Uint8Array(16), size: (await Deno.stat(path)).size };
    await assertRejects(
      uploadFastSource(client, { project: "p", domain: "d", path, name: "fastdef.tar.gz", digest: wrong }),
      /does not match Content-MD5/,
    );

    sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
    await assertRejects(
      uploadFastSource(client, { project: "p", domain: "d", path, name: "fastabc.tar.gz" }),
      /the admin service offers no upload location and no storage is configured/,
    );
    assertEquals(uploaded.via, "dataProxy");
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("uploadFastSource sends a source held in memory with its MD5 through the data proxy", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    const bytes = await Deno.readFile(fixture("valid-register.tgz"));
    // The sandbox refuses a PUT whose Content-MD5 does not match the bytes.
    const uploaded = await uploadFastSource(client, { project: "p", domain: "d", bytes, name: "fastabc.tar.gz" });
    assertEquals(sandbox.uploads.get(uploaded.location), bytes);
    assertEquals(uploaded.md5Base64, createHash("md5").update(bytes).digest("base64"));
    assertEquals(uploaded.size, bytes.length);
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("uploadFastSource falls back to storage when CreateUploadLocation is UNIMPLEMENTED", async () => {
  const root = await Deno.makeTempDir({ prefix: "fctl-storage-test-" });
  const local = new LocalStore(root, "my-bucket");
  // Another container than storage.container, as --sourceUploadPath may name, needs multicontainer (flytestdlib's rule).
  const mem = new MemStore("unused", true);
  // The storage's container, or --sourceUploadPath, with fast/<version>-<file> under it.
  const fallbacks = [
    {
      store: local,
      target: { name: "dir/fastabc.tar.gz" },
      location: "file://my-bucket/fast/v7-fastabc.tar.gz",
      stored: () => Deno.readFile(`${root}/my-bucket/fast/v7-fastabc.tar.gz`),
    },
    {
      store: mem,
      target: { name: "fastabc.tar.gz", sourceUploadPath: "mem://other/src/" },
      location: "mem://other/src/fast/v7-fastabc.tar.gz",
      stored: () => Promise.resolve(mem.objects.get("mem://other/src/fast/v7-fastabc.tar.gz")),
    },
  ];
  try {
    await withSandbox(async (sandbox, client) => {
      const path = fixture("valid-register.tgz");
      const bytes = await Deno.readFile(path);
      // A source on disk and one held in memory end up the same.
      for (const content of [{ path }, { bytes }]) {
        for (const { store, target, location, stored } of fallbacks) {
          sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
          const uploaded = await uploadFastSource(client, {
            ...content,
            ...target,
            project: "p",
            domain: "d",
            version: "v7",
            openStorage: () => store,
            allowLocalStorage: true,
          });
          assertEquals(uploaded.location, location);
          assertEquals(uploaded.via, "storage");
          assertEquals(await stored(), bytes);
        }
        await Deno.remove(`${root}/my-bucket`, { recursive: true });
        mem.objects.clear();
      }
      assertEquals(sandbox.uploads.size, 0);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the storage fallback refuses local and mem storage unless allowed: the cluster could not read them", async () => {
  await withSandbox(async (sandbox, client) => {
    const bytes = await Deno.readFile(fixture("valid-register.tgz"));
    const mem = new MemStore("my-bucket");
    const root = await Deno.makeTempDir({ prefix: "fctl-storage-test-" });
    try {
      for (const store of [mem, new LocalStore(root, "my-bucket")]) {
        sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
        await assertRejects(
          uploadFastSource(client, {
            bytes,
            name: "fastabc.tar.gz",
            project: "p",
            domain: "d",
            openStorage: () => store,
          }),
          (err: Error) => {
            assert(err instanceof UsageError, String(err));
            assertEquals(
              err.message,
              'cannot upload fast-registration source "fastabc.tar.gz": the admin service offers no upload location, ' +
                `and storage.type ${store.type} keeps it where the admin's cluster cannot read it; configure s3, ` +
                "minio or stow storage the cluster reads, or, for an admin on this machine, pass " +
                "--storage.allow-local-fallback",
            );
            return true;
          },
        );
      }
      assertEquals(mem.objects.size, 0);
      assertEquals([...Deno.readDirSync(root)], []);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

/** Waits until `done` holds, checking once per millisecond for at most a second. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited++) {
    if (waited > 1000) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

Deno.test("requestUploadLocation asks for the location at once, and sends the bytes only on upload()", async () => {
  await withSandbox(async (sandbox, client) => {
    const bytes = await Deno.readFile(fixture("valid-register.tgz"));
    const requested = requestUploadLocation(client, { project: "p", domain: "d", bytes, name: "fastabc.tar.gz" });
    await until(() => sandbox.requests.length === 1);
    assertEquals(sandbox.requests.map((r) => r.method), ["CreateUploadLocation"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assertEquals(sandbox.uploads.size, 0, "nothing is uploaded before upload()");
    const uploaded = await requested.upload();
    assertEquals(sandbox.uploads.get(uploaded.location), bytes);
    assertEquals(sandbox.requests.length, 1, "the location is asked for once");
    requested.cancel(); // after the upload: changes nothing
    assertEquals(sandbox.uploads.get(uploaded.location), bytes);
  });
});

Deno.test("requestUploadLocation: a failed request is thrown by upload(), and one never awaited is harmless", async () => {
  await withSandbox(async (sandbox, client) => {
    const bytes = new Uint8Array([1, 2, 3]);
    sandbox.failNext("CreateUploadLocation", Code.PermissionDenied, 2);
    const awaited = requestUploadLocation(client, { project: "p", domain: "d", bytes, name: "fasta.tar.gz" });
    await assertRejects(awaited.upload(), /PermissionDenied/);
    // Never awaited: its rejection must not surface as an unhandled one (which fails the test).
    const ignored = requestUploadLocation(client, { project: "p", domain: "d", bytes, name: "fastb.tar.gz" });
    await until(() => sandbox.requests.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    ignored.cancel();
    assertEquals(sandbox.uploads.size, 0);
  });
});

Deno.test("requestUploadLocation: cancel() ends a request waiting to be retried, and nothing is uploaded", async () => {
  const sandbox = await startSandbox();
  // A backoff far longer than the test: were it not cancelled, its timer would fail the test as a leak.
  const retry = { maxAttempts: 5, initialBackoffMs: 60_000, maxBackoffMs: 60_000, perAttemptTimeoutMs: 0 };
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true, retry });
  try {
    sandbox.failNext("CreateUploadLocation", Code.Unavailable);
    const bytes = new Uint8Array([1, 2, 3]);
    const requested = requestUploadLocation(client, { project: "p", domain: "d", bytes, name: "fastc.tar.gz" });
    await until(() => sandbox.requests.length === 1);
    requested.cancel();
    await assertRejects(requested.upload(), /Canceled: the source upload is no longer needed/);
    assertEquals(sandbox.requests.length, 1, "no retry after cancel");
    assertEquals(sandbox.uploads.size, 0);
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("loadFetch needs no network access and never rejects: run where the network is denied", async () => {
  assertEquals(await loadFetch(), undefined);
  const dir = await Deno.makeTempDir({ prefix: "fctl-load-fetch-" });
  try {
    const script = `${dir}/load_fetch.ts`;
    const upload = new URL("./upload.ts", import.meta.url).href;
    // Whether the data: URL was read: loadFetch itself never rejects.
    await Deno.writeTextFile(
      script,
      [
        `import { loadFetch } from ${JSON.stringify(upload)};`,
        "const read = globalThis.fetch;",
        "let failed = false;",
        "globalThis.fetch = (input, init) => read(input, init).catch((err) => { failed = true; throw err; });",
        "await loadFetch();",
        'if (failed) throw new Error("the data: URL was not read");',
      ].join("\n"),
    );
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        ...["run", "--no-prompt", "--quiet", "--config", fileURLToPath(new URL("../../deno.json", import.meta.url))],
        ...["--deny-net", "--allow-read", "--allow-env", "--allow-sys", script],
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals([code, new TextDecoder().decode(stderr)], [0, ""]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Every backend keeps the same contract (src/storage/store.ts): mem, local, and s3 against a real S3-API
 * server (s3rver, see _test_s3.ts).
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { OperationError, UsageError } from "../errors.ts";
import { S3RVER_KEYS, startTestS3 } from "./_test_s3.ts";
import { openStorage, type StorageConfig } from "./mod.ts";
import type { ObjectStore } from "./store.ts";

const md5 = (bytes: Uint8Array) => new Uint8Array(createHash("md5").update(bytes).digest());

/** Runs `fn` with each backend, its container `bkt`, multicontainer as given. */
async function eachBackend(
  multiContainer: boolean,
  fn: (store: ObjectStore, scheme: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "fctl-store-test-" });
  const s3 = await startTestS3();
  const base: StorageConfig = { type: "", container: "bkt", multiContainer, defaultLocalRoot: root };
  try {
    for (
      const [config, scheme] of [
        [{ ...base, type: "mem" }, "mem"],
        [{ ...base, type: "local" }, "file"],
        [{
          ...base,
          type: "s3",
          endpoint: s3.endpoint,
          authType: "accesskey",
          accessKey: S3RVER_KEYS.accessKey,
          secretKey: S3RVER_KEYS.secretKey,
        }, "s3"],
      ] as const
    ) {
      const store = await openStorage(config);
      try {
        await fn(store, scheme);
      } finally {
        store.close();
        store.close(); // idempotent
      }
    }
  } finally {
    await s3.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("every backend: write bytes or a file, head, read whole within a limit, stream", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-store-test-" });
  try {
    const big = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    await Deno.writeFile(`${dir}/big.bin`, big);
    await eachBackend(false, async (store, scheme) => {
      assertEquals(store.baseReference(), `${scheme}://bkt`);
      const small = new TextEncoder().encode("hello storage");
      await store.writeFile(`${scheme}://bkt/a/small.txt`, { bytes: small, md5: md5(small) });
      await store.writeFile(`${scheme}://bkt/a/big.bin`, { path: `${dir}/big.bin`, size: big.length, md5: md5(big) });
      assertEquals(await store.head(`${scheme}://bkt/a/small.txt`), { size: small.length });
      assertEquals(await store.head(`${scheme}://bkt/a/big.bin`), { size: big.length });
      assertEquals(await store.head(`${scheme}://bkt/a/none`), undefined);
      assertEquals(await store.readBytes(`${scheme}://bkt/a/small.txt`, small.length), small);
      // Larger than the limit: refused naming the object, its size and the option.
      await assertRejects(store.readBytes(`${scheme}://bkt/a/big.bin`, 1024), (err: Error) => {
        assert(err instanceof OperationError, `${scheme}: ${err}`);
        assertEquals(
          err.message,
          `cannot read "${scheme}://bkt/a/big.bin" into memory: it is 300000 bytes, more than the 1024 bytes ` +
            "storage.limits.maxDownloadMBs allows",
        );
        return true;
      });
      // Streams are not bound by the limit.
      const chunks: Uint8Array[] = [];
      for await (const chunk of await store.readStream(`${scheme}://bkt/a/big.bin`)) chunks.push(chunk);
      assertEquals(new Uint8Array(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer()), big);
      await assertRejects(store.readBytes(`${scheme}://bkt/a/none`, 10), /no such object/);
      // Replacing an object.
      await store.writeFile(`${scheme}://bkt/a/small.txt`, { bytes: big.subarray(0, 10) });
      assertEquals(await store.readBytes(`${scheme}://bkt/a/small.txt`, 100), big.subarray(0, 10));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every backend: another scheme, or another container without multicontainer, is a usage error naming it", async () => {
  await eachBackend(false, async (store, scheme) => {
    const bytes = new Uint8Array([1]);
    const other = scheme === "s3" ? "gs" : "s3";
    await assertRejects(store.writeFile(`${other}://bkt/x`, { bytes }), (err: Error) => {
      assert(err instanceof UsageError);
      assertEquals(
        err.message,
        `${store.type} storage cannot serve "${other}://bkt/x": expected a ${scheme}:// location`,
      );
      return true;
    });
    await assertRejects(store.head(`${scheme}://elsewhere/x`), (err: Error) => {
      assert(err instanceof UsageError);
      assertEquals(
        err.message,
        `${store.type} storage cannot serve "${scheme}://elsewhere/x": its container "elsewhere" is not ` +
          'storage.container "bkt"; set storage.enable-multicontainer to use other containers',
      );
      return true;
    });
    await assertRejects(store.readStream(`${scheme}://bkt`), /names no object/);
  });
  // With multicontainer, each reference names its container (s3: created when absent).
  await eachBackend(true, async (store, scheme) => {
    const bytes = new TextEncoder().encode("elsewhere");
    await store.writeFile(`${scheme}://other-bucket/k`, { bytes });
    assertEquals(await store.readBytes(`${scheme}://other-bucket/k`, 100), bytes);
  });
});

Deno.test("every backend: an aborted call rejects with the signal's reason", async () => {
  await eachBackend(false, async (store, scheme) => {
    const controller = new AbortController();
    const reason = new DOMException("stop", "AbortError");
    controller.abort(reason);
    await assertRejects(store.writeFile(`${scheme}://bkt/x`, { bytes: new Uint8Array(1) }, controller.signal), reason);
  });
});

Deno.test("s3: a server that does not answer within storage.defaultHttpClient.timeout is one line naming the object", async () => {
  // A real listener that accepts connections and never answers.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const store = await openStorage({
      type: "minio",
      container: "bkt",
      endpoint: `http://127.0.0.1:${listener.addr.port}`,
      authType: "accesskey",
      accessKey: "AK",
      secretKey: "SK",
      defaultLocalRoot: "",
      timeoutMs: 150,
    });
    try {
      const started = performance.now();
      await assertRejects(store.head("s3://bkt/x"), (err: Error) => {
        assert(err instanceof OperationError, String(err));
        assertEquals(
          err.message,
          'cannot read "s3://bkt/x": no answer within storage.defaultHttpClient.timeout (150 ms)',
        );
        return true;
      });
      // Each attempt (the SDK retries a timeout twice) is bounded.
      assert(performance.now() - started < 5_000);
    } finally {
      store.close();
    }
  } finally {
    listener.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});

Deno.test("openStorage: an unknown type or stow kind is a usage error naming it and the accepted ones", async () => {
  const base = { container: "b", defaultLocalRoot: "" };
  await assertRejects(openStorage({ ...base, type: "ftp" }), {
    name: "UsageError",
    message: 'storage.type "ftp" is not supported; accepted types: s3, minio, local, mem, stow',
  });
  await assertRejects(openStorage({ ...base, type: "STOW", stowKind: "swift" }), {
    name: "UsageError",
    message: 'storage.stow.kind "swift" is not supported; accepted kinds: s3, google, azure',
  });
  await assertRejects(openStorage({ ...base, type: "minio" }), {
    name: "UsageError",
    message: "storage.type minio needs storage.connection.endpoint (the minio server's URL)",
  });
});

import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { OperationError, UsageError } from "../errors.ts";
import { type FakeGcs, startFakeGcs } from "./_gcs_test_server.ts";
import { openGcsStore } from "./gcs.ts";
import type { ObjectStore, StowStoreSettings } from "./store.ts";

function md5(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("md5").update(bytes).digest());
}

function settings(gcs: FakeGcs, overrides: Partial<StowStoreSettings> = {}): StowStoreSettings {
  return {
    container: "fctl-bucket",
    multiContainer: false,
    config: { json: gcs.serviceAccountJson, project_id: "fctl-test-project", endpoint: gcs.endpoint },
    timeoutMs: 0,
    ...overrides,
  };
}

async function withGcs(fn: (gcs: FakeGcs) => Promise<void>): Promise<void> {
  const gcs = await startFakeGcs();
  try {
    await fn(gcs);
  } finally {
    await gcs.close();
  }
}

async function withStore(gcs: FakeGcs, s: StowStoreSettings, fn: (store: ObjectStore) => Promise<void>) {
  const store = openGcsStore(s);
  try {
    await fn(store);
  } finally {
    store.close();
  }
}

Deno.test("stow google: bytes round trip with md5, bucket created in the project, token sent", async () => {
  await withGcs(async (gcs) => {
    await withStore(gcs, settings(gcs), async (store) => {
      equal(store.type, "stow/google");
      equal(store.baseReference(), "gs://fctl-bucket");
      const bytes = new TextEncoder().encode("hello gcs");
      await store.writeFile("gs://fctl-bucket/fast/v1-a.tgz", { bytes, md5: md5(bytes) });
      const stored = gcs.buckets.get("fctl-bucket")?.get("fast/v1-a.tgz");
      ok(stored, "object stored");
      deepEqual(stored.bytes, bytes);
      equal(stored.md5Hash, btoa(String.fromCharCode(...md5(bytes))));
      equal(stored.uploadType, "multipart");
      deepEqual(gcs.createdIn, ["fctl-test-project"]);
      deepEqual(await store.head("gs://fctl-bucket/fast/v1-a.tgz"), { size: bytes.byteLength });
      equal(await store.head("gs://fctl-bucket/fast/none"), undefined);
      deepEqual(await store.readBytes("gs://fctl-bucket/fast/v1-a.tgz", 1024), bytes);
      const streamed = new Uint8Array(
        await new Response(await store.readStream("gs://fctl-bucket/fast/v1-a.tgz")).arrayBuffer(),
      );
      deepEqual(streamed, bytes);
      equal(gcs.tokens.length, 1);
      const storageCalls = gcs.requests.filter((r) => r.target !== "/token");
      ok(storageCalls.length >= 5);
      for (const call of storageCalls) equal(call.authorization, `Bearer ${gcs.tokens[0]}`, call.target);
    });
  });
});

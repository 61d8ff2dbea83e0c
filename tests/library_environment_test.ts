/**
 * The library reads no environment but the one it is given: Google Cloud Storage's `GOOGLE_APPLICATION_CREDENTIALS`
 * comes from `openStorage`'s `env`, or from `connect({ env })` for a connection's storage, never from the process.
 * The process running these tests has no such variable; the credentials file a test names is a service account of
 * a Cloud Storage API server on loopback, whose token endpoint issues the token every call must carry.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { connect, openStorage, type StorageConfig } from "../mod.ts";
import { type FakeGcs, startFakeGcs } from "../src/storage/_test_gcs_server.ts";

/** Stow google settings with no `json`: the credentials are the application default ones. */
function googleStorage(gcs: FakeGcs): StorageConfig {
  return {
    type: "stow",
    stowKind: "google",
    container: "env-bucket",
    defaultLocalRoot: "",
    stowConfig: { json: "", project_id: "fctl-test-project", endpoint: gcs.endpoint },
    // Bounds Google's own search for credentials (the metadata server), should the given variable be ignored.
    timeoutMs: 10_000,
  };
}

async function withCredentialsFile(gcs: FakeGcs, fn: (file: string) => Promise<void>): Promise<void> {
  assert(Deno.env.get("GOOGLE_APPLICATION_CREDENTIALS") === undefined, "the test process names no credentials");
  const file = await Deno.makeTempFile({ prefix: "fctl-gcs-credentials-", suffix: ".json" });
  try {
    await Deno.writeTextFile(file, gcs.serviceAccountJson);
    await fn(file);
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("openStorage: stow google takes GOOGLE_APPLICATION_CREDENTIALS from the env it is given", async () => {
  const gcs = await startFakeGcs();
  try {
    await withCredentialsFile(gcs, async (file) => {
      using store = await openStorage({ ...googleStorage(gcs), env: { GOOGLE_APPLICATION_CREDENTIALS: file } });
      const ref = "gs://env-bucket/fast/a.txt";
      await store.writeFile(ref, { bytes: new TextEncoder().encode("abc") });
      deepEqual(await store.head(ref), { size: 3 });
      equal(gcs.tokens.length, 1);
      equal(gcs.requests.at(-1)?.authorization, `Bearer ${gcs.tokens[0]}`);
    });
  } finally {
    await gcs.close();
  }
});

Deno.test("connect({ env }): the connection's storage takes GOOGLE_APPLICATION_CREDENTIALS from that env", async () => {
  const gcs = await startFakeGcs();
  try {
    await withCredentialsFile(gcs, async (file) => {
      await using flyte = await connect({
        flags: {
          "admin.endpoint": "http://127.0.0.1:1",
          "admin.insecure": true,
          "storage.type": "stow",
          "storage.container": "env-bucket",
          "storage.stow.kind": "google",
          "storage.stow.config": `json=,project_id=fctl-test-project,endpoint=${gcs.endpoint}`,
          "storage.defaultHttpClient.timeout": "10s",
        },
        env: { GOOGLE_APPLICATION_CREDENTIALS: file },
      });
      const store = await flyte.uploads().openStorage();
      await store.writeFile("gs://env-bucket/fast/b.txt", { bytes: new TextEncoder().encode("b") });
      equal(gcs.tokens.length, 1);
      equal(gcs.requests.at(-1)?.authorization, `Bearer ${gcs.tokens[0]}`);
    });
  } finally {
    await gcs.close();
  }
});

import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { createHash } from "node:crypto";
import { OperationError, UsageError } from "../errors.ts";
import { type FakeGcs, startFakeGcs } from "./_test_gcs_server.ts";
import { assertReadLimits } from "./_test_contract.ts";
import { openGcsStore } from "./gcs.ts";
import type { ObjectStore, StowStoreSettings } from "./store.ts";

function md5(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("md5").update(bytes).digest());
}

function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
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

async function withStore(s: StowStoreSettings, fn: (store: ObjectStore) => Promise<void>) {
  const store = openGcsStore(s);
  try {
    await fn(store);
  } finally {
    store.close();
  }
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  return await promise.then(() => {
    throw new Error("expected a failure");
  }, (err: Error) => err);
}

Deno.test("stow google against a loopback GCS API server", async (t) => {
  const gcs = await startFakeGcs();
  try {
    await t.step("bytes round trip with md5; bucket created in the project; every call carries the token", async () => {
      await withStore(settings(gcs), async (store) => {
        equal(store.type, "stow/google");
        equal(store.baseReference(), "gs://fctl-bucket");
        const bytes = new TextEncoder().encode("hello gcs");
        await store.writeFile("gs://fctl-bucket/fast/v1-a.tgz", { bytes, md5: md5(bytes) });
        const stored = gcs.buckets.get("fctl-bucket")?.get("fast/v1-a.tgz");
        ok(stored, "object stored");
        deepEqual(stored.bytes, bytes);
        equal(stored.md5Hash, base64(md5(bytes)));
        equal(stored.uploadType, "multipart");
        deepEqual(gcs.createdIn, ["fctl-test-project"]);
        deepEqual(await store.head("gs://fctl-bucket/fast/v1-a.tgz"), { size: bytes.byteLength });
        equal(await store.head("gs://fctl-bucket/fast/none"), undefined);
        deepEqual(await store.readBytes("gs://fctl-bucket/fast/v1-a.tgz", 1024), bytes);
        const streamed = await new Response(await store.readStream("gs://fctl-bucket/fast/v1-a.tgz")).arrayBuffer();
        deepEqual(new Uint8Array(streamed), bytes);
        equal(gcs.tokens.length, 1);
        const storageCalls = gcs.requests.filter((r) => r.target !== "/token");
        ok(storageCalls.length >= 6);
        for (const call of storageCalls) equal(call.authorization, `Bearer ${gcs.tokens[0]}`, call.target);
      });
    });

    await t.step("a large file goes up resumably, streamed from disk, with its md5", async () => {
      await withStore(settings(gcs), async (store) => {
        const fileBytes = new Uint8Array(9 * 1024 * 1024 + 5).map((_, i) => (i * 7919) % 251);
        const file = await Deno.makeTempFile();
        try {
          await Deno.writeFile(file, fileBytes);
          await store.writeFile("gs://fctl-bucket/fast/v1-big.tgz", {
            path: file,
            size: fileBytes.byteLength,
            md5: md5(fileBytes),
          });
        } finally {
          await Deno.remove(file);
        }
        const stored = gcs.buckets.get("fctl-bucket")?.get("fast/v1-big.tgz");
        ok(stored);
        equal(stored.uploadType, "resumable");
        equal(stored.md5Hash, base64(md5(fileBytes)));
        ok(stored.bytes.byteLength === fileBytes.byteLength && stored.bytes.every((b, i) => b === fileBytes[i]));
        deepEqual(await store.head("gs://fctl-bucket/fast/v1-big.tgz"), { size: fileBytes.byteLength });
        // Streams are not bound by the read limit.
        const streamed = await new Response(await store.readStream("gs://fctl-bucket/fast/v1-big.tgz")).arrayBuffer();
        equal(streamed.byteLength, fileBytes.byteLength);
      });
    });

    await t.step("keys with spaces, non-ASCII and URL characters are stored as named", async () => {
      await withStore(settings(gcs), async (store) => {
        const ref = "gs://fctl-bucket/fast/v1 ü#?%.tgz";
        await store.writeFile(ref, { bytes: new Uint8Array([1, 2]) });
        deepEqual(await store.head(ref), { size: 2 });
        deepEqual(await store.readBytes(ref, 2), new Uint8Array([1, 2]));
        ok(gcs.buckets.get("fctl-bucket")?.has("fast/v1 ü#?%.tgz"));
      });
    });

    await t.step("a wrong MD5 is refused by the service and nothing is stored", async () => {
      await withStore(settings(gcs), async (store) => {
        const bytes = new TextEncoder().encode("tampered");
        const err = await failure(
          store.writeFile("gs://fctl-bucket/fast/bad", { bytes, md5: md5(new TextEncoder().encode("other")) }),
        );
        ok(err instanceof OperationError, String(err));
        ok(/^cannot write "gs:\/\/fctl-bucket\/fast\/bad": .*MD5/.test(err.message), err.message);
        equal(gcs.buckets.get("fctl-bucket")?.has("fast/bad"), false);
      });
    });

    await t.step("readBytes refuses an object over the limit; a missing object is named", async () => {
      await withStore(settings(gcs), async (store) => {
        await assertReadLimits(store, { ref: "gs://fctl-bucket/fast/v1-a.tgz", size: 9 }, "gs://fctl-bucket/none");
      });
    });

    await t.step("other schemes and buckets are usage errors; multicontainer writes to others", async () => {
      await withStore(settings(gcs), async (store) => {
        await rejects(
          store.writeFile("s3://fctl-bucket/x", { bytes: new Uint8Array(1) }),
          new UsageError('stow google storage cannot serve "s3://fctl-bucket/x": expected a gs:// location'),
        );
        await rejects(
          store.head("gs://other/x"),
          new UsageError(
            'stow google storage cannot serve "gs://other/x": its container "other" is not storage.container "fctl-bucket"; set storage.enable-multicontainer to use other containers',
          ),
        );
        await rejects(
          store.head("gs://fctl-bucket/"),
          new UsageError('storage location "gs://fctl-bucket/" names no object'),
        );
      });
      await withStore(settings(gcs, { multiContainer: true }), async (store) => {
        await store.writeFile("gs://second-bucket/k", { bytes: new Uint8Array([1, 2, 3]) });
        deepEqual(gcs.buckets.get("second-bucket")?.get("k")?.bytes, new Uint8Array([1, 2, 3]));
      });
    });

    await t.step("an account that may write objects but not see the bucket still writes", async () => {
      gcs.misbehave("forbid-bucket-get");
      try {
        await withStore(settings(gcs), async (store) => {
          await store.writeFile("gs://fctl-bucket/fast/objects-only", { bytes: new Uint8Array([7]) });
        });
        deepEqual(gcs.buckets.get("fctl-bucket")?.get("fast/objects-only")?.bytes, new Uint8Array([7]));
        await withStore(settings(gcs, { multiContainer: true }), async (store) => {
          await rejects(
            store.writeFile("gs://absent-bucket/k", { bytes: new Uint8Array([7]) }),
            new OperationError('cannot write "gs://absent-bucket/k": The specified bucket does not exist.'),
          );
        });
      } finally {
        gcs.misbehave("none");
      }
    });

    await t.step(
      "application default credentials from the settings' GOOGLE_APPLICATION_CREDENTIALS, its token_uri honoured",
      async () => {
        const file = await Deno.makeTempFile({ suffix: ".json" });
        try {
          await Deno.writeTextFile(file, gcs.serviceAccountJson);
          const tokens = gcs.tokens.length;
          const s = settings(gcs);
          await withStore(
            {
              ...s,
              config: { json: "", project_id: "fctl-test-project", endpoint: gcs.endpoint },
              env: { GOOGLE_APPLICATION_CREDENTIALS: file },
            },
            async (store) => {
              deepEqual(await store.head("gs://fctl-bucket/fast/v1-a.tgz"), { size: 9 });
            },
          );
          equal(gcs.tokens.length, tokens + 1);
          equal(gcs.requests.at(-1)?.authorization, `Bearer ${gcs.tokens.at(-1)}`);
        } finally {
          await Deno.remove(file);
        }
      },
    );

    await t.step("user credentials (authorized_user) in json refresh their token at its token_uri", async () => {
      const s = settings(gcs);
      const tokens = gcs.tokens.length;
      await withStore({ ...s, config: { ...s.config, json: gcs.authorizedUserJson } }, async (store) => {
        deepEqual(await store.head("gs://fctl-bucket/fast/v1-a.tgz"), { size: 9 });
      });
      equal(gcs.tokens.length, tokens + 1);
      ok(gcs.tokens.at(-1)?.startsWith("ya29.fctl-test-user-"));
      equal(gcs.requests.at(-1)?.authorization, `Bearer ${gcs.tokens.at(-1)}`);
      const impostor = JSON.stringify({
        ...JSON.parse(gcs.authorizedUserJson),
        refresh_token: "1//stolen-and-revoked",
      });
      await withStore({ ...s, config: { ...s.config, json: impostor } }, async (store) => {
        const err = await failure(store.head("gs://fctl-bucket/fast/v1-a.tgz"));
        ok(err instanceof OperationError, String(err));
        ok(err.message.startsWith('cannot check "gs://fctl-bucket/fast/v1-a.tgz": '), err.message);
        ok(!err.message.includes("1//stolen-and-revoked") && !err.message.includes("fctl-test-client-secret"));
      });
    });

    await t.step("failures are one line naming the reference, never the private key or a token", async () => {
      const impostor = JSON.stringify({ ...JSON.parse(gcs.serviceAccountJson), client_email: "someone@else.iam" });
      const s = settings(gcs);
      await withStore({ ...s, config: { ...s.config, json: impostor } }, async (store) => {
        const err = await failure(store.head("gs://fctl-bucket/fast/v1-a.tgz"));
        ok(err instanceof OperationError, String(err));
        ok(err.message.startsWith('cannot check "gs://fctl-bucket/fast/v1-a.tgz": '), err.message);
        ok(/invalid_grant/.test(err.message), err.message);
        ok(!err.message.includes("\n") && !err.message.includes("PRIVATE KEY"));
        equal(err.cause, undefined);
      });
      gcs.misbehave("fail");
      try {
        await withStore(settings(gcs), async (store) => {
          const err = await failure(store.readBytes("gs://fctl-bucket/fast/v1-a.tgz", 100));
          ok(err instanceof OperationError, String(err));
          equal(err.message, 'cannot check "gs://fctl-bucket/fast/v1-a.tgz": Forbidden (test)');
          for (const token of gcs.tokens) ok(!err.message.includes(token));
          ok(!err.message.includes(gcs.privateKeyPem.split("\n")[1]));
        });
      } finally {
        gcs.misbehave("none");
      }
    });

    await t.step(
      "storage.defaultHttpClient.timeout bounds a call; a caller's abort rejects with its reason",
      async () => {
        gcs.misbehave("stall");
        try {
          await withStore(settings(gcs, { timeoutMs: 300 }), async (store) => {
            await rejects(
              store.head("gs://fctl-bucket/fast/v1-a.tgz"),
              new OperationError(
                'cannot check "gs://fctl-bucket/fast/v1-a.tgz": no answer within 300 ms (storage.defaultHttpClient.timeout)',
              ),
            );
          });
        } finally {
          gcs.misbehave("none");
        }
        await withStore(settings(gcs), async (store) => {
          const controller = new AbortController();
          controller.abort(new Error("stop"));
          await rejects(
            store.writeFile("gs://fctl-bucket/x", { bytes: new Uint8Array(1) }, controller.signal),
            /^Error: stop$/,
          );
        });
      },
    );
  } finally {
    await gcs.close();
  }
});

Deno.test("stow google config: one error naming bad keys and the accepted ones, never the json", () => {
  const base = { container: "b", multiContainer: false, timeoutMs: 0 };
  const accepted = "json, project_id, scopes, endpoint";
  throws(
    () => openGcsStore({ ...base, config: { json: "", projectid: "p" } }),
    new UsageError(
      `storage.stow.config has unknown key "projectid" for stow kind google; accepted: ${accepted}; storage.stow.config lacks "project_id" (project that buckets are created in); accepted: ${accepted}`,
    ),
  );
  const broken = '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE';
  throws(
    () => openGcsStore({ ...base, config: { json: broken, project_id: "p", endpoint: "ftp://x" } }),
    new UsageError(
      'storage.stow.config json is not valid JSON; storage.stow.config endpoint "ftp://x" is not an http:// or https:// URL',
    ),
  );
  throws(
    () => openGcsStore({ ...base, config: { json: '{"type":"service_account","private_key":"k"}', project_id: "p" } }),
    new UsageError("storage.stow.config json is a service account without client_email"),
  );
  equal(openGcsStore({ ...base, container: "", config: { project_id: "p" } }).type, "stow/google");
  throws(
    () => openGcsStore({ ...base, container: "", config: { project_id: "p" } }).baseReference(),
    new UsageError("storage.container must be set to write to stow google storage"),
  );
});

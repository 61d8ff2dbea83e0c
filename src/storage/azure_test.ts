import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { createHash } from "node:crypto";
import { OperationError, UsageError } from "../errors.ts";
import { type Azurite, AZURITE_ACCOUNT, AZURITE_KEY, startAzurite } from "./_test_azurite_server.ts";
import { assertReadLimits } from "./_test_contract.ts";
import { openAzureStore } from "./azure.ts";
import { azureServiceUrl } from "./stow_config.ts";
import type { ObjectStore, StowStoreSettings } from "./store.ts";

function md5(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("md5").update(bytes).digest());
}

function settings(azurite: Azurite, overrides: Partial<StowStoreSettings> = {}): StowStoreSettings {
  return {
    container: "fctl-container",
    multiContainer: false,
    config: { account: AZURITE_ACCOUNT, key: AZURITE_KEY, endpoint: azurite.endpoint },
    timeoutMs: 0,
    ...overrides,
  };
}

async function withStore(s: StowStoreSettings, fn: (store: ObjectStore) => Promise<void>) {
  const store = openAzureStore(s);
  try {
    await fn(store);
  } finally {
    store.close();
  }
}

/** A second client on the emulator: what is really stored there. */
async function stored(azurite: Azurite, container: string, key: string) {
  const { BlobServiceClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
  const blob = new BlobServiceClient(azurite.endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY))
    .getContainerClient(container).getBlobClient(key);
  const properties = await blob.getProperties();
  const bytes = new Uint8Array(await blob.downloadToBuffer());
  return { bytes, contentMD5: properties.contentMD5 };
}

Deno.test("stow azure against Azurite", async (t) => {
  const azurite = await startAzurite();
  try {
    await t.step("bytes and a file round trip with md5; container created when absent", async () => {
      await withStore(settings(azurite), async (store) => {
        equal(store.type, "stow/azure");
        equal(store.baseReference(), "abfs://fctl-container");
        const bytes = new TextEncoder().encode("hello azure");
        await store.writeFile("abfs://fctl-container/fast/v1-a.tgz", { bytes, md5: md5(bytes) });
        let blob = await stored(azurite, "fctl-container", "fast/v1-a.tgz");
        deepEqual(blob.bytes, bytes);
        deepEqual(blob.contentMD5, md5(bytes));

        const fileBytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7919) % 251);
        const file = await Deno.makeTempFile();
        try {
          await Deno.writeFile(file, fileBytes);
          await store.writeFile("abfss://fctl-container/fast/v1-big.tgz", {
            path: file,
            size: fileBytes.byteLength,
            md5: md5(fileBytes),
          });
        } finally {
          await Deno.remove(file);
        }
        blob = await stored(azurite, "fctl-container", "fast/v1-big.tgz");
        deepEqual(blob.contentMD5, md5(fileBytes));
        ok(blob.bytes.byteLength === fileBytes.byteLength && blob.bytes.every((b, i) => b === fileBytes[i]));

        deepEqual(await store.head("abfs://fctl-container/fast/v1-big.tgz"), { size: fileBytes.byteLength });
        equal(await store.head("abfs://fctl-container/fast/none"), undefined);
        deepEqual(await store.readBytes("abfs://fctl-container/fast/v1-a.tgz", 1024), bytes);
        const streamed = new Uint8Array(
          await new Response(await store.readStream("abfs://fctl-container/fast/v1-big.tgz")).arrayBuffer(),
        );
        equal(streamed.byteLength, fileBytes.byteLength);
        ok(streamed.every((b, i) => b === fileBytes[i]));
      });
    });

    await t.step("keys with spaces, non-ASCII and URL characters are stored as named", async () => {
      await withStore(settings(azurite), async (store) => {
        const ref = "abfs://fctl-container/fast/v1 ü#?%.tgz";
        await store.writeFile(ref, { bytes: new Uint8Array([1, 2]) });
        deepEqual(await store.head(ref), { size: 2 });
        deepEqual(await store.readBytes(ref, 2), new Uint8Array([1, 2]));
      });
    });

    await t.step("a wrong MD5 is refused by the service and nothing is stored", async () => {
      await withStore(settings(azurite), async (store) => {
        const bytes = new TextEncoder().encode("tampered");
        await rejects(
          store.writeFile("abfs://fctl-container/fast/bad", { bytes, md5: md5(new TextEncoder().encode("other")) }),
          (err: Error) =>
            err instanceof OperationError &&
            /^cannot write "abfs:\/\/fctl-container\/fast\/bad": .*MD5/.test(err.message),
        );
        equal(await store.head("abfs://fctl-container/fast/bad"), undefined);
      });
    });

    await t.step("readBytes refuses an object over the limit; a missing object is named", async () => {
      await withStore(settings(azurite), async (store) => {
        const existing = { ref: "abfs://fctl-container/fast/v1-a.tgz", size: 11 };
        await assertReadLimits(store, existing, "abfs://fctl-container/none");
      });
    });

    await t.step("other schemes and containers are usage errors; multicontainer and the ADLS form", async () => {
      await withStore(settings(azurite), async (store) => {
        await rejects(
          store.writeFile("s3://fctl-container/x", { bytes: new Uint8Array(1) }),
          new UsageError(
            'stow azure storage cannot serve "s3://fctl-container/x": expected a abfs:// or abfss:// location',
          ),
        );
        await rejects(
          store.head("abfs://other/x"),
          new UsageError(
            'stow azure storage cannot serve "abfs://other/x": its container "other" is not storage.container "fctl-container"; set storage.enable-multicontainer to use other containers',
          ),
        );
        await rejects(
          store.head("abfs://fctl-container@someoneelse.dfs.core.windows.net/x"),
          new UsageError(
            'stow azure storage cannot serve "abfs://fctl-container@someoneelse.dfs.core.windows.net/x": its account is not the configured "devstoreaccount1"',
          ),
        );
        deepEqual(await store.head("abfs://fctl-container@devstoreaccount1.dfs.core.windows.net/fast/v1-a.tgz"), {
          size: 11,
        });
      });
      await withStore(settings(azurite, { multiContainer: true }), async (store) => {
        const bytes = new Uint8Array([1, 2, 3]);
        await store.writeFile("abfs://second-container/k", { bytes });
        deepEqual((await stored(azurite, "second-container", "k")).bytes, bytes);
      });
    });

    await t.step("a wrong key fails with one line naming the reference and never the key", async () => {
      const wrongKey = btoa("not-the-key-".repeat(5));
      const s = settings(azurite);
      await withStore({ ...s, config: { ...s.config, key: wrongKey } }, async (store) => {
        const err = await store.writeFile("abfs://fctl-container/x", { bytes: new Uint8Array(1) }).then(
          () => undefined,
          (e: Error) => e,
        );
        ok(err instanceof OperationError, String(err));
        ok(err.message.startsWith('cannot create "abfs://fctl-container": '), err.message);
        ok(!err.message.includes("\n"));
        ok(!err.message.includes(wrongKey) && !err.message.includes(AZURITE_KEY));
        ok(!String(err.stack).includes(wrongKey));
        equal(err.cause, undefined);
      });
    });

    await t.step("a caller's abort rejects with its reason", async () => {
      await withStore(settings(azurite), async (store) => {
        const controller = new AbortController();
        controller.abort(new Error("stop"));
        await rejects(store.head("abfs://fctl-container/fast/v1-a.tgz", controller.signal), /^Error: stop$/);
      });
    });
  } finally {
    await azurite.close();
  }
});

Deno.test("stow azure config: one error naming bad keys and the accepted ones, never the key's value", () => {
  const base = { container: "c", multiContainer: false, timeoutMs: 0 };
  const accepted = "account, key, domain_suffix, base_url, upload_concurrency, endpoint";
  throws(
    () => openAzureStore({ ...base, config: { account: "acct1", keyy: "x" } }),
    new UsageError(
      `storage.stow.config has unknown key "keyy" for stow kind azure; accepted: ${accepted}; storage.stow.config lacks "key" (storage account access key (fctl authenticates with the account key only)); accepted: ${accepted}`,
    ),
  );
  const secret = "c2VjcmV0IGtleSB3aXRoIGEgc3BhY2U gbm90IGJhc2U2NA";
  throws(
    () => openAzureStore({ ...base, config: { account: "acct1", key: secret, use_https: "false" } }),
    (err: Error) => {
      ok(err instanceof UsageError);
      ok(!err.message.includes(secret));
      equal(
        err.message,
        'storage.stow.config key "use_https" was removed from stow azure: set endpoint to an http:// URL for a local emulator; storage.stow.config key is not a base64 account key',
      );
      return true;
    },
  );
  equal(azureServiceUrl({ account: "acct1", key: "k" }), "https://acct1.blob.core.windows.net");
  equal(
    azureServiceUrl({ account: "acct1", domain_suffix: "core.chinacloudapi.cn" }),
    "https://acct1.blob.core.chinacloudapi.cn",
  );
  equal(
    azureServiceUrl({ account: "acct1", base_url: "core.usgovcloudapi.net" }),
    "https://acct1.blob.core.usgovcloudapi.net",
  );
  equal(
    azureServiceUrl({ account: "acct1", endpoint: "http://127.0.0.1:10000/acct1/" }),
    "http://127.0.0.1:10000/acct1",
  );
});

Deno.test("stow azure: storage.defaultHttpClient.timeout bounds a call to a service that never answers", async () => {
  // Accepts connections and never answers them.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const endpoint = `http://127.0.0.1:${listener.addr.port}/${AZURITE_ACCOUNT}`;
    await withStore({
      container: "fctl-container",
      multiContainer: false,
      config: { account: AZURITE_ACCOUNT, key: AZURITE_KEY, endpoint },
      timeoutMs: 300,
    }, async (store) => {
      await rejects(
        store.writeFile("abfs://fctl-container/x", { bytes: new Uint8Array(1) }),
        new OperationError(
          'cannot create "abfs://fctl-container": no answer within 300 ms (storage.defaultHttpClient.timeout)',
        ),
      );
    });
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});

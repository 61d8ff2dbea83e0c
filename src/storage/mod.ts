/**
 * Storage backends behind one small interface ({@link ObjectStore}), chosen by `storage.type`.
 *
 * `local` and `mem` are fctl's own; `s3`, `minio` and stow `s3` go through the AWS SDK, stow `google`
 * through the Google Cloud Storage client, stow `azure` through `@azure/storage-blob`. Each backend
 * that brings an SDK is loaded with a literal dynamic import only when it is configured, so that no
 * other command pays for it (`tests/startup_graph_test.ts` pins this).
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";
import { CachedStore } from "./cache.ts";
import { LocalStore } from "./local.ts";
import { MemStore } from "./mem.ts";
import { s3SettingsFromConnection, s3SettingsFromStow } from "./s3_settings.ts";
import type { ObjectStore, StorageConfig, StowStoreSettings } from "./store.ts";
import { cloudStowConfigProblems } from "./stow_config.ts";

export { LocalStore } from "./local.ts";
export { MemStore } from "./mem.ts";
export { joinReference, parseReference, type StorageReference } from "./reference.ts";
export type { ObjectInfo, ObjectStore, StorageConfig, StoreSource, StowStoreSettings } from "./store.ts";

/** Storage types (`storage.type`), as the configuration spells them in any case. */
export const STORAGE_TYPES = ["s3", "minio", "local", "mem", "stow"] as const;

/** Stow kinds (`storage.stow.kind`) this version opens; flytestdlib's google and azure join them when wired. */
export const STOW_KINDS = ["s3", "google", "azure"] as const;

/**
 * Opens the configured backend, loading its SDK only now. Nothing is touched until it is used. Close the store when
 * done (`store.close()`, or declare it with `using`, which closes it when the block ends).
 *
 * ```ts
 * import { openStorage } from "@fctl/fctl";
 *
 * using store = await openStorage({ type: "mem", container: "my-s3-bucket", defaultLocalRoot: "/tmp/flyte" });
 * const ref = `${store.baseReference()}/hello.txt`;
 * await store.writeFile(ref, { bytes: new TextEncoder().encode("hello") });
 * console.log(ref, await store.head(ref)); // mem://my-s3-bucket/hello.txt { size: 5 }
 * ```
 *
 * @throws {UsageError} an unknown type or stow kind, or settings the backend cannot use, naming them
 */
export async function openStorage(config: StorageConfig): Promise<ObjectStore & Disposable> {
  const backend = await openBackend(config);
  const cacheBytes = (config.cacheMaxSizeMbs ?? 0) * 1024 * 1024;
  const store = cacheBytes > 0 ? new CachedStore(backend, cacheBytes, config.cacheTargetGcPercent ?? 0) : backend;
  return Object.assign(store, { [Symbol.dispose]: () => store.close() });
}

async function openBackend(config: StorageConfig): Promise<ObjectStore> {
  const multiContainer = config.multiContainer ?? false;
  switch (config.type.toLowerCase()) {
    case "local": {
      const endpoint = config.endpoint ?? "";
      const root = endpoint === ""
        ? config.defaultLocalRoot
        : endpoint.startsWith("file://")
        ? decodeURIComponent(new URL(endpoint).pathname)
        : endpoint;
      return new LocalStore(root, config.container, multiContainer);
    }
    case "mem":
      return new MemStore(config.container, multiContainer);
    case "s3":
    case "minio": {
      // Checked before the SDK loads: a bad setting costs no import.
      const settings = s3SettingsFromConnection(config);
      const { openS3Store } = await import("./s3.ts");
      return openS3Store(settings, { fetch: config.fetch, env: config.env });
    }
    case "stow":
      return await openStow(config, multiContainer);
    default:
      throw new UsageError(
        `storage.type ${quote(config.type.toLowerCase())} is not supported; accepted types: ${
          STORAGE_TYPES.join(", ")
        }`,
      );
  }
}

/** A stow backend, by `storage.stow.kind`. */
async function openStow(config: StorageConfig, multiContainer: boolean): Promise<ObjectStore> {
  const kind = (config.stowKind ?? "").toLowerCase();
  switch (kind) {
    case "s3": {
      const settings = s3SettingsFromStow(config);
      const { openS3Store } = await import("./s3.ts");
      return openS3Store(settings, { fetch: config.fetch, env: config.env });
    }
    case "google":
    case "azure": {
      // Checked before the SDK loads: a bad key costs no import, and every problem is named at once.
      const stowConfig = config.stowConfig ?? {};
      const problems = cloudStowConfigProblems(kind, stowConfig);
      if (problems.length > 0) throw new UsageError(problems.join("; "));
      const settings: StowStoreSettings = {
        container: config.container,
        multiContainer,
        config: stowConfig,
        timeoutMs: config.timeoutMs ?? 0,
        headersTimeoutMs: config.headersTimeoutMs,
        idleTimeoutMs: config.idleTimeoutMs,
        env: config.env,
      };
      if (kind === "google") {
        const { openGcsStore } = await import("./gcs.ts");
        return openGcsStore(settings);
      }
      const { openAzureStore } = await import("./azure.ts");
      return openAzureStore(settings);
    }
    default:
      throw new UsageError(
        `storage.stow.kind ${quote(config.stowKind ?? "")} is not supported; accepted kinds: ${STOW_KINDS.join(", ")}`,
      );
  }
}

/**
 * Storage backends behind one small interface ({@link ObjectStore}), chosen by `storage.type`.
 *
 * `local` and `mem` are available; `s3`, `minio` and `stow` are not in this version.
 *
 * @module
 */
import { NotSupportedError, quote } from "../errors.ts";
import { LocalStore } from "./local.ts";
import { MemStore } from "./mem.ts";
import type { ObjectStore } from "./store.ts";

export { LocalStore } from "./local.ts";
export { MemStore } from "./mem.ts";
export { joinReference, parseReference, type StorageReference } from "./reference.ts";
export type { ObjectStore, StoreSource } from "./store.ts";

/** The `storage.*` settings a backend is opened from. */
export interface StorageConfig {
  /** `storage.type`, any case: S3, MINIO, LOCAL, MEM or STOW. */
  type: string;
  /** `storage.container`. */
  container: string;
  /** `storage.connection.endpoint`; for local storage the root directory (a path or `file://` URL). */
  endpoint?: string;
  /** Root directory of local storage when no endpoint is set (the caller's temp dir, typically). */
  defaultLocalRoot: string;
}

/**
 * Opens the configured backend. Nothing is touched until it is written to.
 *
 * ```ts ignore
 * import { openStorage } from "@fctl/fctl";
 *
 * const store = openStorage({ type: "mem", container: "my-s3-bucket", defaultLocalRoot: "/tmp/flyte" });
 * console.log(store.baseReference());
 * ```
 *
 * @throws {NotSupportedError} for storage types this version does not provide
 */
export function openStorage(config: StorageConfig): ObjectStore {
  switch (config.type.toUpperCase()) {
    case "LOCAL": {
      const endpoint = config.endpoint ?? "";
      const root = endpoint === ""
        ? config.defaultLocalRoot
        : endpoint.startsWith("file://")
        ? decodeURIComponent(new URL(endpoint).pathname)
        : endpoint;
      return new LocalStore(root, config.container);
    }
    case "MEM":
      return new MemStore(config.container);
    default:
      throw new NotSupportedError(
        `storage type ${quote(config.type.toLowerCase())} is not supported in this version; use local or mem`,
      );
  }
}

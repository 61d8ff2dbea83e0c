/**
 * The interface every storage backend implements (`storage.type`, or `storage.stow.kind` for stow): put
 * a file or bytes with their size and MD5, head, read with a size limit or as a stream. Enough to put
 * the fast-registration source where the Flyte backend can read it, and to read a package from a bucket.
 *
 * Rules every backend follows: a reference of another scheme, or of another container while
 * multicontainer is off, is a `UsageError` naming it and what is accepted; failures are `OperationError`s
 * with one line naming the reference (never a credential); `signal` aborts in-flight calls; a backend's
 * SDK is imported only by the backend's own module, which `mod.ts` loads only when that type is configured.
 *
 * @module
 */

/**
 * Bytes to store: a file on disk (streamed, never read whole) or bytes in memory; md5 when known.
 *
 * ```ts
 * import { openStorage, type StoreSource } from "@fctl/fctl";
 *
 * const store = await openStorage({ type: "mem", container: "my-bucket", defaultLocalRoot: "" });
 * const source: StoreSource = { bytes: new TextEncoder().encode("hello") };
 * await store.writeFile("mem://my-bucket/greeting.txt", source);
 * console.log(await store.head("mem://my-bucket/greeting.txt")); // { size: 5 }
 * store.close();
 * ```
 */
export type StoreSource =
  & (
    | {
      /** Path of the file on disk. */
      path: string;
      /** Its size in bytes. */
      size: number;
      bytes?: never;
    }
    | {
      /** The bytes themselves. */
      bytes: Uint8Array;
      path?: never;
      size?: never;
    }
  )
  & {
    /** MD5 of the bytes when known: sent so the server checks it (S3 Content-MD5, GCS md5Hash, Azure Content-MD5). */
    md5?: Uint8Array;
  };

/**
 * What `head` learns of a stored object.
 *
 * ```ts
 * import { type ObjectInfo, openStorage } from "@fctl/fctl";
 *
 * const store = await openStorage({ type: "mem", container: "my-bucket", defaultLocalRoot: "" });
 * const info: ObjectInfo | undefined = await store.head("mem://my-bucket/missing.txt");
 * console.log(info); // undefined: no such object
 * store.close();
 * ```
 */
export interface ObjectInfo {
  /** Size in bytes. */
  size: number;
}

/**
 * A storage backend (`storage.type`, or `storage.stow.kind` for stow).
 *
 * ```ts
 * import { type ObjectStore, openStorage } from "@fctl/fctl";
 *
 * const store: ObjectStore = await openStorage({ type: "mem", container: "my-bucket", defaultLocalRoot: "" });
 * try {
 *   const ref = `${store.baseReference()}/data/input.json`; // mem://my-bucket/data/input.json
 *   await store.writeFile(ref, { bytes: new TextEncoder().encode("{}") });
 *   console.log(new TextDecoder().decode(await store.readBytes(ref, 1024 * 1024))); // {}
 * } finally {
 *   store.close();
 * }
 * ```
 */
export interface ObjectStore {
  /** `s3`, `minio`, `stow/s3`, `stow/google`, `stow/azure`, `local` or `mem`. */
  readonly type: string;
  /**
   * `<scheme>://<container>` of the configured container (`s3://b`, `gs://b`, `abfs://b`, `file://b`, `mem://b`).
   *
   * @throws {UsageError} no container is configured
   */
  baseReference(): string;
  /**
   * Stores the bytes under `ref` (`<scheme>://<container>/<key>`), replacing what was there; creates the
   * container first when absent (once).
   *
   * @throws {UsageError} the reference is not one this backend serves
   * @throws {OperationError} writing failed
   */
  writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void>;
  /** The object's size, or undefined when there is no such object. */
  head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined>;
  /**
   * Reads a whole object into memory; an object larger than `maxBytes` is refused (OperationError naming
   * the object, its size and the limit `storage.limits.maxDownloadMBs`).
   */
  readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Streams an object (for archives: not bound by maxDownloadMBs). */
  readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** Releases sockets/clients. Idempotent. */
  close(): void;
}

/**
 * Settings a stow backend is opened from.
 *
 * ```ts
 * import type { StowStoreSettings } from "@fctl/fctl";
 *
 * // storage.stow as a flytectl config file writes it, for the google kind.
 * const settings: StowStoreSettings = {
 *   container: "my-bucket",
 *   multiContainer: false,
 *   config: { json: "", project_id: "my-project", scopes: "https://www.googleapis.com/auth/cloud-platform" },
 *   timeoutMs: 0,
 * };
 * console.log(settings.config.project_id);
 * ```
 */
export interface StowStoreSettings {
  /** `storage.container` (may be "" when every reference names its own container and multicontainer is on). */
  container: string;
  /** `storage.enable-multicontainer`: references may name other containers than `container`. */
  multiContainer: boolean;
  /** `storage.stow.config`: the kind's keys, as flytestdlib's stow backend reads them. */
  config: Readonly<Record<string, string>>;
  /** `storage.defaultHttpClient.timeout` in ms, 0 = none: bounds each storage HTTP call. */
  timeoutMs: number;
  /** `http.headersTimeout` in ms, 0 or absent = none: the longest wait for the service's answer to a call. */
  headersTimeoutMs?: number;
  /** `http.idleTimeout` in ms, 0 or absent = none: the longest the service takes nothing of a body sent to it. */
  idleTimeoutMs?: number;
  /** The environment to take `GOOGLE_APPLICATION_CREDENTIALS` from (google); default none: the process's is not read. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The `storage.*` settings a backend is opened from.
 *
 * ```ts
 * import { openStorage, type StorageConfig } from "@fctl/fctl";
 *
 * const config: StorageConfig = {
 *   type: "minio",
 *   container: "my-s3-bucket",
 *   endpoint: "http://localhost:9000",
 *   authType: "accesskey",
 *   accessKey: "minio",
 *   secretKey: "miniostorage",
 *   region: "us-east-1",
 *   defaultLocalRoot: await Deno.makeTempDir(),
 * };
 * const store = await openStorage(config);
 * console.log(store.type, store.baseReference()); // minio s3://my-s3-bucket
 * store.close();
 * ```
 */
export interface StorageConfig {
  /** `storage.type`, any case: S3, MINIO, LOCAL, MEM or STOW. */
  type: string;
  /** `storage.container`. */
  container: string;
  /** `storage.enable-multicontainer`: references may name other containers than {@link container}. */
  multiContainer?: boolean;
  /** `storage.connection.endpoint`; for local storage the root directory (a path or `file://` URL). */
  endpoint?: string;
  /** Root directory of local storage when no endpoint is set (the caller's temp dir, typically). */
  defaultLocalRoot: string;
  /** `storage.connection.auth-type`: `iam` (the AWS default credential chain) or `accesskey`. */
  authType?: string;
  /** `storage.connection.access-key`. */
  accessKey?: string;
  /** `storage.connection.secret-key`. */
  secretKey?: string;
  /** `storage.connection.region`. */
  region?: string;
  /** `storage.connection.disable-ssl`: `http://` to an endpoint given without a scheme. */
  disableSsl?: boolean;
  /** `storage.stow.kind`. */
  stowKind?: string;
  /** `storage.stow.config`. */
  stowConfig?: Readonly<Record<string, string>>;
  /** `storage.defaultHttpClient.timeout` in ms; 0 or absent: none. */
  timeoutMs?: number;
  /** `http.headersTimeout` in ms, for the stow google and azure SDKs' own calls; 0 or absent: none. */
  headersTimeoutMs?: number;
  /** `http.idleTimeout` in ms, for the stow google and azure SDKs' own calls; 0 or absent: none. */
  idleTimeoutMs?: number;
  /** `storage.cache.max_size_mbs`: size of the read cache in MiB; 0 or absent: none. */
  cacheMaxSizeMbs?: number;
  /** `storage.cache.target_gc_percent`: the cache is evicted down to this share of its size. */
  cacheTargetGcPercent?: number;
  /** The `fetch` storage HTTP calls go through (the command's CA and proxy); default the global one. */
  fetch?: typeof fetch;
  /**
   * The environment the backends take variables from: stow google's `GOOGLE_APPLICATION_CREDENTIALS` (the
   * credentials file when `json` is empty); the AWS variables of s3, minio and stow s3 (auth-type iam's credentials,
   * the clients' settings such as `AWS_MAX_ATTEMPTS`: see the README for what the AWS SDK still reads from the
   * process). Default none: the process's environment is not read.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

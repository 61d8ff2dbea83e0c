/**
 * The interface every storage backend implements: put a file or bytes with its size and MD5, head,
 * read with a size limit, stream, and create the container when absent.
 *
 * @module
 */

/** Bytes to store: a file on disk (streamed, never read whole) or bytes in memory; md5 when known. */
export type StoreSource =
  & ({ path: string; size: number; bytes?: never } | { bytes: Uint8Array; path?: never; size?: never })
  & {
    /** MD5 of the bytes when known: sent so the server checks it (S3 Content-MD5, GCS md5Hash, Azure Content-MD5). */
    md5?: Uint8Array;
  };

/** What `head` learns of a stored object. */
export interface ObjectInfo {
  /** Size in bytes. */
  size: number;
}

/** A storage backend (`storage.type`, or `storage.stow.kind` for stow). */
export interface ObjectStore {
  /** `s3`, `minio`, `stow/s3`, `stow/google`, `stow/azure`, `local` or `mem`. */
  readonly type: string;
  /** `<scheme>://<container>` of the configured container (`s3://b`, `gs://b`, `abfs://b`, `file://b`, `mem://b`). */
  baseReference(): string;
  /** Stores the bytes under `ref`, replacing what was there; creates the container first when absent (once). */
  writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void>;
  /** The object's size, or undefined when there is no such object. */
  head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined>;
  /** Reads a whole object into memory; an object larger than `maxBytes` is refused (OperationError naming the
   *  object, its size and the limit `storage.limits.maxDownloadMBs`). */
  readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Streams an object (for archives: not bound by maxDownloadMBs). */
  readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** Releases sockets/clients. Idempotent. */
  close(): void;
}

/** Settings a stow backend is opened from. */
export interface StowStoreSettings {
  /** `storage.container` (may be "" when every reference names its own container and multicontainer is on). */
  container: string;
  /** `storage.enable-multicontainer`: references may name other containers than `container`. */
  multiContainer: boolean;
  /** `storage.stow.config`: the kind's keys, as flytestdlib's stow backend reads them. */
  config: Readonly<Record<string, string>>;
  /** `storage.defaultHttpClient.timeout` in ms, 0 = none: bounds each storage HTTP call. */
  timeoutMs: number;
}

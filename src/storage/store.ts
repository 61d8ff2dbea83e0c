/**
 * The interface every storage backend implements: just enough to put the fast-registration source
 * where the Flyte backend can read it.
 *
 * @module
 */

/** Bytes to store: a local file, streamed, or (when small) bytes already in memory. */
export type StoreSource =
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
  };

/** A storage backend (`storage.type`). */
export interface ObjectStore {
  /** The storage type, as configured (`local`, `mem`, …). */
  readonly type: string;
  /**
   * The reference of the configured container, e.g. `file://my-container`.
   *
   * @throws {UsageError} no container is configured
   */
  baseReference(): string;
  /**
   * Stores the bytes under `ref` (`<scheme>://<container>/<key>`), replacing what was there.
   *
   * @throws {UsageError} the reference is not one this backend serves
   * @throws {OperationError} writing failed
   */
  writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void>;
}

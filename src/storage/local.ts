/**
 * `storage.type: local`: containers are directories under a root directory, as flytestdlib's local
 * (stow) store lays them out. References are `file://<container>/<key>`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { isNotFound, OperationError, quote } from "../errors.ts";
import { checkReadable, containerReference, noSuchObject, objectReference, type ReferenceScope } from "./reference.ts";
import type { ObjectInfo, ObjectStore, StoreSource } from "./store.ts";

/** Local-directory storage. */
export class LocalStore implements ObjectStore {
  readonly type = "local";
  readonly #root: string;
  readonly #scope: ReferenceScope;

  /**
   * @param root directory holding one directory per container
   * @param container the configured container (`storage.container`)
   * @param multiContainer `storage.enable-multicontainer`: references may name other containers
   */
  constructor(root: string, container: string, multiContainer = false) {
    this.#root = root;
    this.#scope = { type: "local", scheme: "file", container, multiContainer };
  }

  baseReference(): string {
    return containerReference(this.#scope);
  }

  /** Where a reference's bytes are on disk. */
  pathOf(ref: string): string {
    const { container, key } = objectReference(ref, this.#scope);
    return join(this.#root, container, ...key.split("/"));
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    const target = this.pathOf(ref);
    try {
      await Deno.mkdir(dirname(target), { recursive: true });
      if (source.bytes !== undefined) {
        await Deno.writeFile(target, source.bytes, { signal });
      } else {
        // File to file by the system: a large source archive never passes through memory.
        signal?.throwIfAborted();
        await Deno.copyFile(source.path, target);
      }
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw failure(`cannot write ${quote(ref)} to ${quote(target)}`, err);
    }
  }

  async head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    const target = this.pathOf(ref);
    signal?.throwIfAborted();
    try {
      const info = await Deno.stat(target);
      return info.isFile ? { size: info.size } : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw failure(`cannot read ${quote(ref)} at ${quote(target)}`, err);
    }
  }

  async readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    const info = await this.head(ref, signal);
    checkReadable(ref, info, maxBytes);
    try {
      return await Deno.readFile(this.pathOf(ref), { signal });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw failure(`cannot read ${quote(ref)}`, err);
    }
  }

  async readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const target = this.pathOf(ref);
    signal?.throwIfAborted();
    try {
      return (await Deno.open(target, { read: true })).readable;
    } catch (err) {
      if (isNotFound(err)) throw noSuchObject(ref);
      throw failure(`cannot read ${quote(ref)} at ${quote(target)}`, err);
    }
  }

  close(): void {
    // Nothing is held between calls.
  }
}

function failure(what: string, err: unknown): OperationError {
  return new OperationError(`${what}: ${(err as Error).message}`, { cause: err });
}

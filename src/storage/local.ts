/**
 * `storage.type: local`: containers are directories under a root directory, as flytestdlib's local
 * (stow) store lays them out. References are `file://<container>/<key>`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { isNotFound, OperationError, quote, UsageError } from "../errors.ts";
import { parseReference } from "./reference.ts";
import { overLimitError } from "./cloud_call.ts";
import type { ObjectInfo, ObjectStore, StoreSource } from "./store.ts";

/** Local-directory storage. */
export class LocalStore implements ObjectStore {
  readonly type = "local";
  readonly #root: string;
  readonly #container: string;

  /**
   * @param root directory holding one directory per container
   * @param container the configured container (`storage.container`)
   */
  constructor(root: string, container: string) {
    this.#root = root;
    this.#container = container;
  }

  baseReference(): string {
    if (this.#container === "") throw new UsageError("storage.container must be set to upload to local storage");
    return `file://${this.#container}`;
  }

  /** Where a reference's bytes are on disk. */
  pathOf(ref: string): string {
    const { scheme, container, key } = parseReference(ref);
    if (scheme !== "file") {
      throw new UsageError(`local storage cannot store ${quote(ref)}: expected a file:// location`);
    }
    if (key === "") throw new UsageError(`storage location ${quote(ref)} names no object`);
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
      throw new OperationError(`cannot write ${quote(ref)} to ${quote(target)}: ${(err as Error).message}`, {
        cause: err,
      });
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
      throw new OperationError(`cannot check ${quote(ref)}: ${(err as Error).message}`);
    }
  }

  async readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    const info = await this.head(ref, signal);
    if (info === undefined) throw new OperationError(`cannot read ${quote(ref)}: no such object`);
    if (info.size > maxBytes) throw overLimitError(ref, info.size, maxBytes);
    return await Deno.readFile(this.pathOf(ref), { signal });
  }

  async readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    signal?.throwIfAborted();
    try {
      return (await Deno.open(this.pathOf(ref), { read: true })).readable;
    } catch (err) {
      const why = isNotFound(err) ? "no such object" : (err as Error).message;
      throw new OperationError(`cannot read ${quote(ref)}: ${why}`);
    }
  }

  close(): void {}
}

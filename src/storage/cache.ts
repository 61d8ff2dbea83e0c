/**
 * The in-memory read cache `storage.cache.max_size_mbs` sizes: objects read whole (`readBytes`) are kept,
 * least recently used first out. When the cache passes its size it evicts down to
 * `storage.cache.target_gc_percent` of it (0: empties it), so that a burst of reads does not evict one
 * object per read. An object larger than the whole cache is not kept. Writes through the store drop the
 * object's cached copy; changes made by others are not seen while it is cached (as in flytestdlib).
 *
 * @module
 */
import type { ObjectInfo, ObjectStore, StoreSource } from "./store.ts";

/** A store whose `readBytes` answers from memory when it can. */
export class CachedStore implements ObjectStore {
  readonly #store: ObjectStore;
  readonly #maxBytes: number;
  readonly #targetBytes: number;
  /** Reference -> bytes, in order of last use (a Map keeps insertion order: re-inserting moves to the end). */
  readonly #entries = new Map<string, Uint8Array>();
  #bytes = 0;

  /**
   * @param store the backend
   * @param maxBytes the cache's size (`max_size_mbs` in bytes)
   * @param targetGcPercent what share of `maxBytes` an eviction leaves (`target_gc_percent`)
   */
  constructor(store: ObjectStore, maxBytes: number, targetGcPercent: number) {
    this.#store = store;
    this.#maxBytes = maxBytes;
    this.#targetBytes = Math.floor(maxBytes * Math.min(Math.max(targetGcPercent, 0), 100) / 100);
  }

  get type(): string {
    return this.#store.type;
  }

  /** Bytes held now (for tests and logs). */
  get cachedBytes(): number {
    return this.#bytes;
  }

  baseReference(): string {
    return this.#store.baseReference();
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    this.#drop(ref);
    await this.#store.writeFile(ref, source, signal);
  }

  head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    return this.#store.head(ref, signal);
  }

  async readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    const cached = this.#entries.get(ref);
    if (cached !== undefined && cached.length <= maxBytes) {
      this.#entries.delete(ref);
      this.#entries.set(ref, cached);
      return cached.slice();
    }
    const bytes = await this.#store.readBytes(ref, maxBytes, signal);
    this.#keep(ref, bytes);
    return bytes.slice();
  }

  readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return this.#store.readStream(ref, signal);
  }

  close(): void {
    this.#entries.clear();
    this.#bytes = 0;
    this.#store.close();
  }

  #keep(ref: string, bytes: Uint8Array): void {
    this.#drop(ref);
    if (bytes.length > this.#maxBytes) return;
    this.#entries.set(ref, bytes);
    this.#bytes += bytes.length;
    if (this.#bytes <= this.#maxBytes) return;
    // Least recently used first, down to the target; the object just read goes last, if at all.
    for (const [key, value] of this.#entries) {
      if (this.#bytes <= this.#targetBytes) break;
      this.#entries.delete(key);
      this.#bytes -= value.length;
    }
  }

  #drop(ref: string): void {
    const old = this.#entries.get(ref);
    if (old !== undefined) {
      this.#entries.delete(ref);
      this.#bytes -= old.length;
    }
  }
}

/**
 * `storage.type: mem`: objects live in this process's memory (flytestdlib's in-memory store). For
 * tests and demos; everything is gone when the process ends. References are `mem://<container>/<key>`.
 *
 * @module
 */
import { containerReference, noSuchObject, objectReference, type ReferenceScope, tooLarge } from "./reference.ts";
import type { ObjectInfo, ObjectStore, StoreSource } from "./store.ts";

/** In-memory storage. */
export class MemStore implements ObjectStore {
  readonly type = "mem";
  /** reference (normalized) -> bytes */
  readonly objects = new Map<string, Uint8Array>();
  readonly #scope: ReferenceScope;

  /**
   * @param container the configured container (`storage.container`)
   * @param multiContainer `storage.enable-multicontainer`: references may name other containers
   */
  constructor(container: string, multiContainer = false) {
    this.#scope = { type: "mem", scheme: "mem", container, multiContainer };
  }

  baseReference(): string {
    return containerReference(this.#scope);
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    const name = this.#name(ref);
    signal?.throwIfAborted();
    const bytes = source.bytes ?? await Deno.readFile(source.path, { signal });
    this.objects.set(name, bytes);
  }

  head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    return settle(() => {
      const name = this.#name(ref);
      signal?.throwIfAborted();
      const bytes = this.objects.get(name);
      return bytes === undefined ? undefined : { size: bytes.length };
    });
  }

  readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    return settle(() => {
      const bytes = this.#read(ref, signal);
      if (bytes.length > maxBytes) throw tooLarge(ref, bytes.length, maxBytes);
      return bytes.slice();
    });
  }

  readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return settle(() => ReadableStream.from([this.#read(ref, signal).slice()]));
  }

  close(): void {
    // The objects stay until the store is dropped: a closed store may still be inspected.
  }

  #read(ref: string, signal: AbortSignal | undefined): Uint8Array {
    const name = this.#name(ref);
    signal?.throwIfAborted();
    const bytes = this.objects.get(name);
    if (bytes === undefined) throw noSuchObject(ref);
    return bytes;
  }

  #name(ref: string): string {
    const { container, key } = objectReference(ref, this.#scope);
    return `mem://${container}/${key}`;
  }
}

/** `fn`'s result, or what it throws, as a promise: the interface's callers expect rejections, not throws. */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise((resolve) => resolve(fn()));
}

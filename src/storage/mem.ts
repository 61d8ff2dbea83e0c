/**
 * `storage.type: mem`: objects live in this process's memory (flytestdlib's in-memory store). For
 * tests and demos; everything is gone when the process ends. References are `mem://<container>/<key>`.
 *
 * @module
 */
import { OperationError, quote, UsageError } from "../errors.ts";
import { parseReference } from "./reference.ts";
import { overLimitError } from "./cloud_call.ts";
import type { ObjectInfo, ObjectStore, StoreSource } from "./store.ts";

/** In-memory storage. */
export class MemStore implements ObjectStore {
  readonly type = "mem";
  /** reference (normalized) -> bytes */
  readonly objects = new Map<string, Uint8Array>();
  readonly #container: string;

  /** @param container the configured container (`storage.container`) */
  constructor(container: string) {
    this.#container = container;
  }

  baseReference(): string {
    if (this.#container === "") throw new UsageError("storage.container must be set to upload to mem storage");
    return `mem://${this.#container}`;
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    const { scheme, container, key } = parseReference(ref);
    if (scheme !== "mem") throw new UsageError(`mem storage cannot store ${quote(ref)}: expected a mem:// location`);
    signal?.throwIfAborted();
    const bytes = source.bytes ?? await Deno.readFile(source.path, { signal });
    this.objects.set(`mem://${container}/${key}`, bytes);
  }

  #get(ref: string): Uint8Array | undefined {
    const { scheme, container, key } = parseReference(ref);
    if (scheme !== "mem") throw new UsageError(`mem storage cannot read ${quote(ref)}: expected a mem:// location`);
    return this.objects.get(`mem://${container}/${key}`);
  }

  head(ref: string): Promise<ObjectInfo | undefined> {
    const bytes = this.#get(ref);
    return Promise.resolve(bytes === undefined ? undefined : { size: bytes.byteLength });
  }

  readBytes(ref: string, maxBytes: number): Promise<Uint8Array> {
    const bytes = this.#get(ref);
    if (bytes === undefined) return Promise.reject(new OperationError(`cannot read ${quote(ref)}: no such object`));
    if (bytes.byteLength > maxBytes) return Promise.reject(overLimitError(ref, bytes.byteLength, maxBytes));
    return Promise.resolve(bytes);
  }

  readStream(ref: string): Promise<ReadableStream<Uint8Array>> {
    return this.readBytes(ref, Number.MAX_SAFE_INTEGER).then((bytes) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      })
    );
  }

  close(): void {}
}

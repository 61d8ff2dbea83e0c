/**
 * `storage.type: mem`: objects live in this process's memory (flytestdlib's in-memory store). For
 * tests and demos; everything is gone when the process ends. References are `mem://<container>/<key>`.
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";
import { parseReference } from "./reference.ts";
import type { ObjectStore, StoreSource } from "./store.ts";

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
}

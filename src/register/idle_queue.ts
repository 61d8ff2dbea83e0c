/**
 * Work for the time the thread would otherwise spend waiting on I/O.
 *
 * @module
 */
import { clearImmediate, setImmediate } from "node:timers";

/**
 * Handles items one per turn of the event loop, in the order added, each after the I/O of its turn
 * has been handled: an answer that arrives meanwhile waits for one item's work at most.
 *
 * Registration uses it to encode creates while the ones in flight are answered. Only work whose
 * result is optional belongs here: an item that throws is skipped, for the caller to meet the same
 * problem where it has to.
 */
export class IdleQueue<T> {
  readonly #handle: (item: T) => void;
  #items: T[] = [];
  #next = 0;
  #pending: ReturnType<typeof setImmediate> | undefined;
  #stopped = false;

  constructor(handle: (item: T) => void) {
    this.#handle = handle;
  }

  /** Queues items after those already queued. */
  add(items: Iterable<T>): void {
    if (this.#stopped) return;
    for (const item of items) this.#items.push(item);
    this.#schedule();
  }

  /** Drops what is still queued; nothing is handled after this. */
  stop(): void {
    this.#stopped = true;
    if (this.#pending !== undefined) clearImmediate(this.#pending);
    this.#pending = undefined;
    this.#items = [];
    this.#next = 0;
  }

  #schedule(): void {
    if (this.#pending === undefined && this.#next < this.#items.length) {
      this.#pending = setImmediate(() => this.#handleNext());
    }
  }

  #handleNext(): void {
    this.#pending = undefined;
    const item = this.#items[this.#next++];
    try {
      this.#handle(item);
    } catch {
      // Optional work (see the class doc).
    }
    this.#schedule();
  }
}

/**
 * Work for the time the thread would otherwise spend waiting on I/O.
 *
 * @module
 */
import { clearImmediate, setImmediate } from "node:timers";

/** Longest stretch of queued work before pending I/O is let in. */
export const DEFAULT_BURST_MS = 1;

/** How an {@link IdleQueue} paces its work; for tests. */
export interface IdleQueueOptions {
  /** Longest stretch of work at a time (default {@link DEFAULT_BURST_MS}). */
  burstMs?: number;
  /** Milliseconds on a monotonic clock (default `performance.now`). */
  now?: () => number;
}

/**
 * Handles items in the order added, in bursts of at most `burstMs`: the first once the current turn
 * of the event loop is done (so what that turn made ready, such as requests, goes out first), each
 * further one after a 0 ms timer, which is when Deno handles pending I/O. An answer that arrives
 * meanwhile waits for one burst at most. (Deno handles no I/O between `setImmediate` callbacks: a
 * chain of them runs as one stretch, so one item per immediate would hold such an answer until the
 * whole queue is done.)
 *
 * Registration uses it to encode creates while the ones in flight are answered. Only work whose
 * result is optional belongs here: an item that throws is skipped, for the caller to meet the same
 * problem where it has to.
 */
export class IdleQueue<T> {
  readonly #handle: (item: T) => void;
  readonly #burstMs: number;
  readonly #now: () => number;
  #items: T[] = [];
  #next = 0;
  /** Cancels the scheduled burst, if one is. */
  #cancelPending: (() => void) | undefined;
  #stopped = false;

  constructor(handle: (item: T) => void, options: IdleQueueOptions = {}) {
    this.#handle = handle;
    this.#burstMs = options.burstMs ?? DEFAULT_BURST_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Queues items after those already queued. */
  add(items: Iterable<T>): void {
    if (this.#stopped) return;
    for (const item of items) this.#items.push(item);
    if (this.#cancelPending === undefined && this.#next < this.#items.length) {
      const immediate = setImmediate(() => this.#burst());
      this.#cancelPending = () => clearImmediate(immediate);
    }
  }

  /** Drops what is still queued; nothing is handled after this. */
  stop(): void {
    this.#stopped = true;
    this.#cancelPending?.();
    this.#cancelPending = undefined;
    this.#items = [];
    this.#next = 0;
  }

  #burst(): void {
    this.#cancelPending = undefined;
    const end = this.#now() + this.#burstMs;
    while (this.#next < this.#items.length) {
      const item = this.#items[this.#next++];
      try {
        this.#handle(item);
      } catch {
        // Optional work (see the class doc).
      }
      if (this.#now() >= end) break;
    }
    if (this.#next < this.#items.length) {
      const timer = setTimeout(() => this.#burst(), 0);
      this.#cancelPending = () => clearTimeout(timer);
    }
  }
}

/**
 * Helpers for the archive-reading tests: archives delivered as a network would (in chunks of any
 * size, or stalling), and reads that must end within a time bound.
 *
 * @module
 */

/** What {@link deliver} did with its source: whether it was cancelled, and how many chunks it gave. */
export interface Delivery {
  stream: ReadableStream<Uint8Array>;
  /** The reader cancelled the stream (as it must when it stops before the end). */
  cancelled(): boolean;
}

/** How {@link deliver} hands out bytes. */
export interface DeliveryOptions {
  /** Sizes of successive chunks, used in turn (cycled); default: one chunk. */
  chunkSizes?: readonly number[];
  /** After the bytes, neither end nor error: a server that stops sending. Default: end. */
  stall?: boolean;
  /** Microtask turns to wait before each chunk, used in turn (cycled), to vary interleavings. */
  yields?: readonly number[];
  /**
   * Called on every pull with the number of chunks delivered before it and whether the bytes have
   * run out (this pull ends or stalls the stream): a test can interrupt the reader at a chosen point.
   */
  onPull?: (delivered: number, atEnd: boolean) => void;
}

/**
 * `bytes` as a stream delivered in chunks of the given sizes (each a fresh copy, as a socket's
 * would be), read on demand; it then ends, or with `stall` never does.
 */
export function deliver(bytes: Uint8Array, options: DeliveryOptions = {}): Delivery {
  const sizes = options.chunkSizes ?? [Math.max(1, bytes.length)];
  const yields = options.yields ?? [0];
  let at = 0;
  let turn = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (let n = yields[turn % yields.length]; n > 0; n--) await Promise.resolve();
      options.onPull?.(turn, at >= bytes.length);
      if (at >= bytes.length) {
        if (options.stall) return await new Promise<void>(() => {});
        return controller.close();
      }
      const size = sizes[turn % sizes.length];
      turn++;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, cancelled: () => cancelled };
}

/** How a read that must end did end. */
export type Ending = { settled: "resolved"; value: unknown } | { settled: "rejected"; error: unknown };

/**
 * Waits for `promise` at most `ms` milliseconds.
 *
 * @throws {Error} naming `what` if it has not settled by then: the read hangs
 */
export async function within(ms: number, what: string, promise: Promise<unknown>): Promise<Ending> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value): Ending => ({ settled: "resolved", value }),
        (error): Ending => ({ settled: "rejected", error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

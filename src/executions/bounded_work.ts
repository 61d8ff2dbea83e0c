/**
 * Work over many items at most a few at a time: a directory of a hundred thousand files is hashed and uploaded
 * without a hundred thousand open files or sockets.
 *
 * @module
 */

/**
 * Runs `work` for every item, at most `limit` at a time, in order of start. The first failure stops the rest:
 * nothing new starts, the signal given to the running ones aborts, and that failure is thrown once they end.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, signal: AbortSignal) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const stop = new AbortController();
  const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length && !combined.aborted) {
      const item = items[next++];
      try {
        await work(item, combined);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          stop.abort(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  signal?.throwIfAborted();
}

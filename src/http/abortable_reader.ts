/**
 * Reading a response body so that an abort always ends the read. Deno's `fetch` ends a body when the call's signal
 * aborts, but only while the `Response` it returned is alive: the signal it derives from the caller's (a dependent
 * `AbortSignal`) is held by that `Response`'s request and, from the caller's signal, only weakly. A wrapper that keeps
 * the body's reader and drops the `Response`, as every layer of the HTTP client does, lets a garbage collection (a
 * minor one is enough: a download's own chunks bring them) take that signal, and from then on an abort, a time
 * limit's included, never reaches a read that waits on a server that stalls: the command hangs. So the abort is
 * delivered here, by a listener on the signal, which keeps what it needs alive.
 *
 * @module
 */

/** A body's reader whose reads end when a signal aborts. */
export interface AbortableReader {
  /** The next chunk; rejects with the signal's reason once it aborts, whatever the server does. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Cancels the body and stops listening to the signal. */
  cancel(reason?: unknown): Promise<void>;
  /** Stops listening to the signal: the body has been read to its end, or has failed. */
  release(): void;
}

/**
 * Reads `body` until `signal` aborts; the abort rejects the read waiting, if any, and every later one, and cancels
 * `body` (Deno then closes its connection's read, so nothing is left waiting on the server).
 */
export function abortableReader(body: ReadableStream<Uint8Array>, signal: AbortSignal): AbortableReader {
  const reader = body.getReader();
  let waiting: ((reason: unknown) => void) | undefined;
  const onAbort = () => {
    waiting?.(signal.reason);
    waiting = undefined;
    reader.cancel(signal.reason).catch(() => {});
  };
  const release = () => signal.removeEventListener("abort", onAbort);
  if (!signal.aborted) signal.addEventListener("abort", onAbort, { once: true });
  return {
    read() {
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise((resolve, reject) => {
        waiting = reject;
        // Once the abort has rejected it, the read's own outcome settles nothing: a promise settles once.
        reader.read().then(resolve, reject).finally(() => {
          if (waiting === reject) waiting = undefined;
        });
      });
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
    release,
  };
}

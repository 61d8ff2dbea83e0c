/**
 * Downloads started ahead: a GET begun now for a `fetch` of the same URL that comes later, so that its round trips
 * (connecting, redirects, the server's first byte) overlap other work. `register examples` starts the next archive
 * of a release this way while it registers the current one.
 *
 * It sits below the time limits (`fetchWithTimeouts`): they count from the `fetch` that takes the download
 * over, not from its start, so a download started ahead is not held to limits that ran while nobody read it.
 *
 * @module
 */

/** How long a download started ahead may wait to be taken; an older one is dropped, and fetched again. */
export const PREFETCH_MAX_AGE_MS = 30_000;

/** A `fetch` that takes over downloads started ahead with {@link Prefetcher.start}. */
export interface Prefetcher {
  /** `fetch`; a GET of a URL started ahead takes that download over, and `init.signal` then cancels it. */
  fetch: typeof fetch;
  /**
   * Starts a GET of `url` now, unless one is waiting already. Until a `fetch` takes it, `init.signal` cancels it;
   * the first `fetch` of `url` takes it, whatever its other options.
   */
  start(url: string, init?: RequestInit): void;
  /** Cancels every download started ahead and not taken. */
  close(): void;
}

interface Ahead {
  startedAt: number;
  controller: AbortController;
  response: Promise<Response>;
  /** Unhooks the starter's signal, once the download is taken or cancelled. */
  unhook: () => void;
}

/** Downloads ahead over `inner`; `now` is a monotonic clock in ms (injectable for tests). */
export function prefetching(
  inner: typeof fetch,
  maxAgeMs = PREFETCH_MAX_AGE_MS,
  now: () => number = () => performance.now(),
): Prefetcher {
  const waiting = new Map<string, Ahead>();
  const cancel = (ahead: Ahead, reason?: unknown) => {
    ahead.unhook();
    ahead.controller.abort(reason);
    // An answer already in has a body that holds its connection until cancelled.
    ahead.response.then((response) => response.body?.cancel(reason)).catch(() => {});
  };
  const fetchTaking: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
    const ahead = url !== undefined && (init?.method ?? "GET").toUpperCase() === "GET" ? waiting.get(url) : undefined;
    if (ahead === undefined) return inner(input, init);
    waiting.delete(url!);
    if (now() - ahead.startedAt > maxAgeMs) {
      cancel(ahead);
      return inner(input, init);
    }
    ahead.unhook();
    const signal = init?.signal;
    if (signal?.aborted) ahead.controller.abort(signal.reason);
    else signal?.addEventListener("abort", () => ahead.controller.abort(signal.reason), { once: true });
    // A download that failed before it was taken gets the one attempt it would have had without starting ahead.
    return ahead.response.catch((err) => {
      if (signal?.aborted) throw err;
      return inner(input, init);
    });
  };
  return {
    fetch: fetchTaking,
    start(url, init) {
      if (waiting.has(url) || init?.signal?.aborted) return;
      const controller = new AbortController();
      const signal = init?.signal;
      const onAbort = () => {
        if (waiting.get(url) === ahead) waiting.delete(url);
        cancel(ahead, signal?.reason);
      };
      const ahead: Ahead = {
        startedAt: now(),
        controller,
        response: inner(url, { ...init, method: "GET", signal: controller.signal }),
        unhook: () => signal?.removeEventListener("abort", onAbort),
      };
      // Its failure, if any, is the taker's to see; until then it must not surface as unhandled.
      ahead.response.catch(() => {});
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.set(url, ahead);
    },
    close() {
      for (const ahead of waiting.values()) cancel(ahead);
      waiting.clear();
    },
  };
}

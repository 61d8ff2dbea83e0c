/**
 * The waits between attempts of fctl's two retry layers, the admin's calls (`admin/retry.ts`) and the plain HTTP
 * calls (`http/retry.ts`): one backoff rule and one abortable sleep, so that both wait alike.
 *
 * @module
 */

/**
 * How many attempts a call may take, and how long to wait between them.
 *
 * ```ts
 * import type { BackoffOptions } from "@fctl/fctl";
 *
 * const backoff: BackoffOptions = { maxAttempts: 4, maxBackoffMs: 8_000 };
 * console.log(backoff.initialBackoffMs ?? 100);
 * ```
 */
export interface BackoffOptions {
  /** Attempts in total (`admin.maxRetries`); 1 makes every call once. */
  maxAttempts: number;
  /** Longest wait between attempts (`admin.maxBackoffDelay`). */
  maxBackoffMs: number;
  /** First wait; doubled after each attempt. Default {@link DEFAULT_INITIAL_BACKOFF_MS}. */
  initialBackoffMs?: number;
  /** Random number in [0, 1), for jitter; injectable for tests. */
  random?: () => number;
}

/** The first wait when none is given. */
export const DEFAULT_INITIAL_BACKOFF_MS = 100;

/**
 * The wait after failed attempt `attempt` (from 1): an exponential backoff capped at `maxMs`, with jitter (half of
 * it to all of it), so that clients that failed together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  policy: { initialMs: number; maxMs: number; multiplier?: number },
  random: () => number,
): number {
  const cap = Math.min(policy.maxMs, policy.initialMs * (policy.multiplier ?? 2) ** (attempt - 1));
  return Math.round(cap * (0.5 + random() / 2));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Waiting in the interactive flows: a sleep that ends early with {@link InterruptedError} when the run is
 * aborted (Ctrl-C), injected so that tests need not wait real seconds.
 *
 * @module
 */
import { InterruptedError } from "../errors.ts";

/** Waits `ms` milliseconds; rejects with {@link InterruptedError} as soon as `signal` is aborted. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The error of a wait the user interrupted. */
export function interrupted(what: string): InterruptedError {
  return new InterruptedError(`interrupted while ${what}`);
}

/** {@link Sleep} on real timers. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(interrupted("waiting for the sign-in"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(interrupted("waiting for the sign-in"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

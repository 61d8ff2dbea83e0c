/**
 * Long synchronous work that lets the event loop in now and then.
 *
 * @module
 */
import { setImmediate } from "node:timers";

/**
 * How long work runs before letting pending I/O through. A request made during the work takes two
 * turns to reach the socket (node:http2 opens the stream in one, fctl's coalesced write goes out in the
 * next), so it waits about two slices.
 */
export const DEFAULT_SLICE_MS = 0.5;

/**
 * Returns a checkpoint to call between pieces of long synchronous work. Once `sliceMs` have passed
 * since the last pause, it returns a promise that resolves once what the current turn of the event
 * loop scheduled with `setImmediate` has run (such as fctl's coalesced socket writes); otherwise
 * `undefined`, so that `await`ing it costs next to nothing.
 *
 * Preparing a registration (decoding and hydrating every entity) is milliseconds of uninterrupted
 * work while the source's upload location is asked for. With checkpoints, a request made on an
 * established connection goes out after about two slices instead of after all of the work. Only
 * writes benefit: Deno handles no incoming I/O (a connection completing, an answer) between
 * `setImmediate` callbacks, and a pause that waits for it (a 0 ms timer) costs a millisecond or more.
 */
export function timeSlices(
  sliceMs = DEFAULT_SLICE_MS,
  now: () => number = () => performance.now(),
): () => Promise<void> | undefined {
  let sliceStarted = now();
  return () => {
    if (now() - sliceStarted < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStarted = now();
        resolve();
      })
    );
  };
}

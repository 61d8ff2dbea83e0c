import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { forEachBounded } from "./bounded_work.ts";

/** Resolves after the current macrotask queue drains: lets every started worker reach its await. */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

Deno.test("forEachBounded: every item once, never more than the limit at a time", async () => {
  const items = Array.from({ length: 1000 }, (_, i) => i);
  const done: number[] = [];
  let running = 0;
  let most = 0;
  await forEachBounded(items, 8, async (item) => {
    running++;
    most = Math.max(most, running);
    await tick();
    running--;
    done.push(item);
  });
  deepEqual(done.sort((a, b) => a - b), items);
  equal(most, 8);
});

Deno.test("forEachBounded: the first failure starts nothing new, aborts the running ones, and is thrown", async () => {
  const started: number[] = [];
  const abortedRunning: number[] = [];
  const failure = new Error("item 3 failed");
  await rejects(
    forEachBounded(Array.from({ length: 100 }, (_, i) => i), 4, async (item, signal) => {
      started.push(item);
      if (item === 3) throw failure;
      await tick();
      if (signal.aborted) abortedRunning.push(item);
      // A failure caused by the stop is not the one reported.
      signal.throwIfAborted();
    }),
    (err) => err === failure,
  );
  deepEqual(started, [0, 1, 2, 3]);
  deepEqual(abortedRunning, [0, 1, 2]);
});

Deno.test("forEachBounded: the caller's abort stops it; nothing is started after", async () => {
  const controller = new AbortController();
  const started: number[] = [];
  await rejects(
    forEachBounded(Array.from({ length: 100 }, (_, i) => i), 2, async (item, signal) => {
      started.push(item);
      if (item === 5) controller.abort(new DOMException("interrupted", "AbortError"));
      await tick();
      signal.throwIfAborted();
    }, controller.signal),
    (err) => err instanceof DOMException && err.name === "AbortError",
  );
  ok(started.length <= 7, `${started}`);
  await forEachBounded([], 4, () => Promise.reject(new Error("never called")));
});

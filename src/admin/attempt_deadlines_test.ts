import { equal, ok, throws } from "node:assert/strict";
import { AttemptDeadlines } from "./attempt_deadlines.ts";

const timedOut = (what: string) => () => new Error(`${what} timed out`);
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));

Deno.test("attempt deadlines: each attempt runs out on its own time, not before", async () => {
  const deadlines = new AttemptDeadlines(40);
  const parent = new AbortController().signal;
  const first = deadlines.start(parent, timedOut("first"));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const secondStarted = performance.now();
  const second = deadlines.start(parent, timedOut("second"));
  equal(((await aborted(first.signal)) as Error).message, "first timed out");
  equal(((await aborted(second.signal)) as Error).message, "second timed out");
  // Its own 40 ms from its own start (a timer may fire up to a millisecond early by the clock it is read with).
  ok(performance.now() - secondStarted >= 39, `${performance.now() - secondStarted} ms`);
});

Deno.test("attempt deadlines: an ended attempt never aborts, and one ending does not cut the others short", async () => {
  const deadlines = new AttemptDeadlines(30);
  const parent = new AbortController().signal;
  const ended = deadlines.start(parent, timedOut("ended"));
  const running = deadlines.start(parent, timedOut("running"));
  ended.clear();
  equal(((await aborted(running.signal)) as Error).message, "running timed out");
  equal(ended.signal.aborted, false);
});

Deno.test("attempt deadlines: with every attempt ended no timer is left (the test's timer check fails otherwise)", () => {
  const deadlines = new AttemptDeadlines(60_000);
  const parent = new AbortController().signal;
  const attempts = Array.from({ length: 200 }, (_, i) => deadlines.start(parent, timedOut(`attempt ${i}`)));
  // Ended out of order: the head of the queue is not the last to end.
  for (const attempt of attempts.slice(1)) attempt.clear();
  attempts[0].clear();
  attempts[0].clear();
  ok(attempts.every((attempt) => !attempt.signal.aborted));
});

Deno.test("attempt deadlines: the parent's abort reaches its attempts at once, with the parent's reason", () => {
  const deadlines = new AttemptDeadlines(60_000);
  const parent = new AbortController();
  const other = deadlines.start(new AbortController().signal, timedOut("other"));
  const attempt = deadlines.start(parent.signal, timedOut("attempt"));
  parent.abort(new Error("cancelled"));
  equal((attempt.signal.reason as Error).message, "cancelled");
  equal(other.signal.aborted, false);
  other.clear();
  const late = deadlines.start(parent.signal, timedOut("late"));
  equal((late.signal.reason as Error).message, "cancelled");
  late.clear();
});

Deno.test("attempt deadlines: a time limit no timer can keep is refused", () => {
  ok(AttemptDeadlines.fits(15_000));
  for (const ms of [0, -1, NaN, Infinity, 2 ** 31]) {
    equal(AttemptDeadlines.fits(ms), false);
    throws(() => new AttemptDeadlines(ms), RangeError);
  }
});

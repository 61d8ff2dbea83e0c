import { deepStrictEqual as assertEquals, equal } from "node:assert/strict";
import { setImmediate } from "node:timers";
import { timeSlices } from "./time_slices.ts";

Deno.test("timeSlices: no pause until a slice has passed, then one turn of the event loop, then a new slice", async () => {
  let clock = 0;
  const checkpoint = timeSlices(1, () => clock);
  clock = 0.9;
  equal(checkpoint(), undefined);
  clock = 1;
  const pause = checkpoint();
  equal(pause instanceof Promise, true);
  await pause;
  clock = 1.5;
  equal(checkpoint(), undefined, "the slice restarts when the pause ends");
  clock = 2.2;
  equal(checkpoint() instanceof Promise, true);
});

Deno.test("timeSlices: a pause lets what is due in the current turn run first", async () => {
  const events: string[] = [];
  let clock = 0;
  const checkpoint = timeSlices(1, () => clock);
  // Like a socket write that node:http2 (or write coalescing) schedules for the end of the turn.
  setImmediate(() => events.push("pending I/O"));
  clock = 5;
  await checkpoint();
  events.push("work resumed");
  assertEquals(events, ["pending I/O", "work resumed"]);
});

import { deepEqual } from "node:assert/strict";
import { setImmediate } from "node:timers";
import { IdleQueue } from "./idle_queue.ts";

/** Resolves once every callback queued so far for the check phase has run, and those they queued. */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

Deno.test("IdleQueue: handles items in the order added, none before the current turn ends", async () => {
  const handled: number[] = [];
  const queue = new IdleQueue<number>((item) => handled.push(item));
  queue.add([1, 2]);
  queue.add([3]);
  deepEqual(handled, []);
  await turns(5);
  deepEqual(handled, [1, 2, 3]);
  queue.add([4]);
  await turns(2);
  deepEqual(handled, [1, 2, 3, 4]);
});

Deno.test("IdleQueue: one item per turn, so what else became due runs between two items", async () => {
  const events: string[] = [];
  const queue = new IdleQueue<string>((item) => {
    events.push(item);
    if (item === "a") setImmediate(() => events.push("other work"));
  });
  queue.add(["a", "b"]);
  await turns(4);
  deepEqual(events, ["a", "other work", "b"]);
});

Deno.test("IdleQueue: an item that throws is skipped; after stop nothing more is handled", async () => {
  const handled: string[] = [];
  const queue = new IdleQueue<string>((item) => {
    if (item === "bad") throw new Error("optional work failed");
    handled.push(item);
  });
  queue.add(["bad", "good", "later"]);
  await turns(2);
  deepEqual(handled, ["good"]);
  queue.stop();
  queue.add(["after stop"]);
  await turns(4);
  deepEqual(handled, ["good"]);
});

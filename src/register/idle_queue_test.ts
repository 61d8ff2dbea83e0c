import { deepEqual, ok } from "node:assert/strict";
import { setImmediate } from "node:timers";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { IdleQueue } from "./idle_queue.ts";

/** Resolves once every callback queued so far for the check phase has run, and those they queued. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Resolves after a timer, by when a burst scheduled before it has run. */
const timerTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("IdleQueue: handles items in the order added, none before the current turn ends", async () => {
  const handled: number[] = [];
  const queue = new IdleQueue<number>((item) => handled.push(item));
  queue.add([1, 2]);
  queue.add([3]);
  deepEqual(handled, []);
  await turn();
  deepEqual(handled, [1, 2, 3]);
  queue.add([4]);
  await turn();
  deepEqual(handled, [1, 2, 3, 4]);
});

Deno.test("IdleQueue: works in bursts of at most burstMs, the next one after a timer", async () => {
  let clock = 0;
  const handled: number[] = [];
  const queue = new IdleQueue<number>((item) => {
    handled.push(item);
    clock += 0.4;
  }, { burstMs: 1, now: () => clock });
  queue.add([1, 2, 3, 4, 5, 6, 7]);
  await turn();
  deepEqual(handled, [1, 2, 3], "the burst ends once 1 ms has passed");
  await turn();
  deepEqual(handled, [1, 2, 3], "the next burst waits for a timer, not the next turn");
  await timerTurn();
  deepEqual(handled, [1, 2, 3, 4, 5, 6]);
  await timerTurn();
  deepEqual(handled, [1, 2, 3, 4, 5, 6, 7]);
});

Deno.test("IdleQueue: data that arrives on a socket while items are queued is handled between bursts", async () => {
  // Both ends of a loopback TCP connection, made before any item is queued.
  const accepted = Promise.withResolvers<Socket>();
  const server = createServer((socket) => accepted.resolve(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
  const serverSide = await accepted.promise;
  let handled = 0;
  const queue = new IdleQueue<number>(() => {
    const end = performance.now() + 0.2;
    while (performance.now() < end) { /* the work of one item */ }
    handled++;
  });
  try {
    const handledWhenData = new Promise<number>((resolve) => client.once("data", () => resolve(handled)));
    queue.add(Array.from({ length: 100 }, (_, i) => i)); // 20 ms of work
    serverSide.write("answer");
    const count = await handledWhenData;
    ok(count < 100, `the data was handled only after all ${count} items`);
  } finally {
    queue.stop();
    client.destroy();
    serverSide.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("IdleQueue: an item that throws is skipped; after stop nothing more is handled", async () => {
  const handled: string[] = [];
  const queue = new IdleQueue<string>((item) => {
    if (item === "bad") throw new Error("optional work failed");
    handled.push(item);
  }, { burstMs: 0 });
  queue.add(["bad", "good", "later"]);
  await turn();
  await timerTurn();
  deepEqual(handled, ["good"]);
  queue.stop();
  queue.add(["after stop"]);
  await timerTurn();
  await timerTurn();
  deepEqual(handled, ["good"]);
});

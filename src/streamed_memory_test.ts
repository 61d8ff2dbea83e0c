import { deepEqual } from "node:assert/strict";
import { FCTL_RUN_FLAGS } from "./permissions.ts";
import { COLLECT_EVERY_BYTES, streamedBytesCounter } from "./streamed_memory.ts";

/** Runs `fn` with `calls` recording what V8's `gc` hook is asked for (tests run without --expose-gc). */
function withGcHook(fn: (calls: unknown[]) => void): void {
  const global = globalThis as { gc?: unknown };
  const before = global.gc;
  const calls: unknown[] = [];
  global.gc = (options: unknown) => void calls.push(options);
  try {
    fn(calls);
  } finally {
    global.gc = before;
  }
}

Deno.test("a counter asks for one young-generation collection per COLLECT_EVERY_BYTES streamed", () => {
  withGcHook((calls) => {
    const count = streamedBytesCounter();
    const chunk = 64 * 1024;
    for (let streamed = 0; streamed < 3 * COLLECT_EVERY_BYTES - chunk; streamed += chunk) count(chunk);
    deepEqual(calls, [{ type: "minor" }, { type: "minor" }]);
    count(chunk);
    deepEqual(calls.length, 3);
  });
});

Deno.test("counters are independent: each counts its own stream", () => {
  withGcHook((calls) => {
    const first = streamedBytesCounter();
    const second = streamedBytesCounter();
    first(COLLECT_EVERY_BYTES / 2);
    second(COLLECT_EVERY_BYTES / 2);
    deepEqual(calls, []);
    first(COLLECT_EVERY_BYTES / 2);
    deepEqual(calls, [{ type: "minor" }]);
  });
});

Deno.test("without an exposed gc (fctl used as a library) counting does nothing", () => {
  const global = globalThis as { gc?: unknown };
  const before = global.gc;
  delete global.gc;
  try {
    streamedBytesCounter()(10 * COLLECT_EVERY_BYTES);
  } finally {
    if (before !== undefined) global.gc = before;
  }
});

Deno.test("fctl's run flags expose gc, which the counters need", async () => {
  const script = "console.log(typeof globalThis.gc)";
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", ...FCTL_RUN_FLAGS.filter((flag) => flag.startsWith("--v8-flags")), script],
    stderr: "inherit",
  }).output();
  deepEqual(new TextDecoder().decode(stdout), "function\n");
});

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { packTar } from "modern-tar";
import { OperationError } from "../../errors.ts";
import type { Placement, ReadArchive } from "./archive.ts";
import { withDownloadedArchive } from "./download.ts";
import { within } from "./_test_streams.ts";
import { fixture } from "../_test_helpers.ts";
import { endStalledBodies } from "../../http/_test_bodies.ts";

/** How the test server sends an archive: in chunks of `chunkBytes`, then ends or stalls. */
interface Served {
  bytes: Uint8Array;
  chunkBytes: number;
  stall?: boolean;
}

/** What the server saw of its one response: whether the client went away before the end. */
interface ServerView {
  /** The response body was cancelled: the client closed the connection. */
  cancelled: Promise<void>;
}

/** Serves `served` at `/<name>` over real HTTP on loopback, for the duration of `fn`. */
async function withArchiveServer(
  served: Served,
  fn: (url: (name: string) => string, view: ServerView) => Promise<void>,
): Promise<void> {
  const cancelled = Promise.withResolvers<void>();
  const stalls = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < served.bytes.length) {
          controller.enqueue(served.bytes.slice(at, at + served.chunkBytes));
          at += served.chunkBytes;
          // One chunk per turn of the event loop, as a slow network delivers them.
          return new Promise((resolve) => setTimeout(resolve, 0));
        }
        if (!served.stall) return controller.close();
        stalls.add(controller);
        return new Promise(() => {});
      },
      cancel() {
        cancelled.resolve();
      },
    }, { highWaterMark: 0 });
    return new Response(body);
  });
  try {
    await fn((name) => `http://127.0.0.1:${server.addr.port}/${name}`, { cancelled: cancelled.promise });
  } finally {
    endStalledBodies(stalls);
    await server.shutdown();
  }
}

const pbInMemory = (name: string): Placement => name.endsWith(".pb") && !name.includes("/._") ? "memory" : "skip";
const names = (read: ReadArchive) => Promise.resolve(read.entries.map((e) => e.name));

Deno.test("a .tgz download arriving in 512-byte chunks, with skipped members among the rest, is read whole", async () => {
  const bytes = await Deno.readFile(fixture("invalid-fast.tgz"));
  await withArchiveServer({ bytes, chunkBytes: 512 }, async (url) => {
    const read = withDownloadedArchive(url("invalid-fast.tgz"), { placement: pbInMemory }, names, undefined, {});
    const ending = await within(10_000, "the download", read);
    assert(ending.settled === "resolved", JSON.stringify(ending));
    const entries = ending.value as string[];
    assertEquals(entries.length, 105);
    assert(entries.includes("core/_pb_output/.DS_Store"));
  });
});

/** A tar of `README.md` (skipped) then `a_1.pb` (718 bytes), cut inside `a_1.pb`'s body. */
async function skippedThenTruncatedTar(): Promise<Uint8Array> {
  const whole = await packTar([
    { header: { name: "README.md", size: 5 }, body: "hello" },
    { header: { name: "a_1.pb", size: 718 }, body: new Uint8Array(718).fill(7) },
  ]);
  return whole.subarray(0, 2000);
}

Deno.test("Ctrl-C ends a download that stalls inside a member after a skipped one, and closes it", async () => {
  const served = { bytes: await skippedThenTruncatedTar(), chunkBytes: 2000, stall: true };
  await withArchiveServer(served, async (url, server) => {
    const interrupt = new AbortController();
    const reason = new Error("interrupted");
    const read = withDownloadedArchive(url("stall.tar"), { placement: pbInMemory }, names, interrupt.signal, {});
    setTimeout(() => interrupt.abort(reason), 100);
    assertEquals(await within(5000, "the interrupted download", read), { settled: "rejected", error: reason });
    await within(5000, "closing the connection", server.cancelled);
  });
});

Deno.test("a download whose archive is found bad is closed at once, even while the server stalls", async () => {
  const tar = await packTar([
    { header: { name: "a_1.pb", size: 1 }, body: "a" },
    { header: { name: "../x_1.pb", size: 1 }, body: "x" },
  ]);
  // The server stalls right after the bad entry's header.
  await withArchiveServer({ bytes: tar.subarray(0, 3 * 512), chunkBytes: 512, stall: true }, async (url, server) => {
    const read = withDownloadedArchive(url("slip.tar"), { placement: pbInMemory }, names, undefined, {});
    const ending = await within(5000, "the download", read);
    assert(ending.settled === "rejected" && ending.error instanceof OperationError, JSON.stringify(ending));
    assert(ending.error.message.includes(`has an unsafe entry "../x_1.pb"`), ending.error.message);
    await within(5000, "closing the connection", server.cancelled);
  });
});

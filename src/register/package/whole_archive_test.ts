import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { withArchiveEntries, withStreamedArchiveEntries } from "./archive.ts";
import { WHOLE_TAR_MAX_BYTES, wholeTarEntries } from "./whole_archive.ts";
import { fixture } from "../_test_helpers.ts";
import type { ReadArchiveOptions } from "./archive.ts";

const CORE = fixture("flytesnacks-core.tgz");
const pbInMemory: ReadArchiveOptions = { placement: (name) => (name.endsWith(".pb") ? "memory" : "skip") };

Deno.test("a small local archive read whole has the entries, names and bytes the streaming read has", async () => {
  const read = await withArchiveEntries(CORE, pbInMemory, (read) => Promise.resolve(read.entries));
  const streamed = await withStreamedArchiveEntries(
    CORE,
    "tar.gz",
    (await Deno.open(CORE)).readable,
    pbInMemory,
    (read) => Promise.resolve(read.entries),
  );
  assertEquals(read, streamed);
});

Deno.test("a tar read whole: its entries with their bytes, and nothing once it inflates past the bound", async () => {
  const entries = await wholeTarEntries(await Deno.readFile(CORE), true);
  assertEquals(entries?.filter((entry) => entry.header.type === "file").length, 85);
  const zeros = new Uint8Array(WHOLE_TAR_MAX_BYTES + 1);
  const gz = new Uint8Array(
    await new Response(new Blob([zeros]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
  );
  assertEquals(await wholeTarEntries(gz, true), undefined);
});

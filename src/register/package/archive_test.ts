import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { OperationError, UsageError } from "../../errors.ts";
import {
  type ArchiveEntry,
  archiveFormat,
  type Placement,
  type ReadArchive,
  safeEntryName,
  withArchiveEntries,
  withExtractedArchive,
  withStreamedArchiveEntries,
} from "./archive.ts";
import { deliver, within } from "./_test_streams.ts";
import { packTar } from "modern-tar";
import { dirname, join } from "node:path";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { extractionDirs, fixture, removeTar, writeTar } from "../_test_helpers.ts";

const VALID_NAMES = [
  "014_recipes.core.basic.basic_workflow.t1_1.pb",
  "015_recipes.core.basic.basic_workflow.t2_1.pb",
  "016_recipes.core.basic.basic_workflow.my_wf_2.pb",
  "017_recipes.core.basic.basic_workflow.my_wf_3.pb",
];

async function extractedNames(path: string): Promise<string[]> {
  return await withExtractedArchive(path, async ({ archive, files }) => {
    assertEquals(archive, path);
    for (const file of files) assertEquals((await Deno.stat(file.path)).size, file.size);
    return files.map((f) => f.name);
  });
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

Deno.test("archiveFormat accepts .tar, .tar.gz and .tgz (also on URLs with a query)", () => {
  assertEquals(archiveFormat("a/b.tar"), "tar");
  assertEquals(archiveFormat("b.TGZ"), "tar.gz");
  assertEquals(archiveFormat("https://x/b.tar.gz?sig=1"), "tar.gz");
  assertEquals(archiveFormat("b.zip"), undefined);
  assertEquals(archiveFormat("b.gz"), undefined);
});

Deno.test("extracts valid-register.tar and .tgz with their four files", async () => {
  assertEquals(await extractedNames(fixture("valid-register.tar")), VALID_NAMES);
  assertEquals(await extractedNames(fixture("valid-register.tgz")), VALID_NAMES);
});

Deno.test("extracts valid-unordered-register.tar in archive order", async () => {
  assertEquals(await extractedNames(fixture("valid-unordered-register.tar")), [...VALID_NAMES].reverse());
});

Deno.test("extracts valid-parent-folder-register.tar with archive-relative names", async () => {
  const names = await extractedNames(fixture("valid-parent-folder-register.tar"));
  assertEquals(names.sort(), VALID_NAMES.map((n) => `parentfolder/${n}`));
});

Deno.test("accepts the root directory entry pyflyte writes (failure-node.tgz has '/')", async () => {
  const names = await extractedNames(fixture("failure-node.tgz"));
  assertEquals(names.length, 16);
  assert(names.every((n) => /^\d\d_.*\.pb$/.test(n)));
});

Deno.test("normalizes ./ prefixes and finds the fast source in flytesnacks-core.tgz", async () => {
  const names = await extractedNames(fixture("flytesnacks-core.tgz"));
  assertEquals(names.length, 85);
  assert(names.includes("core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz"));
});

Deno.test("rejects a file that is not a tar archive, naming it", async () => {
  const path = fixture("invalid.tar");
  await assertRejects(extractedNames(path), (err: Error) => {
    assert(err instanceof OperationError);
    assertEquals(err.message, `${JSON.stringify(path)} is not a valid tar archive: Tar archive is truncated.`);
    return true;
  });
});

Deno.test("rejects a .tgz that is not gzip, naming it", async () => {
  const path = fixture("invalid.tgz");
  await assertRejects(extractedNames(path), (err: Error) => {
    assert(err instanceof OperationError);
    assert(err.message.startsWith(`${JSON.stringify(path)} is not a valid gzip-compressed tar archive: `), err.message);
    return true;
  });
});

Deno.test("rejects other extensions with flytectl's message", async () => {
  const path = fixture("invalid-extension-register.zip");
  await assertRejects(extractedNames(path), (err: Error) => {
    assert(err instanceof UsageError);
    assertEquals(err.message, `only .tar, .tar.gz and .tgz extension archives are supported: ${JSON.stringify(path)}`);
    return true;
  });
});

Deno.test("a missing archive is a usage error naming it", async () => {
  await assertRejects(extractedNames("/nonexistent/x.tar"), UsageError);
});

Deno.test("rejects tar slip: an entry with '..'", async () => {
  // Extraction happens in a fresh dir under the system temp dir, so `../name` would land in the temp dir itself.
  const escapee = `fctl-slip-${crypto.randomUUID()}`;
  const path = await writeTar("slip.tar", [
    { header: { name: "ok_1.pb", size: 1 }, body: "a" },
    { header: { name: `../${escapee}`, size: 1 }, body: "x" },
  ]);
  try {
    await assertRejects(extractedNames(path), (err: Error) => {
      assert(err instanceof OperationError);
      assertEquals(
        err.message,
        `archive ${JSON.stringify(path)} has an unsafe entry "../${escapee}": '..' path segments are not allowed`,
      );
      return true;
    });
    assert(!(await pathExists(join(dirname(dirname(path)), escapee))));
  } finally {
    await removeTar(path);
  }
});

Deno.test("rejects symlinks and hard links", async () => {
  for (const type of ["symlink", "link"] as const) {
    const path = await writeTar("link.tar", [{ header: { name: "a_1.pb", type, linkname: "/etc/passwd", size: 0 } }]);
    try {
      await assertRejects(extractedNames(path), (err: Error) => {
        assert(err instanceof OperationError);
        assert(err.message.includes(`unsafe entry "a_1.pb": ${type} entries are not allowed`), err.message);
        return true;
      });
    } finally {
      await removeTar(path);
    }
  }
});

Deno.test("safeEntryName rejects absolute paths, devices and empty names; normalizes the rest", () => {
  const name = (n: string, type?: "file" | "directory" | "character-device") =>
    safeEntryName("a.tar", { name: n, size: 0, type });
  assertEquals(name("./a//b/./c.pb"), "a/b/c.pb");
  assertEquals(name("./", "directory"), undefined);
  assertEquals(name("/", "directory"), undefined);
  for (const bad of ["/etc/passwd", "\\evil", "C:/x", "a/../../b", "."]) {
    let thrown: unknown;
    try {
      name(bad);
    } catch (err) {
      thrown = err;
    }
    assert(thrown instanceof OperationError, bad);
  }
  let thrown: unknown;
  try {
    name("dev", "character-device");
  } catch (err) {
    thrown = err;
  }
  assert(thrown instanceof OperationError);
});

Deno.test("rejects an archive that contains a file twice", async () => {
  const path = await writeTar("twice.tar", [
    { header: { name: "a_1.pb", size: 1 }, body: "a" },
    { header: { name: "./a_1.pb", size: 1 }, body: "b" },
  ]);
  try {
    await assertRejects(extractedNames(path), /contains "a_1.pb" more than once/);
  } finally {
    await removeTar(path);
  }
});

Deno.test("removes the temp dir after success, after the callback throws, and after a bad archive", async () => {
  const before = await extractionDirs();
  const dir = await withExtractedArchive(fixture("valid-register.tgz"), async ({ files }) => {
    assert(await pathExists(files[0].path));
    return files[0].path;
  });
  assert(!(await pathExists(dir)));

  let seen = "";
  await assertRejects(
    withExtractedArchive(fixture("valid-register.tar"), ({ files }) => {
      seen = files[0].path;
      return Promise.reject(new Error("boom"));
    }),
    /boom/,
  );
  assert(seen !== "" && !(await pathExists(seen)));

  await assertRejects(extractedNames(fixture("invalid.tar")), OperationError);
  const slip = await writeTar("slip.tar", [{ header: { name: "a_1.pb", size: 1 }, body: "a" }, {
    header: { name: "/abs", size: 1 },
    body: "x",
  }]);
  try {
    await assertRejects(extractedNames(slip), OperationError);
  } finally {
    await removeTar(slip);
  }
  assertEquals(await extractionDirs(), before);
});

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) found.push(...await filesUnder(join(dir, entry.name), `${name}/`));
    else found.push(name);
  }
  return found;
}

const byExtension = (name: string): Placement =>
  name.endsWith(".pb") ? "memory" : name.endsWith(".tar.gz") ? "disk" : "skip";

Deno.test("placement: .pb files in memory, the source alone in the temp dir, others named only", async () => {
  const path = await writeTar("mixed.tar", [
    { header: { name: "pkg/a_1.pb", size: 3 }, body: "abc" },
    { header: { name: "pkg/fast123.tar.gz", size: 4 }, body: "srcs" },
    { header: { name: "pkg/.DS_Store", size: 2 }, body: "ds" },
    { header: { name: "pkg/b_2.pb", size: 2 }, body: "de" },
  ]);
  const before = await extractionDirs();
  try {
    await withArchiveEntries(path, { placement: byExtension }, async ({ entries }) => {
      const shape = (e: ArchiveEntry) => [e.name, e.placement, e.size];
      assertEquals(entries.map(shape), [
        ["pkg/a_1.pb", "memory", 3],
        ["pkg/fast123.tar.gz", "disk", 4],
        ["pkg/.DS_Store", "skip", 2],
        ["pkg/b_2.pb", "memory", 2],
      ]);
      const text = (e: ArchiveEntry) => e.placement === "memory" ? new TextDecoder().decode(e.bytes) : undefined;
      assertEquals(entries.map(text), ["abc", undefined, undefined, "de"]);
      const source = entries[1];
      assert(source.placement === "disk");
      assertEquals(await Deno.readTextFile(source.path), "srcs");
      // The digest is taken on the way to disk, so the upload need not read the file again.
      assertEquals(Buffer.from(source.md5).toString("hex"), createHash("md5").update("srcs").digest("hex"));
      const tempDir = dirname(dirname(source.path));
      assertEquals(await filesUnder(tempDir), ["pkg/fast123.tar.gz"]);
    });
    assertEquals(await extractionDirs(), before);
  } finally {
    await removeTar(path);
  }
});

Deno.test("placement: an archive read wholly into memory creates no temp dir", async () => {
  const before = await extractionDirs();
  const dirsDuring = await withArchiveEntries(fixture("valid-register.tgz"), { placement: () => "memory" }, async (
    { entries },
  ) => {
    assertEquals(entries.map((e) => e.placement), ["memory", "memory", "memory", "memory"]);
    return await extractionDirs();
  });
  assertEquals(dirsDuring, before);
});

Deno.test("placement: files past the memory budget go to disk instead, byte for byte", async () => {
  const body = (n: number) => "x".repeat(n);
  const path = await writeTar("big.tar", [
    { header: { name: "a_1.pb", size: 600 }, body: body(600) },
    { header: { name: "b_1.pb", size: 500 }, body: body(500) },
    { header: { name: "c_1.pb", size: 400 }, body: body(400) },
  ]);
  try {
    await withArchiveEntries(path, { placement: () => "memory", memoryBudgetBytes: 1000 }, async ({ entries }) => {
      // 600 fits; 500 more would not; 400 more still does.
      assertEquals(entries.map((e) => e.placement), ["memory", "disk", "memory"]);
      const spilled = entries[1];
      assert(spilled.placement === "disk");
      assertEquals(await Deno.readTextFile(spilled.path), body(500));
    });
  } finally {
    await removeTar(path);
  }
});

Deno.test("placement: unsafe and duplicate entries are rejected whatever their placement", async () => {
  for (const placement of ["memory", "skip"] as const) {
    const slip = await writeTar("slip.tar", [{ header: { name: "../x_1.pb", size: 1 }, body: "x" }]);
    const twice = await writeTar("twice.tar", [
      { header: { name: "a_1.pb", size: 1 }, body: "a" },
      { header: { name: "./a_1.pb", size: 1 }, body: "b" },
    ]);
    try {
      const read = (path: string) => withArchiveEntries(path, { placement: () => placement }, () => Promise.resolve());
      await assertRejects(read(slip), /unsafe entry "..\/x_1.pb"/);
      await assertRejects(read(twice), /contains "a_1.pb" more than once/);
    } finally {
      await removeTar(slip);
      await removeTar(twice);
    }
  }
});

/** `size` random bytes; random, so that a buffer reused too early shows in the result. */
function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  return bytes;
}

for (const compressed of [false, true]) {
  Deno.test(`a ${compressed ? ".tgz" : ".tar"} of many chunks is read exactly (its buffers are reused)`, async () => {
    const entity = randomBytes(300_000 + 7);
    const source = randomBytes(6 * 1024 * 1024 + 5);
    const skipped = randomBytes(5 * 1024 * 1024 + 3);
    const later = randomBytes(70_001);
    const file = (name: string, body: Uint8Array) => ({
      header: { name, size: body.length, type: "file" as const },
      body,
    });
    const tar = await writeTar("big.tar", [
      file("1_t_1.pb", entity),
      file("fastabc.tar.gz", source),
      file("README.bin", skipped),
      file("2_wf_2.pb", later),
    ]);
    let path = tar;
    if (compressed) {
      path = tar.replace(/\.tar$/, ".tgz");
      const gzipped = (await Deno.open(tar)).readable.pipeThrough(new CompressionStream("gzip"));
      await Deno.writeFile(path, gzipped);
    }
    try {
      const placement = (name: string): Placement =>
        name.endsWith(".pb") ? "memory" : name.startsWith("fast") ? "disk" : "skip";
      await withArchiveEntries(path, { placement }, async ({ entries }) => {
        assertEquals(entries.map((e) => [e.name, e.placement, e.size]), [
          ["1_t_1.pb", "memory", entity.length],
          ["fastabc.tar.gz", "disk", source.length],
          ["README.bin", "skip", skipped.length],
          ["2_wf_2.pb", "memory", later.length],
        ]);
        const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
        const [first, onDisk, , last] = entries;
        assert(first.placement === "memory" && same(first.bytes, entity), "the first entity's bytes");
        assert(last.placement === "memory" && same(last.bytes, later), "the last entity's bytes");
        assert(onDisk.placement === "disk");
        assert(same(await Deno.readFile(onDisk.path), source), "the source's bytes on disk");
        assertEquals(onDisk.md5, new Uint8Array(createHash("md5").update(source).digest()));
      });
    } finally {
      await removeTar(tar);
    }
  });
}

// Regressions of issue 18: reads that hung. Each must end within a time bound, however the bytes arrive.

/** A tar of `README.md` (skipped) then `a_1.pb` (718 bytes, kept), cut inside `a_1.pb`'s body. */
async function skippedThenTruncatedTar(): Promise<Uint8Array> {
  const whole = await packTar([
    { header: { name: "README.md", size: 5 }, body: "hello" },
    { header: { name: "a_1.pb", size: 718 }, body: new Uint8Array(718).fill(7) },
  ]);
  return whole.subarray(0, 2000);
}

const pbInMemory = (name: string): Placement => name.endsWith(".pb") && !name.includes("/._") ? "memory" : "skip";

Deno.test("a skipped member then a truncated one: the read ends with an error naming the archive", async () => {
  const path = await writeTar("cut.tar", []);
  await Deno.writeFile(path, await skippedThenTruncatedTar());
  try {
    const ending = await within(5000, "reading the cut tar", withArchiveEntries(path, { placement: pbInMemory }, noop));
    assert(ending.settled === "rejected" && ending.error instanceof OperationError, JSON.stringify(ending));
    assertEquals(ending.error.message, `${JSON.stringify(path)} is not a valid tar archive: Tar archive is truncated.`);
  } finally {
    await removeTar(path);
  }
  for (const chunkSizes of [[2000], [512], [1], [700, 3]]) {
    const { stream } = deliver(await skippedThenTruncatedTar(), { chunkSizes });
    const read = withStreamedArchiveEntries("cut.tar", "tar", stream, { placement: pbInMemory }, noop);
    const ending = await within(5000, `reading the cut tar in chunks of ${chunkSizes}`, read);
    assert(ending.settled === "rejected" && ending.error instanceof OperationError, JSON.stringify(ending));
    assertEquals(ending.error.message, `"cut.tar" is not a valid tar archive: Tar archive is truncated.`);
  }
});

Deno.test("invalid-fast.tgz (macOS junk among its members) is read whole when delivered in small chunks", async () => {
  const bytes = await Deno.readFile(fixture("invalid-fast.tgz"));
  const names = (read: ReadArchive) => read.entries.map((e) => `${e.name} ${e.placement} ${e.size}`);
  const expected = await withArchiveEntries(fixture("invalid-fast.tgz"), { placement: pbInMemory }, async (read) => {
    return await Promise.resolve(names(read));
  });
  assert(expected.filter((line) => line.includes(" skip ")).length > 0, "some members are skipped");
  for (const chunkSizes of [[512], [3, 1000, 7, 64]]) {
    for (let run = 0; run < 3; run++) {
      const { stream } = deliver(bytes, { chunkSizes });
      const read = withStreamedArchiveEntries("invalid-fast.tgz", "tar.gz", stream, { placement: pbInMemory }, (r) => {
        return Promise.resolve(names(r));
      });
      const ending = await within(5000, `reading invalid-fast.tgz in chunks of ${chunkSizes}`, read);
      assertEquals(ending, { settled: "resolved", value: expected });
    }
  }
});

Deno.test("an abort ends a read waiting on a source that stalls inside a member after a skipped one", async () => {
  const { stream } = deliver(await skippedThenTruncatedTar(), { stall: true });
  const abort = new AbortController();
  const reason = new Error("interrupted");
  const read = withStreamedArchiveEntries("stall.tar", "tar", stream, { placement: pbInMemory }, noop, abort.signal);
  setTimeout(() => abort.abort(reason), 50);
  assertEquals(await within(5000, "the aborted read", read), { settled: "rejected", error: reason });
});

Deno.test("a read that fails cancels its source at once, even one that stalls (a download is not read on)", async () => {
  const tar = await packTar([
    { header: { name: "a_1.pb", size: 1 }, body: "a" },
    { header: { name: "../x_1.pb", size: 1 }, body: "x" },
  ]);
  // The source stalls right after the bad entry's header, as a slow download would.
  const delivery = deliver(tar.subarray(0, 3 * 512), { chunkSizes: [512], stall: true });
  const read = withStreamedArchiveEntries("slip.tar", "tar", delivery.stream, { placement: pbInMemory }, noop);
  const ending = await within(5000, "the failed read", read);
  assert(ending.settled === "rejected" && ending.error instanceof OperationError, JSON.stringify(ending));
  assert(ending.error.message.includes(`unsafe entry "../x_1.pb"`), ending.error.message);
  // Cancellation reaches the source through the pipe's own turns of the event loop.
  for (let turn = 0; turn < 100 && !delivery.cancelled(); turn++) await new Promise((r) => setTimeout(r, 1));
  assert(delivery.cancelled(), "the source was cancelled");
});

const noop = () => Promise.resolve();

Deno.test("an archive that is not a regular file (a FIFO, a device, a directory) is refused before it is opened", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
  try {
    const fifo = join(dir, "fifo.tar");
    // Opening a FIFO for reading waits for a writer: it used to hang here.
    const mkfifo = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert(mkfifo.success, "mkfifo");
    // A device never ends: /dev/zero is a stream of end-of-archive blocks and padding, forever.
    const device = join(dir, "zero.tgz");
    await Deno.symlink("/dev/zero", device);
    const directory = join(dir, "dir.tar");
    await Deno.mkdir(directory);
    for (const path of [fifo, device, directory]) {
      const ending = await within(5000, `reading ${path}`, withArchiveEntries(path, { placement: pbInMemory }, noop));
      assert(ending.settled === "rejected" && ending.error instanceof UsageError, JSON.stringify(ending));
      assertEquals(ending.error.message, `archive ${JSON.stringify(path)} is not a regular file`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Property tests: reading an archive always ends, however its bytes arrive.
 *
 * Valid, truncated and mutated archives (tar and tgz, built from the shared fixtures and from
 * generated packages mixing entities with members that are skipped) are delivered in chunks of
 * random sizes (1 byte to 64 KB) with random interleavings, sometimes interrupted by an abort at a
 * random point or by a source that stalls, through {@link withStreamedArchiveEntries} and through the
 * local-file path. Every read must end within a time bound: with the archive's entries, the same as
 * when the bytes come in one piece, or with a one-line {@link OperationError} naming the archive (or
 * the abort's reason), and leave no temp dir behind.
 *
 * `FCTL_FUZZ_SCALE` (a positive number, default 1) multiplies the number of generated cases.
 *
 * @module
 */
import fc from "fast-check";
import { checkProperty } from "../../_test_property.ts";
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { gunzipSync, gzipSync } from "node:zlib";
import { packTar, type TarEntry } from "modern-tar";
import { OperationError } from "../../errors.ts";
import {
  type ArchiveFormat,
  type Placement,
  type ReadArchive,
  type ReadArchiveOptions,
  withArchiveEntries,
  withStreamedArchiveEntries,
} from "./archive.ts";
import { memberRole } from "../member_role.ts";
import { fixture } from "../_test_helpers.ts";
import { deliver, type Ending, within } from "./_test_streams.ts";

const SCALE = Number(Deno.env.get("FCTL_FUZZ_SCALE") ?? "1");
if (!(SCALE > 0)) throw new Error(`FCTL_FUZZ_SCALE must be a positive number, not ${Deno.env.get("FCTL_FUZZ_SCALE")}`);

/** Cases per property run; sized so the whole file takes about 3 s on a quiet machine. */
const STREAMED_RUNS = Math.round(2000 * SCALE);
const LOCAL_RUNS = Math.round(400 * SCALE);

/** A read that takes longer than this hangs (a typical case takes a few milliseconds). */
const HANG_MS = 5000;

/** Most chunks one delivery is cut into: 1-byte chunks of a 200 KB archive would only cost time. */
const MAX_CHUNKS = 300;

/** The shared fixtures as plain tars (the .tgz ones gunzipped), by name. */
const FIXTURE_TARS: ReadonlyMap<string, Uint8Array> = new Map(
  await Promise.all(
    [
      "valid-register.tar",
      "valid-unordered-register.tar",
      "valid-parent-folder-register.tar",
      "valid-register.tgz",
      "failure-node.tgz",
      "flytesnacks-core.tgz",
      "invalid-fast.tgz",
      "invalid.tar",
    ].map(async (name): Promise<[string, Uint8Array]> => {
      const bytes = await Deno.readFile(fixture(name));
      return [name, name.endsWith(".tgz") ? new Uint8Array(gunzipSync(bytes)) : bytes];
    }),
  ),
);

/** Real entity bytes to fill generated members with. */
const ENTITY_BYTES = await Deno.readFile(fixture("69_core.flyte_basics.lp.greet_1.pb"));

/** A member of a generated package; most kinds are ones `register files` skips. */
const MEMBER = fc.record({
  kind: fc.constantFrom("entity", "readme", "dsStore", "appleDouble", "directory", "source", "nested"),
  size: fc.oneof(fc.nat(16), fc.nat(1500), fc.nat(6000)),
});
type Member = typeof MEMBER extends fc.Arbitrary<infer M> ? M : never;

function tarEntry(member: Member, index: number): TarEntry {
  const body = new Uint8Array(member.size);
  for (let at = 0; at < body.length; at += ENTITY_BYTES.length) {
    body.set(ENTITY_BYTES.subarray(0, body.length - at), at);
  }
  const file = (name: string): TarEntry => ({ header: { name, size: body.length, type: "file" }, body });
  switch (member.kind) {
    case "entity":
      return file(`pkg/${index}_core.t${index}_${1 + index % 3}.pb`);
    case "readme":
      return file("README.md");
    case "dsStore":
      return file(`pkg/.DS_Store`);
    case "appleDouble":
      return file(`pkg/._${index}_core.t_1.pb`);
    case "directory":
      return { header: { name: `pkg/d${index % 2}/`, size: 0, type: "directory" } };
    case "source":
      return file(`pkg/fast${index}.tar.gz`);
    case "nested":
      return file(`pkg/d${index % 2}/${index}_core.wf_2.pb`);
  }
}

/** The fixtures of a few KB, and the big ones (40-200 KB), which are read less often: they cost time. */
const SMALL_FIXTURES = [...FIXTURE_TARS.keys()].filter((name) => FIXTURE_TARS.get(name)!.length < 10_000);
const BIG_FIXTURES = [...FIXTURE_TARS.keys()].filter((name) => !SMALL_FIXTURES.includes(name));

/** Where an archive comes from: a fixture, or a package generated from members. */
const BASE = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SMALL_FIXTURES).map((name) => ({ name, members: [] as Member[] })) },
  { weight: 1, arbitrary: fc.constantFrom(...BIG_FIXTURES).map((name) => ({ name, members: [] as Member[] })) },
  { weight: 6, arbitrary: fc.array(MEMBER, { maxLength: 8 }).map((members) => ({ name: "generated", members })) },
);

/** How the archive's bytes are damaged, if at all; positions are fractions of its length. */
const MUTATION = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("flip" as const),
      edits: fc.array(
        fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), xor: fc.integer({ min: 1, max: 255 }) }),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("splice" as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      remove: fc.nat(1024),
      insert: fc.uint8Array({ maxLength: 1024 }),
    }),
  },
);
type Mutation = typeof MUTATION extends fc.Arbitrary<infer M> ? M : never;

function mutate(bytes: Uint8Array, mutation: Mutation): Uint8Array {
  const position = (fraction: number) => Math.min(bytes.length, Math.floor(fraction * bytes.length));
  switch (mutation.kind) {
    case "none":
      return bytes;
    case "truncate":
      return bytes.slice(0, position(mutation.at));
    case "flip": {
      const flipped = bytes.slice();
      for (const { at, xor } of mutation.edits) {
        if (flipped.length > 0) flipped[Math.min(flipped.length - 1, position(at))] ^= xor;
      }
      return flipped;
    }
    case "splice": {
      const at = position(mutation.at);
      const rest = bytes.subarray(Math.min(bytes.length, at + mutation.remove));
      const spliced = new Uint8Array(at + mutation.insert.length + rest.length);
      spliced.set(bytes.subarray(0, at));
      spliced.set(mutation.insert, at);
      spliced.set(rest, at + mutation.insert.length);
      return spliced;
    }
  }
}

/** One archive to read: its base, its format, and its damage (to the tar, or to the gzip bytes). */
const ARCHIVE = fc.record({
  base: BASE,
  format: fc.constantFrom<ArchiveFormat>("tar", "tar.gz"),
  mutation: MUTATION,
  mutateCompressed: fc.boolean(),
});
type ArchiveCase = typeof ARCHIVE extends fc.Arbitrary<infer A> ? A : never;

async function archiveBytes({ base, format, mutation, mutateCompressed }: ArchiveCase): Promise<Uint8Array> {
  const tar = FIXTURE_TARS.get(base.name) ?? await packTar(base.members.map(tarEntry));
  if (format === "tar") return mutate(tar, mutation);
  if (mutateCompressed) return mutate(new Uint8Array(gzipSync(tar)), mutation);
  return new Uint8Array(gzipSync(mutate(tar, mutation)));
}

/** Placement policies: `register files`' own, and the extremes; those writing every file to disk cost most. */
const POLICY = fc.oneof(
  { weight: 4, arbitrary: fc.constant("package" as const) },
  { weight: 2, arbitrary: fc.constantFrom("memory" as const, "skip" as const) },
  { weight: 1, arbitrary: fc.constantFrom("disk" as const, "tightBudget" as const) },
);
type Policy = typeof POLICY extends fc.Arbitrary<infer P> ? P : never;

/**
 * The options a case reads with. A big fixture (100 files and more) is not written wholly to disk:
 * at hundreds of milliseconds a case that would only cost time; the small archives cover it.
 */
function readOptions(archive: ArchiveCase, chosen: Policy, tempParent: string): ReadArchiveOptions {
  const tooMany = BIG_FIXTURES.includes(archive.base.name) && (chosen === "disk" || chosen === "tightBudget");
  const policy = tooMany ? "package" : chosen;
  const packagePlacement = (name: string): Placement => {
    const role = memberRole(name).role;
    return role === "entity" ? "memory" : role === "fastSource" ? "disk" : "skip";
  };
  switch (policy) {
    case "package":
      return { placement: packagePlacement, tempParent };
    case "tightBudget":
      return { placement: () => "memory", memoryBudgetBytes: 2000, tempParent };
    default:
      return { placement: () => policy, tempParent };
  }
}

/** What a read gives its callback, in a form to compare; disk files are checked to exist meanwhile. */
async function summary({ entries }: ReadArchive): Promise<string[]> {
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.placement === "disk") assertEquals((await Deno.stat(entry.path)).size, entry.size);
    lines.push(`${entry.name} ${entry.size}`);
  }
  return lines;
}

/** Chunk sizes from 1 byte to 64 KB, mostly small; a delivery cycles through a few of them. */
const CHUNK_SIZES = fc.array(
  fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 1024 }), fc.integer({ min: 1, max: 65536 })),
  { minLength: 1, maxLength: 6 },
);

/** An interruption: an abort after some chunks, with the source then stalling or not. */
const INTERRUPTION = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.record({ afterChunks: fc.nat(64), stall: fc.boolean() }) },
);

/**
 * Checks how a read ended: with entries, or with a one-line {@link OperationError} naming `label`,
 * or with the abort's `reason`; and, given the reading of the same bytes in one piece, the same
 * way. Two errors need not be the same one: the decoder reads a few entries ahead, so the bytes in
 * one piece can fail on a broken header before the entry in front of it is found wrong, the bytes in
 * small chunks the other way round.
 */
function checkEnding(ending: Ending, label: string, reason: Error, expected?: Ending): void {
  if (ending.settled === "rejected" && ending.error !== reason) {
    const error = ending.error;
    assert(error instanceof OperationError, `not an OperationError: ${error}`);
    assert(error.message.includes(JSON.stringify(label)), `does not name the archive: ${error.message}`);
    assert(!error.message.includes("\n"), `more than one line: ${JSON.stringify(error.message)}`);
  }
  if (expected === undefined) return;
  if (expected.settled === "rejected") {
    assertEquals(ending.settled, "rejected", `read whole: ${(expected.error as Error).message}`);
  } else assertEquals(ending, expected);
}

/** A private dir for the reads' temp dirs: after each read it must be empty again. */
async function withTempParent(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-archive-fuzz-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertEmpty(dir: string): void {
  for (const left of Deno.readDirSync(dir)) throw new Error(`temp dir left behind: ${left.name}`);
}

/** Reads of an archive's bytes in one piece: the reference for reads of the same bytes in chunks. */
type WholeRead = (
  archive: ArchiveCase,
  policy: Policy,
  label: string,
  bytes: Uint8Array,
  options: ReadArchiveOptions,
) => Promise<Ending>;

/** A {@link WholeRead} that reads an undamaged fixture once per format and policy (they are the big ones). */
function wholeReads(): WholeRead {
  const known = new Map<string, Promise<Ending>>();
  return (archive, policy, label, bytes, options) => {
    const read = () => {
      const reading = withStreamedArchiveEntries(label, archive.format, deliver(bytes).stream, options, summary);
      return within(HANG_MS, `reading ${label} in one piece`, reading);
    };
    if (archive.mutation.kind !== "none" || !FIXTURE_TARS.has(archive.base.name)) return read();
    const key = `${archive.base.name} ${archive.format} ${policy}`;
    let ending = known.get(key);
    if (ending === undefined) known.set(key, ending = read());
    return ending;
  };
}

Deno.test("a streamed archive, valid or damaged, in chunks of any size, is always read to an end", async () => {
  const wholeRead = wholeReads();
  let cases = 0;
  let interrupted = 0;
  let rejected = 0;
  await withTempParent(async (tempParent) => {
    await checkProperty(
      "archive: streamed reads with random chunking",
      fc.asyncProperty(
        ARCHIVE,
        POLICY,
        CHUNK_SIZES,
        fc.array(fc.nat(3), { minLength: 1, maxLength: 4 }),
        INTERRUPTION,
        async (
          archive,
          policy,
          chunkSizes,
          yields,
          interruption,
        ) => {
          cases++;
          const bytes = await archiveBytes(archive);
          const label = `case-${cases}.${archive.format === "tar" ? "tar" : "tgz"}`;
          const options = readOptions(archive, policy, tempParent);
          const smallest = Math.ceil(bytes.length / MAX_CHUNKS);
          const abort = new AbortController();
          const reason = new Error("interrupted");
          const delivery = deliver(bytes, {
            chunkSizes: chunkSizes.map((size) => Math.max(size, smallest)),
            yields,
            stall: interruption?.stall,
            onPull(delivered, atEnd) {
              if (interruption && (delivered >= interruption.afterChunks || (atEnd && interruption.stall))) {
                abort.abort(reason);
              }
            },
          });
          const read = withStreamedArchiveEntries(
            label,
            archive.format,
            delivery.stream,
            options,
            summary,
            abort.signal,
          );
          const ending = await within(HANG_MS, `reading ${label}`, read);
          if (ending.settled === "rejected") rejected++;
          if (interruption) {
            interrupted++;
            checkEnding(ending, label, reason);
          } else {
            checkEnding(ending, label, reason, await wholeRead(archive, policy, label, bytes, options));
            if (archive.mutation.kind === "none" && archive.base.name.startsWith("valid")) {
              assertEquals(ending.settled, "resolved");
            }
          }
          assertEmpty(tempParent);
        },
      ),
      { numRuns: STREAMED_RUNS, interruptAfterTimeLimit: 120_000 },
    );
  });
  console.log(`streamed archive reads: ${cases} generated cases (${interrupted} interrupted, ${rejected} rejected)`);
  assert(cases >= STREAMED_RUNS);
});

Deno.test("a local archive file, valid or damaged, is always read to an end", async () => {
  const wholeRead = wholeReads();
  let cases = 0;
  let rejected = 0;
  await withTempParent(async (tempParent) => {
    const files = await Deno.makeTempDir({ prefix: "fctl-archive-fuzz-files-" });
    try {
      await checkProperty(
        "archive: local archive files",
        fc.asyncProperty(
          ARCHIVE,
          POLICY,
          fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(3) }),
          async (archive, policy, abortAfterMs) => {
            cases++;
            const bytes = await archiveBytes(archive);
            const path = `${files}/case-${cases}.${archive.format === "tar" ? "tar" : "tgz"}`;
            await Deno.writeFile(path, bytes);
            const options = readOptions(archive, policy, tempParent);
            const abort = new AbortController();
            const reason = new Error("interrupted");
            const timer = abortAfterMs === null ? undefined : setTimeout(() => abort.abort(reason), abortAfterMs);
            try {
              const ending = await within(
                HANG_MS,
                `reading ${path}`,
                withArchiveEntries(path, options, summary, abort.signal),
              );
              assertEmpty(tempParent);
              if (ending.settled === "rejected") rejected++;
              const expected = abort.signal.aborted
                ? undefined
                : await wholeRead(archive, policy, path, bytes, options);
              checkEnding(ending, path, reason, expected);
            } finally {
              clearTimeout(timer);
              await Deno.remove(path);
            }
          },
        ),
        { numRuns: LOCAL_RUNS, interruptAfterTimeLimit: 120_000 },
      );
    } finally {
      await Deno.remove(files, { recursive: true });
    }
  });
  console.log(`local archive reads: ${cases} generated cases (${rejected} rejected)`);
  assert(cases >= LOCAL_RUNS);
});

/**
 * Reading serialized-package archives (`.tar`, `.tar.gz`, `.tgz`).
 *
 * Archives are streamed (file → gunzip → tar decoder), never read whole into memory, but for a small local one
 * (`whole_archive.ts`), which is read whole because that is quicker and its size is bounded. Each regular
 * file goes where the caller says: kept in memory (small files that are decoded anyway), written
 * to a private temp dir (a large fast-registration source, uploaded from disk), or skipped (only
 * its name matters). Entries are checked before anything is kept: only regular files and
 * directories under the archive root are accepted, which closes the "tar slip" hole flytectl has
 * (`../x`, absolute paths, links pointing out).
 *
 * Every read ends, however the bytes arrive (a slow download hands them on in small chunks): with the
 * entries, or with one {@link OperationError} naming the archive when its bytes end early or are
 * damaged, or with the abort's reason. Whatever ends it, the source is cancelled at once (a download
 * is not read on) and the temp dir is removed.
 *
 * @module
 */
import { createTarDecoder, type TarHeader } from "modern-tar";
import { OperationError, quote, UsageError } from "../../errors.ts";
import { RecycledReads } from "./recycled_reads.ts";
import { wholeTarEntries, type WholeTarEntry } from "./whole_archive.ts";

/** One regular file extracted from an archive to disk. */
export interface ExtractedFile {
  /** Path inside the archive, normalized (`./a//b` → `a/b`); what users see in reports. */
  name: string;
  /** Where the bytes are on disk, inside the private temp dir. Valid only inside the callback. */
  path: string;
  /** Size in bytes. */
  size: number;
}

/** The regular files of one archive, in archive order. */
export interface ExtractedArchive {
  /** The archive as the caller named it. */
  archive: string;
  /** Regular files only; directory entries are implied by the names. */
  files: ExtractedFile[];
}

/** Where a regular file's bytes go: into memory, into the private temp dir, or nowhere (name only). */
export type Placement = "memory" | "disk" | "skip";

/** One regular file of an archive read with {@link withArchiveEntries}. */
export type ArchiveEntry =
  /** Held in memory. */
  | { name: string; size: number; placement: "memory"; bytes: Uint8Array }
  /**
   * On disk in the private temp dir; `path` is valid only inside the callback. `md5` is the digest
   * of the bytes, computed as they were written (the source is uploaded with it: no second read).
   */
  | { name: string; size: number; placement: "disk"; path: string; md5: Uint8Array }
  /** Read past; only its name and size are known. */
  | { name: string; size: number; placement: "skip" };

/** The regular files of one archive read with {@link withArchiveEntries}, in archive order. */
export interface ReadArchive {
  /** The archive as the caller named it. */
  archive: string;
  /** Regular files only; directory entries are implied by the names. */
  entries: ArchiveEntry[];
}

/** How {@link withArchiveEntries} places files. */
export interface ReadArchiveOptions {
  /** Decides, from its normalized name and its size, where each regular file goes. */
  placement: (name: string, size: number) => Placement;
  /**
   * Most bytes kept in memory for one archive ({@link DEFAULT_MEMORY_BUDGET_BYTES} unless given):
   * files asked into memory past it go to disk instead, so a package of unusually large entity
   * files costs disk, not RAM, as every file did before files were kept in memory.
   */
  memoryBudgetBytes?: number;
  /** The dir in which the private temp dir (`fctl-register-*`) is made: the system temp dir unless given. */
  tempParent?: string;
}

/** Bytes of one archive kept in memory at most, by default; pyflyte's entity files are a few KiB each. */
const DEFAULT_MEMORY_BUDGET_BYTES = 32 * 1024 * 1024;

/** Archive compression, decided by the file name as flytectl does. */
export type ArchiveFormat = "tar" | "tar.gz";

/** The one message flytectl users know for unsupported archive names. */
export const UNSUPPORTED_ARCHIVE_MESSAGE = "only .tar, .tar.gz and .tgz extension archives are supported";

/** The archive format implied by a path or URL's name, or `undefined` if it is not one we read. */
export function archiveFormat(path: string): ArchiveFormat | undefined {
  // URLs may carry a query string (signed release assets); the extension is on the path part.
  const name = path.replace(/[?#].*$/, "").toLowerCase();
  if (name.endsWith(".tar")) return "tar";
  if (name.endsWith(".tar.gz") || name.endsWith(".tgz")) return "tar.gz";
  return undefined;
}

/**
 * Extracts the archive at `path` into a fresh temp dir, calls `fn` with its files, and removes
 * the temp dir afterwards whether `fn` succeeds or throws.
 *
 * @throws {UsageError} the name has an unsupported extension, or the file does not exist or is not a regular file
 * @throws {OperationError} the archive is corrupt or has an entry that is unsafe to extract
 */
export async function withExtractedArchive<T>(
  path: string,
  fn: (archive: ExtractedArchive) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return await withArchiveEntries(path, ALL_ON_DISK, (read) => fn(onDisk(read)), signal);
}

const ALL_ON_DISK: ReadArchiveOptions = { placement: () => "disk" };

function onDisk(read: ReadArchive): ExtractedArchive {
  const files = read.entries.map((entry) => {
    if (entry.placement !== "disk") throw new Error(`${entry.name} was not extracted to disk`);
    return { name: entry.name, path: entry.path, size: entry.size };
  });
  return { archive: read.archive, files };
}

/**
 * Reads the archive at `path`, placing each regular file as `options.placement` says, calls `fn`
 * with the entries, and removes the temp dir (created only if a file goes to disk) afterwards
 * whether `fn` succeeds or throws.
 *
 * @throws {UsageError} the name has an unsupported extension, or the file does not exist or is not a regular file
 * @throws {OperationError} the archive is corrupt or has an entry that is unsafe to extract
 */
export async function withArchiveEntries<T>(
  path: string,
  options: ReadArchiveOptions,
  fn: (archive: ReadArchive) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const format = archiveFormat(path);
  if (format === undefined) throw new UsageError(`${UNSUPPORTED_ARCHIVE_MESSAGE}: ${quote(path)}`);
  let file: Deno.FsFile;
  let info: Deno.FileInfo;
  try {
    // A regular file only: opening a FIFO waits for a writer forever, and a device (`/dev/zero`) never ends.
    info = await Deno.stat(path);
    if (!info.isFile) throw new UsageError(`archive ${quote(path)} is not a regular file`);
  } catch (err) {
    throw openError(path, err);
  }
  // A small archive is read whole (much quicker than streaming it); anything this cannot read cleanly is streamed.
  const whole = await readSmallArchive(path, info.size, format, options, signal);
  if (whole !== undefined) return await withEntries(path, options, () => Promise.resolve(whole), fn);
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    throw openError(path, err);
  }
  return await withEntries(path, options, async (tempDir) => {
    // Read through recycled buffers: the archive's bytes cost the same memory whatever its size.
    using reads = new RecycledReads(file);
    const bytes = format === "tar.gz" ? reads.gunzipped() : reads.readable();
    const consumed = (view: Uint8Array) => reads.freeBefore(view);
    return await readEntries(tempDir, path, format, { bytes, consumed }, options, signal);
  }, fn);
}

/** Largest archive file read whole; a larger one is streamed. */
const WHOLE_ARCHIVE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The entries of the local archive at `path` (`size` bytes, as stat said) read whole, every file held in memory or
 * skipped; or `undefined` when it is for the streaming read: too large, inflating too far, a file that must go to
 * disk, or anything wrong (which the streaming read then words as it always has, so both reads check and place alike).
 *
 * @throws the abort's reason when `signal` aborted
 */
async function readSmallArchive(
  path: string,
  size: number,
  format: ArchiveFormat,
  options: ReadArchiveOptions,
  signal: AbortSignal | undefined,
): Promise<ArchiveEntry[] | undefined> {
  if (size > WHOLE_ARCHIVE_MAX_BYTES) return undefined;
  try {
    const files = await wholeTarEntries(await Deno.readFile(path, { signal }), format === "tar.gz");
    signal?.throwIfAborted();
    return files && entriesInMemory(path, files, options);
  } catch {
    if (signal?.aborted) throw signal.reason;
    return undefined;
  }
}

/** The regular files of a tar read whole, placed as {@link readEntries} places them; `undefined` if one goes to disk. */
function entriesInMemory(
  label: string,
  files: WholeTarEntry[],
  options: ReadArchiveOptions,
): ArchiveEntry[] | undefined {
  const entries: ArchiveEntry[] = [];
  const seen = new Set<string>();
  let memoryLeft = options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  for (const { header, data } of files) {
    const name = safeEntryName(label, header as TarHeader);
    if (header.type === "directory" || name === undefined) continue;
    // A duplicate is an error, which the streaming read words.
    if (seen.has(name) || data === undefined || data.length !== header.size) return undefined;
    seen.add(name);
    const size = header.size;
    let placement = options.placement(name, size);
    if (placement === "memory" && size > memoryLeft) placement = "disk";
    if (placement === "disk") return undefined;
    if (placement === "memory") {
      memoryLeft -= size;
      entries.push({ name, size, placement, bytes: data });
    } else {
      entries.push({ name, size, placement });
    }
  }
  return entries;
}

/** What failing to stat or open a local archive is: a usage error, or one naming the archive. */
function openError(path: string, err: unknown): Error {
  if (err instanceof UsageError) return err;
  if (err instanceof Deno.errors.NotFound) return new UsageError(`archive ${quote(path)} not found`, { cause: err });
  return new OperationError(`cannot open archive ${quote(path)}: ${(err as Error).message}`, { cause: err });
}

/**
 * Like {@link withArchiveEntries} for bytes that arrive as a stream (e.g. an HTTP download).
 * `label` names the archive in messages and in {@link ReadArchive.archive}.
 */
export async function withStreamedArchiveEntries<T>(
  label: string,
  format: ArchiveFormat,
  source: ReadableStream<Uint8Array>,
  options: ReadArchiveOptions,
  fn: (archive: ReadArchive) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const bytes = format === "tar.gz" ? gunzip(source) : source;
  return await withEntries(
    label,
    options,
    (tempDir) => readEntries(tempDir, label, format, { bytes, mayNotEnd: true }, options, signal),
    fn,
  );
}

/** Reads the entries, calls `fn` with them, and removes the temp dir afterwards, whatever happens. */
async function withEntries<T>(
  label: string,
  { tempParent }: ReadArchiveOptions,
  read: (tempDir: TempDir) => Promise<ArchiveEntry[]>,
  fn: (archive: ReadArchive) => Promise<T>,
): Promise<T> {
  const tempDir = new TempDir(tempParent);
  try {
    const entries = await read(tempDir);
    return await fn({ archive: label, entries });
  } finally {
    await tempDir.remove();
  }
}

/** A tar archive's bytes, and who to tell once a view of them is no longer needed. */
interface TarBytes {
  bytes: ReadableStream<Uint8Array>;
  /** Called once each view of `bytes` that reached an entry's body has been copied or written. */
  consumed?: (view: Uint8Array) => void;
  /**
   * `bytes` may never end (a download): a run of zero bytes longer than {@link ZERO_RUN_MAX_BYTES} ends the read.
   */
  mayNotEnd?: boolean;
}

/**
 * The longest run of zero bytes a streamed archive is read through. A tar ends at two zero blocks, but the decoder
 * reads on until its source ends, checking that only zeros follow (its padding, a few KiB): a server that sends zeros
 * without end after a whole archive (or a gzip that inflates to them) would hold the registration for ever. A run this
 * long is no archive's padding, nor any package member's content (its source is gzipped): the read ends there, as at
 * the source's end (cleanly after the archive's end; truncated within it).
 */
const ZERO_RUN_MAX_BYTES = 64 * 1024 * 1024;

/** The private temp dir, made on first use: a package read wholly into memory never touches disk. */
class TempDir {
  readonly #parent?: string;
  #path?: Promise<string>;

  constructor(parent: string | undefined) {
    this.#parent = parent;
  }

  /** The dir's path, creating it the first time. */
  path(): Promise<string> {
    // The pid in the name lets main.ts remove this process's dirs on a forced exit (a second Ctrl-C).
    return this.#path ??= Deno.makeTempDir({ dir: this.#parent, prefix: `fctl-register-${Deno.pid}-` }).catch((err) => {
      // Said as what it is, not as a bad archive: in a container this is where TMPDIR must point.
      const where = this.#parent === undefined ? "the temp dir (TMPDIR)" : quote(this.#parent);
      throw new OperationError(`cannot create a private dir in ${where}: ${(err as Error).message}`, { cause: err });
    });
  }

  async remove(): Promise<void> {
    if (this.#path === undefined) return;
    // A failed creation left nothing to remove; its error has been thrown where it happened.
    const path = await this.#path.catch(() => undefined);
    if (path !== undefined) await Deno.remove(path, { recursive: true });
  }
}

async function readEntries(
  tempDir: TempDir,
  label: string,
  format: ArchiveFormat,
  { bytes, consumed = () => {}, mayNotEnd = false }: TarBytes,
  options: ReadArchiveOptions,
  signal: AbortSignal | undefined,
): Promise<ArchiveEntry[]> {
  // strict: a text file fed to a lenient decoder can come out as an "archive" of garbage names.
  const decoder = createTarDecoder({ strict: true });
  // The pipe ends when reading does, however it ends: the source (a download, a file) is cancelled at
  // once, not read on to its end or left waiting on a server that stalls. The caller's abort ends it
  // too, and the decoder then fails the entry body being read, so a read in progress ends with it.
  const stop = new AbortController();
  const source = mayNotEnd ? bytes.pipeThrough(endingAfterZeros(ZERO_RUN_MAX_BYTES)) : bytes;
  const piped = source.pipeTo(decoder.writable, {
    signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
  });
  // Its failure is not lost: the decoder is aborted with the same error, which the entries then carry.
  piped.catch(() => {});
  const entries: ArchiveEntry[] = [];
  const seen = new Set<string>();
  let memoryLeft = options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  try {
    for await (const entry of decoder.readable) {
      const name = safeEntryName(label, entry.header);
      if (entry.header.type === "directory" || name === undefined) {
        // Directories are implied by the files' names; nothing to create.
        await drain(entry.body, consumed);
        continue;
      }
      if (seen.has(name)) throw new OperationError(`archive ${quote(label)} contains ${quote(name)} more than once`);
      seen.add(name);
      const size = entry.header.size;
      let placement = options.placement(name, size);
      if (placement === "memory" && size > memoryLeft) placement = "disk";
      switch (placement) {
        case "memory":
          memoryLeft -= size;
          entries.push({ name, size, placement, bytes: await readAll(entry.body, size, consumed) });
          break;
        case "disk": {
          // Loaded here, as node:crypto is: the first Node built-in a process loads costs it about 10 ms, which a
          // package read wholly into memory (a dry run's, say) does without.
          const { dirname, join } = await import("node:path");
          const path = join(await tempDir.path(), ...name.split("/"));
          await Deno.mkdir(dirname(path), { recursive: true });
          // createNew: never follow or overwrite anything already there.
          const md5 = await writeFile(entry.body, path, consumed);
          entries.push({ name, size, placement, path, md5 });
          break;
        }
        case "skip":
          await drain(entry.body, consumed);
          entries.push({ name, size, placement });
          break;
      }
    }
  } catch (err) {
    // An abort wins: the bytes may have failed in the decoder first, but the user asked to stop.
    if (signal?.aborted) throw signal.reason;
    if (err instanceof OperationError) throw err;
    const what = format === "tar.gz" ? "gzip-compressed tar archive" : "tar archive";
    throw new OperationError(`${quote(label)} is not a valid ${what}: ${(err as Error).message}`, { cause: err });
  } finally {
    stop.abort();
  }
  return entries;
}

/**
 * Reads an unwanted entry's body to its end. Never `cancel()` it: modern-tar 0.8.6's body streams
 * share one slot for "the body being fed", and cancelling a body the decoder has already finished
 * feeding (its last bytes still queued) empties that slot while it holds the *next* entry's body,
 * which is then never fed, closed or failed: reading it waits forever. Reading is what the decoder
 * would do anyway (skipping still walks every byte), and the views it hands on cost no copy.
 */
async function drain(body: ReadableStream<Uint8Array>, consumed: (view: Uint8Array) => void): Promise<void> {
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) consumed(read.value);
}

/**
 * Writes an entry's body to a new file at `path`, never following or overwriting anything already
 * there; returns the MD5 of the bytes, taken on the way (the source is uploaded with it: no second read).
 */
async function writeFile(
  body: ReadableStream<Uint8Array>,
  path: string,
  consumed: (view: Uint8Array) => void,
): Promise<Uint8Array> {
  using out = await Deno.open(path, { write: true, createNew: true });
  // Loaded here, for the entries that go to disk: a dry run of a package whose source fits in memory hashes nothing.
  const { createHash } = await import("node:crypto");
  const hash = createHash("md5");
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    hash.update(chunk);
    for (let written = 0; written < chunk.length;) written += await out.write(chunk.subarray(written));
    consumed(chunk);
  }
  return new Uint8Array(hash.digest());
}

/** The whole body of an entry whose header says it has `size` bytes. */
async function readAll(
  body: ReadableStream<Uint8Array>,
  size: number,
  consumed: (view: Uint8Array) => void,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let filled = 0;
  // A reader read to the end and then dropped, not released: releasing one (as `for await` does)
  // builds an error with a stack trace, which for a package of small files is most of the cost.
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    // The decoder enforces the header's size; this guards the copy, not the format. No cancel() (see
    // drain): throwing ends the read, and with it the decoder and the source.
    if (filled + chunk.length > size) throw new Error(`entry is longer than its header's ${size} bytes`);
    bytes.set(chunk, filled);
    filled += chunk.length;
    consumed(chunk);
  }
  if (filled !== size) throw new Error(`entry is shorter than its header's ${size} bytes`);
  return bytes;
}

/** A stream that passes its chunks on, and ends (cleanly) once they end in a run of zeros longer than `max` bytes. */
function endingAfterZeros(max: number): TransformStream<Uint8Array, Uint8Array> {
  let zeros = 0;
  return new TransformStream({
    transform(chunk, controller) {
      let end = chunk.length;
      while (end > 0 && chunk[end - 1] === 0) end--;
      zeros = end === 0 ? zeros + chunk.length : chunk.length - end;
      controller.enqueue(chunk);
      if (zeros > max) controller.terminate();
    },
  });
}

function gunzip(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  // DecompressionStream is typed as taking any BufferSource; a Uint8Array is one, TS just can't see it.
  const { readable, writable } = new DecompressionStream("gzip");
  return source.pipeThrough({ readable, writable: writable as WritableStream<Uint8Array> });
}

/**
 * The normalized archive-relative name of a regular file or directory entry, or `undefined`
 * for the archive root itself (pyflyte writes a `/` or `./` directory entry).
 *
 * @throws {OperationError} for links, devices, FIFOs, absolute names and `..` segments
 */
export function safeEntryName(label: string, header: TarHeader): string | undefined {
  const type = header.type ?? "file";
  const raw = header.name;
  const unsafe = (why: string) =>
    new OperationError(`archive ${quote(label)} has an unsafe entry ${quote(raw)}: ${why}`);
  if (type !== "file" && type !== "directory") {
    throw unsafe(`${type} entries are not allowed, only regular files and directories`);
  }
  // Backslashes are path separators on Windows, so treat them as such everywhere.
  const segments = raw.split(/[\\/]/);
  const isRoot = segments.every((s) => s === "" || s === ".");
  if (isRoot && type === "directory") return undefined;
  if (/^([\\/]|[A-Za-z]:)/.test(raw)) throw unsafe("absolute paths are not allowed");
  if (segments.includes("..")) throw unsafe("'..' path segments are not allowed");
  const parts = segments.filter((s) => s !== "" && s !== ".");
  if (parts.length === 0) throw unsafe("empty file name");
  return parts.join("/");
}

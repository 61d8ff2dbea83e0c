/**
 * Reading serialized-package archives (`.tar`, `.tar.gz`, `.tgz`) into a private temp dir.
 *
 * Archives are streamed (file → gunzip → tar decoder → file), never held in memory, so a large
 * fast-registration source inside a package costs disk, not RAM. Entries are checked before
 * anything is written: only regular files and directories under the archive root are accepted,
 * which closes the "tar slip" hole flytectl has (`../x`, absolute paths, links pointing out).
 *
 * @module
 */
import { createTarDecoder, type TarHeader } from "modern-tar";
import { dirname, join } from "node:path";
import { OperationError, quote, UsageError } from "../errors.ts";

/** One regular file extracted from an archive. */
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
 * @throws {UsageError} the name has an unsupported extension or the file does not exist
 * @throws {OperationError} the archive is corrupt or has an entry that is unsafe to extract
 */
export async function withExtractedArchive<T>(
  path: string,
  fn: (archive: ExtractedArchive) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const format = archiveFormat(path);
  if (format === undefined) throw new UsageError(`${UNSUPPORTED_ARCHIVE_MESSAGE}: ${quote(path)}`);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) throw new UsageError(`archive ${quote(path)} not found`, { cause: err });
    throw new OperationError(`cannot open archive ${quote(path)}: ${(err as Error).message}`, { cause: err });
  }
  // The stream owns the file handle from here: it is closed when the stream ends or is cancelled.
  return await withExtractedStream(path, format, file.readable, fn, signal);
}

/**
 * Like {@link withExtractedArchive} for bytes that arrive as a stream (e.g. an HTTP download).
 * `label` names the archive in messages and in {@link ExtractedArchive.archive}.
 */
export async function withExtractedStream<T>(
  label: string,
  format: ArchiveFormat,
  source: ReadableStream<Uint8Array>,
  fn: (archive: ExtractedArchive) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-" });
  try {
    const files = await extractInto(dir, label, format, source, signal);
    return await fn({ archive: label, files });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function extractInto(
  dir: string,
  label: string,
  format: ArchiveFormat,
  source: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<ExtractedFile[]> {
  const bytes = format === "tar.gz" ? gunzip(source) : source;
  // strict: a text file fed to a lenient decoder can come out as an "archive" of garbage names.
  const entries = bytes.pipeThrough(createTarDecoder({ strict: true }), { signal });
  const files: ExtractedFile[] = [];
  const seen = new Set<string>();
  try {
    for await (const entry of entries) {
      const name = safeEntryName(label, entry.header);
      if (entry.header.type === "directory" || name === undefined) {
        // Directories are implied by the files written below; nothing to create.
        await entry.body.cancel();
        continue;
      }
      if (seen.has(name)) throw new OperationError(`archive ${quote(label)} contains ${quote(name)} more than once`);
      seen.add(name);
      const path = join(dir, ...name.split("/"));
      await Deno.mkdir(dirname(path), { recursive: true });
      // createNew: never follow or overwrite anything already there.
      const out = await Deno.open(path, { write: true, createNew: true });
      await entry.body.pipeTo(out.writable);
      files.push({ name, path, size: entry.header.size });
    }
  } catch (err) {
    if (err instanceof OperationError || signal?.aborted) throw err;
    const what = format === "tar.gz" ? "gzip-compressed tar archive" : "tar archive";
    throw new OperationError(`${quote(label)} is not a valid ${what}: ${(err as Error).message}`, { cause: err });
  }
  return files;
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

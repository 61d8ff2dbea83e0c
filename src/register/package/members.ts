/**
 * Turning the `register files` arguments into package members.
 *
 * Entity files inside archives are kept in memory (they are small and decoding needs all their
 * bytes anyway), and so is a fast-registration source of up to {@link SOURCE_IN_MEMORY_MAX_BYTES}
 * (most are a few hundred KB): a typical package never touches disk. A larger source, which can be
 * hundreds of MB, is written to a private temp dir, for the duration of a callback only, so every
 * temp dir is gone when registration ends, however it ends.
 *
 * @module
 */
import {
  type ArchiveEntry,
  archiveFormat,
  type Placement,
  type ReadArchive,
  type ReadArchiveOptions,
  withArchiveEntries,
} from "./archive.ts";
import { type DownloadDeps, isStorageReference, isUrl, withDownloadedArchive, withStoredArchive } from "./download.ts";
import { memberRole } from "../member_role.ts";
import { shownUrl } from "../../log/shown_url.ts";
import type { FileDigest } from "../upload.ts";
import { OperationError, quote, UsageError } from "../../errors.ts";
import { formatLimit } from "../../fs/read_bounded.ts";

export type { DownloadDeps, DownloadProgress } from "./download.ts";

/** Largest fast-registration source kept in memory by default; a larger one is streamed to disk. */
const SOURCE_IN_MEMORY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How package members are read; all optional.
 *
 * ```ts
 * import { connect, type PackageReadDeps, registerFiles } from "@fctl/fctl";
 *
 * // Keep sources up to 64 MiB in memory instead of spooling them to a temporary file.
 * const reading: PackageReadDeps = { sourceInMemoryMaxBytes: 64 * 1024 * 1024 };
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "p", domain: "d", version: "v1" };
 * await registerFiles(flyte.client, options, undefined, reading);
 * ```
 */
export interface PackageReadDeps extends DownloadDeps {
  /** Largest fast-registration source kept in memory (default {@link SOURCE_IN_MEMORY_MAX_BYTES}). */
  sourceInMemoryMaxBytes?: number;
}

/** A file taking part in a registration, with its bytes in memory, on disk, or (if unneeded) neither. */
export type PackageMember = MemberInMemory | MemberOnDisk | MemberNameOnly;

/** What every {@link PackageMember} has. */
export interface MemberBase {
  /** As the user knows it: the path given, or the name inside the archive. */
  name: string;
  /**
   * Named by the user directly (not found inside an archive): such a file is decoded whatever its
   * name, as flytectl does, while unexpected archive members are reported instead.
   */
  explicit: boolean;
}

/** An entity file, or a small fast-registration source, from an archive, held in memory. */
export interface MemberInMemory extends MemberBase {
  /** The whole file. */
  bytes: Uint8Array;
  /** Not on disk. */
  path?: never;
  /** Not taken on the way: hashing bytes in memory is done when needed. */
  digest?: never;
}

/** A file named directly, an archive's large fast-registration source, or an entity file past the memory budget. */
export interface MemberOnDisk extends MemberBase {
  /** Where to read it (inside the private temp dir for archive members, valid only inside the callback). */
  path: string;
  /** MD5 and size of the file, when taken on the way to disk (archive members). */
  digest?: FileDigest;
  /** Not in memory. */
  bytes?: never;
}

/**
 * An archive member whose bytes are not needed: neither an entity nor the source (only its name is reported),
 * or the source of a registration that uploads nothing (a dry run).
 */
export interface MemberNameOnly extends MemberBase {
  /** Not kept. */
  bytes?: never;
  /** Not kept. */
  path?: never;
}

/** What a registration needs of its package's members besides their names. */
export interface MemberNeeds {
  /**
   * Keep the fast-registration source's bytes. A registration that uploads nothing (a dry run) needs only its
   * name: the archive's source is then read past, never written to disk nor hashed, whatever its size.
   */
  sourceBytes: boolean;
}

/**
 * Largest entity file (`.pb`) an archive may hold: each is read whole and decoded, and sent in one gRPC message, which
 * FlyteAdmin refuses past 4 MiB by default. Its header says its size, so a larger one (a few KiB of gzip inflate to
 * gigabytes) is refused before a byte of it is read.
 */
const ENTITY_FILE_MAX_BYTES = 32 * 1024 * 1024;

/** Most bytes of entity files one archive may hold: every one of them is read and decoded, and kept until the end. */
const ENTITY_FILES_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Where the members of the archive `label` put their bytes, decided by their names and sizes and by what the
 * registration needs; made for each archive (it counts the entity files' bytes).
 *
 * @throws {OperationError} from `placement`: an entity file over {@link ENTITY_FILE_MAX_BYTES}, or the archive's
 *   entity files over {@link ENTITY_FILES_MAX_BYTES} in all
 */
function readOptions(label: string, sourceInMemoryMaxBytes: number, needs: MemberNeeds): ReadArchiveOptions {
  let entityBytes = 0;
  return {
    placement(name: string, size: number): Placement {
      switch (memberRole(name).role) {
        case "entity":
          if (size > ENTITY_FILE_MAX_BYTES) {
            throw new OperationError(
              `archive ${quote(label)} holds ${quote(name)}, an entity file of ${formatLimit(size)}: an entity ` +
                `file may be at most ${formatLimit(ENTITY_FILE_MAX_BYTES)}`,
            );
          }
          entityBytes += size;
          if (entityBytes > ENTITY_FILES_MAX_BYTES) {
            throw new OperationError(
              `archive ${quote(label)} holds more than ${formatLimit(ENTITY_FILES_MAX_BYTES)} of entity files ` +
                `(at ${quote(name)}): a package's entity files may be at most that much in all`,
            );
          }
          return "memory";
        case "fastSource":
          if (!needs.sourceBytes) return "skip";
          return size <= sourceInMemoryMaxBytes ? "memory" : "disk";
        case "other":
          return "skip";
      }
    },
  };
}

function toMember(entry: ArchiveEntry): PackageMember {
  switch (entry.placement) {
    case "memory":
      return { name: entry.name, bytes: entry.bytes, explicit: false };
    case "disk":
      return { name: entry.name, path: entry.path, digest: { md5: entry.md5, size: entry.size }, explicit: false };
    case "skip":
      return { name: entry.name, explicit: false };
  }
}

/**
 * Calls `fn` with the members of `paths`: the files themselves, or with `archive` the regular
 * files inside each archive, with the bytes `needs` asks for. Temp dirs are removed when `fn` settles.
 *
 * @throws {UsageError} a path does not exist, is a directory, or is a package archive without `archive`
 * @throws {OperationError} an archive holds no entity file (`.pb`), see {@link requireEntities}
 */
export async function withPackageMembers<T>(
  paths: readonly string[],
  archive: boolean,
  fn: (members: PackageMember[]) => Promise<T>,
  signal?: AbortSignal,
  deps: PackageReadDeps = {},
  needs: MemberNeeds = { sourceBytes: true },
): Promise<T> {
  if (!archive) {
    const members: PackageMember[] = [];
    for (const path of paths) {
      await requireFile(path);
      // A fast-registration source is given like this when the user passes `_pb_output/*`.
      if (archiveFormat(path) !== undefined && memberRole(path).role !== "fastSource") {
        throw new UsageError(`${quote(path)} is an archive; pass --archive to register the files in it`);
      }
      members.push({ name: path, path, explicit: true });
    }
    return await fn(members);
  }
  const inMemoryMax = deps.sourceInMemoryMaxBytes ?? SOURCE_IN_MEMORY_MAX_BYTES;
  // Nest one extraction per archive so all are available at once (a package's entities may be split
  // across archives) and each temp dir is cleaned up by its own try/finally.
  const extract = async (index: number, members: PackageMember[]): Promise<T> => {
    if (index === paths.length) return await fn(members);
    signal?.throwIfAborted();
    const path = paths[index];
    const options = readOptions(isUrl(path) ? shownUrl(path) : path, inMemoryMax, needs);
    const next = async (read: ReadArchive) => {
      requireEntities(path, read);
      return await extract(index + 1, [...members, ...read.entries.map(toMember)]);
    };
    if (isUrl(path)) return await withDownloadedArchive(path, options, next, signal, deps);
    if (isStorageReference(path)) return await withStoredArchive(path, options, next, signal, deps);
    return await withArchiveEntries(path, options, next, signal);
  };
  return await extract(0, []);
}

/**
 * Refuses an archive that holds no entity file: an empty tar (all zero blocks), only directories, or only files
 * that are not `.pb`. Registering nothing from it would look like success; it is a wrong or broken package.
 *
 * @throws {OperationError} naming the archive (a URL without its query) and what it holds instead
 */
function requireEntities(path: string, read: ReadArchive): void {
  if (read.entries.some((entry) => memberRole(entry.name).role === "entity")) return;
  const label = isUrl(path) ? shownUrl(path) : path;
  const count = read.entries.length;
  const held = count === 0
    ? "it holds no files"
    : `it holds ${count} ${count === 1 ? "file" : "files"}, none of them a .pb (${
      read.entries.slice(0, 3).map((entry) => quote(entry.name)).join(", ")
    }${count > 3 ? ", …" : ""})`;
  throw new OperationError(`archive ${quote(label)} has no entity to register (serialized .pb files): ${held}`);
}

async function requireFile(path: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) throw new UsageError(`file ${quote(path)} not found`, { cause: err });
    throw err;
  }
  if (!info.isFile) throw new UsageError(`${quote(path)} is not a file`);
}

/** An entity member's bytes: in memory for archive members, else read from disk. */
export async function readMemberBytes(member: PackageMember): Promise<Uint8Array> {
  if (member.bytes !== undefined) return member.bytes;
  // Archive members are kept in memory or on disk by their role, so a role-less member never gets here.
  if (member.path === undefined) throw new Error(`${quote(member.name)} was not kept`);
  return await Deno.readFile(member.path);
}

/**
 * Turning the `register files` arguments into package members on disk.
 *
 * Archives are extracted for the duration of a callback only, so every temp dir is gone when
 * registration ends, however it ends.
 *
 * @module
 */
import { archiveFormat, withExtractedArchive } from "./archive.ts";
import { memberRole } from "./classify.ts";
import { quote, UsageError } from "../errors.ts";

/** A file taking part in a registration. */
export interface PackageMember {
  /** As the user knows it: the path given, or the name inside the archive. */
  name: string;
  /** Where to read it (inside a temp dir for archive members). */
  path: string;
  /**
   * Named by the user directly (not found inside an archive): such a file is decoded whatever its
   * name, as flytectl does, while unexpected archive members are reported instead.
   */
  explicit: boolean;
}

/**
 * Calls `fn` with the members of `paths`: the files themselves, or with `archive` the regular
 * files inside each archive. Temp dirs are removed when `fn` settles.
 *
 * @throws {UsageError} a path does not exist, is a directory, or is a package archive without `archive`
 */
export async function withPackageMembers<T>(
  paths: readonly string[],
  archive: boolean,
  fn: (members: PackageMember[]) => Promise<T>,
  signal?: AbortSignal,
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
  // Nest one extraction per archive so all are on disk at once (a package's entities may be split
  // across archives) and each is cleaned up by its own try/finally.
  const extract = async (index: number, members: PackageMember[]): Promise<T> => {
    if (index === paths.length) return await fn(members);
    signal?.throwIfAborted();
    return await withExtractedArchive(paths[index], async (extracted) => {
      const found = extracted.files.map((f) => ({ name: f.name, path: f.path, explicit: false }));
      return await extract(index + 1, [...members, ...found]);
    }, signal);
  };
  return await extract(0, []);
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

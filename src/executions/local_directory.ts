/**
 * A local directory given as a directory (multipart blob) input, read before anything is uploaded: every regular
 * file under it, its path relative to the directory, its MD5 and size, and a name for the whole (a hash of the
 * paths and MD5s) that the files are uploaded under. Links are not followed out of the directory, nor into
 * directories; an empty directory, and names no storage URL can carry, are refused. Every refusal is one line
 * naming the input and the path.
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";
import { md5File } from "../register/upload.ts";
import { forEachBounded } from "./bounded_work.ts";

/** A regular file under the directory. */
export interface DirectoryFile {
  /** Its path on disk (through a link when it is one). */
  path: string;
  /** Its path relative to the directory, `/`-separated: its key under the uploaded prefix. */
  relative: string;
  /** MD5 of its bytes. */
  md5: Uint8Array;
  /** Its size in bytes. */
  size: number;
}

/** A directory read for upload. */
export interface LocalDirectory {
  /** The directory as given. */
  path: string;
  /** Its regular files, by relative path. */
  files: DirectoryFile[];
  /** A hash of every file's relative path and MD5 (32 hex digits): the same files, names and bytes, the same prefix. */
  root: string;
}

/** Files hashed at a time: reading is bound by the disk, and the machine may have few cores. */
const HASH_CONCURRENCY = 4;

/**
 * Characters a storage URL cannot carry in a key: FlyteAdmin's data proxy reads the name as a URL (`?` starts a
 * query, `#` a fragment, `%` an escape) and refuses control characters.
 */
// deno-lint-ignore no-control-regex -- control characters are what it finds
const UNSENDABLE_NAME = /[?#%\u0000-\u001f\u007f]/;

/**
 * Lists and hashes `dir` for the input at `input` (`inputs.images`).
 *
 * @throws {UsageError} the directory cannot be read, holds no regular file, or holds a link leaving it, a link to
 *   a directory, something neither file nor directory, or a name a storage URL cannot carry
 */
export async function readLocalDirectory(input: string, dir: string, signal?: AbortSignal): Promise<LocalDirectory> {
  const refuse = (path: string, why: string) => new UsageError(`${input}: cannot upload ${quote(path)}: ${why}`);
  let realRoot: string;
  try {
    realRoot = await Deno.realPath(dir);
  } catch (err) {
    throw refuse(dir, reasonOf(err));
  }
  const inside = (real: string) =>
    real === realRoot || real.startsWith(realRoot.endsWith("/") ? realRoot : `${realRoot}/`);
  const found: { path: string; relative: string }[] = [];
  // Depth first without recursion: a deep tree costs no stack.
  const pending: { path: string; relative: string }[] = [{ path: dir, relative: "" }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    signal?.throwIfAborted();
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(next.path)) entries.push(entry);
    } catch (err) {
      throw refuse(next.path, reasonOf(err));
    }
    for (const entry of entries) {
      const path = `${next.path.replace(/\/+$/, "")}/${entry.name}`;
      const relative = next.relative === "" ? entry.name : `${next.relative}/${entry.name}`;
      if (UNSENDABLE_NAME.test(entry.name)) {
        throw refuse(path, "a name with ?, #, % or a control character cannot be part of a storage URL; rename it");
      }
      if (entry.isDirectory) pending.push({ path, relative });
      else if (entry.isFile) found.push({ path, relative });
      else if (entry.isSymlink) {
        await checkLink(path, inside, refuse);
        found.push({ path, relative });
      } else {
        throw refuse(path, "it is not a regular file or directory (a socket, pipe or device); remove it");
      }
    }
  }
  if (found.length === 0) {
    throw refuse(
      dir,
      "the directory holds no files, and storage keeps no empty directories; add a file or give a remote URI",
    );
  }
  found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  const files: DirectoryFile[] = found.map((file) => ({ ...file, md5: new Uint8Array(), size: 0 }));
  await forEachBounded(files, HASH_CONCURRENCY, async (file, stop) => {
    try {
      Object.assign(file, await md5File(file.path, stop));
    } catch (err) {
      if (stop.aborted) throw err;
      throw refuse(file.path, reasonOf(err));
    }
  }, signal);
  return { path: dir, files, root: await rootName(files) };
}

/** A link is followed only to a regular file inside the directory: never out of it, nor into a directory (loops). */
async function checkLink(
  path: string,
  inside: (real: string) => boolean,
  refuse: (path: string, why: string) => UsageError,
): Promise<void> {
  let target: string;
  try {
    target = await Deno.realPath(path);
  } catch {
    throw refuse(path, "it is a symbolic link to nothing; remove it");
  }
  if (!inside(target)) {
    throw refuse(
      path,
      `it is a symbolic link to ${quote(target)}, outside the directory, and links are not followed out of it; ` +
        "copy the file in or remove the link",
    );
  }
  if (!(await Deno.stat(target)).isFile) {
    throw refuse(path, "it is a symbolic link to a directory, and links to directories are not followed; remove it");
  }
}

/** The prefix's name: the same files (names and bytes) always go to the same place, so a retry rewrites them. */
async function rootName(files: DirectoryFile[]): Promise<string> {
  const encoder = new TextEncoder();
  const parts = files.flatMap((file) => [encoder.encode(file.relative), new Uint8Array(1), file.md5]);
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", whole));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function reasonOf(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "no such file or directory";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  return err instanceof Error ? err.message : String(err);
}

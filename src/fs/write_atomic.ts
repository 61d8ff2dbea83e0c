/**
 * Writing a file the user asked for safely: never half-written (a temp file beside it, then a rename),
 * never readable by others (mode 0600 whatever the umask), never an existing file replaced unless asked.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** {@link writeFileAtomic} was not to replace a file, and one exists at that path. */
export class FileExistsError extends Error {
  /** The path that exists. */
  readonly path: string;
  /** The error for `path`. */
  constructor(path: string) {
    super(`${path} already exists`);
    this.name = "FileExistsError";
    this.path = path;
  }
}

/** How {@link writeFileAtomic} treats an existing file. */
export interface WriteAtomicOptions {
  /** Replace a file that exists; without it, an existing file fails with {@link FileExistsError}. */
  replace: boolean;
  /** Create missing parent directories (mode 0700). */
  createParents?: boolean;
}

/**
 * Writes `text` to `path` with mode 0600: a temp file in the same directory (so the rename is atomic),
 * removed again if anything fails, so `path` either keeps its old content or gets the whole new one.
 *
 * @throws {FileExistsError} `path` exists and `replace` is false
 */
export async function writeFileAtomic(path: string, text: string, options: WriteAtomicOptions): Promise<void> {
  if (options.createParents) await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  if (!options.replace) {
    try {
      await Deno.lstat(path);
      throw new FileExistsError(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  // A random name, so concurrent writers never share a temp file; the file's own name cut short, so that the temp
  // file's stays within the 255 bytes a name may have when the file's is near that limit.
  const temp = join(dirname(path), `.${basename(path).slice(0, 64)}.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    await Deno.chmod(temp, 0o600); // the umask may have taken bits away; it must not leave more than 0600
    if (!options.replace) {
      // A hard link fails if `path` appeared meanwhile, where a rename would replace it.
      await Deno.link(temp, path);
      await Deno.remove(temp);
    } else {
      await Deno.rename(temp, path);
    }
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    throw err instanceof Deno.errors.AlreadyExists ? new FileExistsError(path) : err;
  }
}

/**
 * The one way fctl reads a small text file a user names (config, client secret, CA, token cache): regular
 * files only, and never more than a cap. A FIFO would block the read forever and `/dev/zero` would fill
 * memory until the kernel kills the process, so both are refused before a byte is read.
 *
 * @module
 */

/** The cap on the size of a config, secret, CA or token file: far above any real one. */
export const TEXT_FILE_LIMIT = 4 * 1024 * 1024;

/** "4 MiB" for the cap, as errors name it. */
export function formatLimit(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** What kind of non-regular file `info` is, for the error. */
function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/**
 * The UTF-8 text of the regular file at `path`, at most `limit` bytes. Rejects with an error whose
 * message says why (not a regular file, larger than the limit); not-found errors pass through unchanged
 * so callers can tell an absent file from a bad one.
 */
export async function readBoundedTextFile(path: string, limit: number = TEXT_FILE_LIMIT): Promise<string> {
  // stat, not open, first: opening a FIFO for reading blocks until a writer appears.
  const info = await Deno.stat(path);
  if (!info.isFile) throw new Error(`${kindOf(info)}, not a regular file`);
  const tooLarge = () => new Error(`larger than the ${formatLimit(limit)} limit`);
  if (info.size > limit) throw tooLarge();
  using file = await Deno.open(path, { read: true });
  // The file may have been swapped or grown since the stat: check again on what was opened, and stop at
  // one byte past the limit whatever it says.
  if (!(await file.stat()).isFile) throw new Error("not a regular file");
  const buffer = new Uint8Array(Math.min(limit + 1, Math.max(info.size + 1, 4096)));
  let length = 0;
  let chunk = buffer;
  for (;;) {
    if (length === chunk.length) {
      if (length > limit) throw tooLarge();
      const grown = new Uint8Array(Math.min(limit + 1, length * 2));
      grown.set(chunk);
      chunk = grown;
    }
    const n = await file.read(chunk.subarray(length));
    if (n === null) break;
    length += n;
    if (length > limit) throw tooLarge();
  }
  return new TextDecoder().decode(chunk.subarray(0, length));
}

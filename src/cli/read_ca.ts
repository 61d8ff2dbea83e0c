/**
 * Reading `admin.caCertFilePath`, shared by the admin and HTTP clients of a command.
 *
 * @module
 */
import { isNotFound, quote, UsageError } from "../errors.ts";
import type { Io } from "../output/io.ts";

/** The PEM text of the CA file; a usage error naming the file when it cannot be read. */
export async function readCaFile(io: Pick<Io, "readTextFile">, path: string): Promise<string> {
  try {
    return await io.readTextFile(path);
  } catch (err) {
    const reason = isNotFound(err) ? "no such file" : (err as Error).message;
    throw new UsageError(`cannot read admin.caCertFilePath ${quote(path)}: ${reason}`);
  }
}

/**
 * Reading `admin.caCertFilePath`, shared by the admin and HTTP clients of a command.
 *
 * @module
 */
import { isNotFound, quote, UsageError } from "../errors.ts";
import type { Io } from "../output/io.ts";

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * Why `pem` is not a usable CA file, or undefined when every certificate in it parses. Checked when loaded so
 * an empty, garbled or truncated file (or a key in place of a certificate) is not later blamed on the server.
 */
async function whatIsWrong(pem: string): Promise<string | undefined> {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  const begins = pem.split("-----BEGIN CERTIFICATE-----").length - 1;
  if (begins === 0) return "holds no PEM certificate";
  if (blocks.length !== begins) return "holds a truncated PEM certificate (no END CERTIFICATE line)";
  const { X509Certificate } = await import("node:crypto");
  for (const [index, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch {
      return `holds an unreadable certificate (number ${index + 1} in the file)`;
    }
  }
  return undefined;
}

/** The PEM text of the CA file; a usage error naming the file when it cannot be read or holds no valid certificate. */
export async function readCaFile(io: Pick<Io, "readTextFile">, path: string): Promise<string> {
  let pem: string;
  try {
    pem = await io.readTextFile(path);
  } catch (err) {
    const reason = isNotFound(err) ? "no such file" : (err as Error).message;
    throw new UsageError(`cannot read admin.caCertFilePath ${quote(path)}: ${reason}`);
  }
  const wrong = await whatIsWrong(pem);
  if (wrong) throw new UsageError(`admin.caCertFilePath ${quote(path)} ${wrong}`);
  return pem;
}

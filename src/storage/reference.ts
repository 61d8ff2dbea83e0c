/**
 * Storage references: `<scheme>://<container>/<key>`, the form Flyte stores data locations in
 * (`s3://bucket/a/b`, `file://container/a/b`), and the checks every backend makes of them.
 *
 * @module
 */
import { OperationError, quote, UsageError } from "../errors.ts";

/** A parsed storage reference. */
export interface StorageReference {
  /** `s3`, `file`, `mem`, … */
  scheme: string;
  /** Bucket or container name. */
  container: string;
  /** Object key inside the container, without a leading slash; `..` segments are refused. */
  key: string;
}

/**
 * Parses a reference.
 *
 * @throws {UsageError} it is not `<scheme>://<container>/<key>` or its key leaves the container
 */
export function parseReference(ref: string): StorageReference {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/]+)\/?(.*)$/i.exec(ref);
  if (!match) throw new UsageError(`invalid storage location ${quote(ref)}: expected <scheme>://<container>/<path>`);
  const segments = match[3].split("/").filter((s) => s !== "" && s !== ".");
  // Keys become file paths in local storage: a `..` would write outside the container.
  if (segments.includes("..")) throw new UsageError(`invalid storage location ${quote(ref)}: '..' is not allowed`);
  return { scheme: match[1].toLowerCase(), container: match[2], key: segments.join("/") };
}

/** Appends path segments to a reference: `joinReference("s3://b/x/", "fast", "v1-a")` is `s3://b/x/fast/v1-a`. */
export function joinReference(base: string, ...parts: string[]): string {
  return [base.replace(/\/+$/, ""), ...parts.map((p) => p.replace(/^\/+|\/+$/g, ""))].join("/");
}

/** What a backend serves: its scheme and container, and whether other containers are allowed. */
export interface ReferenceScope {
  /** The backend's name in messages (`s3`, `local`, …). */
  type: string;
  /** The reference scheme it serves (`s3`, `file`, …). */
  scheme: string;
  /** `storage.container` ("" when none is configured). */
  container: string;
  /** `storage.enable-multicontainer`. */
  multiContainer: boolean;
}

/**
 * Parses a reference a backend is asked to serve: its scheme must be the backend's and, unless
 * multicontainer is on, its container the configured one; it must name an object.
 *
 * @throws {UsageError} naming the reference and what is accepted
 */
export function objectReference(ref: string, scope: ReferenceScope): StorageReference {
  const parsed = parseReference(ref);
  if (parsed.scheme !== scope.scheme) {
    throw new UsageError(`${scope.type} storage cannot serve ${quote(ref)}: expected a ${scope.scheme}:// location`);
  }
  if (!scope.multiContainer && parsed.container !== scope.container) {
    throw new UsageError(
      `${scope.type} storage cannot serve ${quote(ref)}: its container ${quote(parsed.container)} is not ` +
        `storage.container ${quote(scope.container)}; set storage.enable-multicontainer to use other containers`,
    );
  }
  if (parsed.key === "") throw new UsageError(`storage location ${quote(ref)} names no object`);
  return parsed;
}

/** The reference of the configured container, `<scheme>://<container>`. */
export function containerReference(scope: ReferenceScope): string {
  if (scope.container === "") {
    throw new UsageError(`storage.container must be set to write to ${scope.type} storage`);
  }
  return `${scope.scheme}://${scope.container}`;
}

/** 1 MiB, the unit of `storage.limits.maxDownloadMBs`. */
const MIB = 1024 * 1024;

/** The refusal of reading an object that is not there. */
export function noSuchObject(ref: string): OperationError {
  return new OperationError(`cannot read ${quote(ref)}: no such object`);
}

/**
 * What every backend's `readBytes` checks before downloading: the object `head` found exists and fits in
 * `maxBytes`.
 */
export function checkReadable(ref: string, info: { size: number } | undefined, maxBytes: number): void {
  if (info === undefined) throw noSuchObject(ref);
  if (info.size > maxBytes) throw tooLarge(ref, info.size, maxBytes);
}

/** The refusal of an object larger than `maxBytes` read into memory. */
export function tooLarge(ref: string, size: number, maxBytes: number): OperationError {
  const limit = maxBytes % MIB === 0 ? `${maxBytes / MIB} MiB` : `${maxBytes} bytes`;
  return new OperationError(
    `cannot read ${quote(ref)} into memory: it is ${size} bytes, more than the ${limit} ` +
      "storage.limits.maxDownloadMBs allows",
  );
}

/**
 * Reads a stream whole, refusing it once it passes `maxBytes` (a size the server did not announce, or one
 * that changed since `head`).
 */
export async function readAllBounded(
  stream: ReadableStream<Uint8Array>,
  ref: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    // Leaving the loop cancels the stream (the iterator's return), so the rest is never downloaded.
    if (size > maxBytes) throw tooLarge(ref, size, maxBytes);
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

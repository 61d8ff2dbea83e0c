/**
 * Storage references: `<scheme>://<container>/<key>`, the form Flyte stores data locations in
 * (`s3://bucket/a/b`, `file://container/a/b`).
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";

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

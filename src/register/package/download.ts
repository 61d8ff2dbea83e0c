/**
 * Archives given as http(s) URLs: streamed from the command's HTTP client straight into extraction.
 *
 * @module
 */
import {
  archiveFormat,
  type ReadArchive,
  type ReadArchiveOptions,
  UNSUPPORTED_ARCHIVE_MESSAGE,
  withStreamedArchiveEntries,
} from "./archive.ts";
import type { HttpClient } from "../../http/http_client.ts";
import { OperationError, quote, UsageError } from "../../errors.ts";

/** Progress of an archive download, for a progress bar. */
export interface DownloadProgress {
  /** The URL without its query (which may hold a signature). */
  url: string;
  /** Bytes received so far. */
  received: number;
  /** `Content-Length`, when the server sent one. */
  total?: number;
  /** The download finished. */
  done: boolean;
}

/** How archives given as URLs are fetched. */
export interface DownloadDeps {
  /** The command's HTTP client (proxy, CA); default: the global `fetch` (no proxy, the system roots). */
  http?: HttpClient;
  /** Called as bytes arrive. */
  onDownloadProgress?: (progress: DownloadProgress) => void;
}

/** Whether an argument is an http(s) URL rather than a local path. */
export function isUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/** A URL without query or fragment, for messages: a signed URL's query is a credential. */
export function redactUrl(url: string): string {
  return url.replace(/[?#].*$/, "");
}

/**
 * Streams an archive from an http(s) URL straight into extraction: the download is never held in
 * memory or written whole to disk first.
 */
export async function withDownloadedArchive<T>(
  url: string,
  options: ReadArchiveOptions,
  fn: (archive: ReadArchive) => Promise<T>,
  signal: AbortSignal | undefined,
  deps: DownloadDeps,
): Promise<T> {
  const shown = redactUrl(url);
  const format = archiveFormat(url);
  if (format === undefined) throw new UsageError(`${UNSUPPORTED_ARCHIVE_MESSAGE}: ${quote(shown)}`);
  let response: Response;
  try {
    response = await (deps.http?.fetch ?? fetch)(url, { signal });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    // Loaded on failure only: a dry run's module graph holds nothing of the HTTP client.
    const { describeFetchFailure } = await import("../../http/fetch_error.ts");
    throw new OperationError(`cannot download ${quote(shown)}: ${describeFetchFailure(err)}`, { cause: err });
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new OperationError(`cannot download ${quote(shown)}: HTTP ${response.status} ${response.statusText}`.trim());
  }
  const length = Number(response.headers.get("content-length") ?? "");
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  let received = 0;
  const report = deps.onDownloadProgress;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.length;
        report?.({ url: shown, received, total, done: false });
        controller.enqueue(chunk);
      },
      flush() {
        report?.({ url: shown, received, total, done: true });
      },
    }),
  );
  return await withStreamedArchiveEntries(shown, format, counted, options, fn, signal);
}

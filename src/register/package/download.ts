/**
 * Archives given as http(s) URLs, streamed from the command's HTTP client, or as storage references
 * (`s3://…`, `gs://…`, `abfs://…`), streamed from the configured storage: straight into extraction either
 * way, never held whole in memory (nor bound by `storage.limits.maxDownloadMBs`).
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
import { shownUrl } from "../../log/shown_url.ts";
import { FctlError, OperationError, quote, UsageError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/store.ts";

/**
 * Progress of an archive download, for a progress bar.
 *
 * ```ts
 * import { connect, type DownloadProgress, registerFiles } from "@fctl/fctl";
 *
 * const show = ({ url, received, total, done }: DownloadProgress) =>
 *   console.log(done ? `${url} downloaded` : `${url}: ${received} of ${total ?? "?"} bytes`);
 * await using flyte = await connect();
 * const options = { paths: ["https://example.com/pkg.tgz"], archive: true, project: "p", domain: "d", version: "v1" };
 * await registerFiles(flyte.client, options, undefined, { onDownloadProgress: show });
 * ```
 */
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

/**
 * How archives given as URLs are fetched.
 *
 * ```ts
 * import { connect, type DownloadDeps, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const downloads: DownloadDeps = { http: await flyte.http() }; // the configured proxy and CA
 * const options = { paths: ["https://example.com/pkg.tgz"], archive: true, project: "p", domain: "d", version: "v1" };
 * await registerFiles(flyte.client, options, undefined, downloads);
 * ```
 */
export interface DownloadDeps {
  /** The command's HTTP client (proxy, CA); default: the global `fetch` (no proxy, the system roots). */
  http?: HttpClient;
  /** Called as bytes arrive. */
  onDownloadProgress?: (progress: DownloadProgress) => void;
  /**
   * Opens the configured storage: for archives given as storage references, and for the source when the
   * admin has no upload location. A function, so that storage is opened (its SDK loaded) only when needed.
   */
  openStorage?: () => ObjectStore | Promise<ObjectStore>;
}

/** Whether an argument is a storage reference (`s3://bucket/key`) rather than a local path or an http(s) URL. */
export function isStorageReference(path: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(path) && !isUrl(path);
}

/** Whether an argument is an http(s) URL rather than a local path. */
export function isUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
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
  const shown = shownUrl(url);
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
  return await extractCounted(shown, format, response.body, total, options, fn, signal, deps);
}

/**
 * Streams an archive from the configured storage (`s3://bucket/key.tgz`) straight into extraction, as
 * {@link withDownloadedArchive} does from a URL.
 */
export async function withStoredArchive<T>(
  ref: string,
  options: ReadArchiveOptions,
  fn: (archive: ReadArchive) => Promise<T>,
  signal: AbortSignal | undefined,
  deps: DownloadDeps,
): Promise<T> {
  const format = archiveFormat(ref);
  if (format === undefined) throw new UsageError(`${UNSUPPORTED_ARCHIVE_MESSAGE}: ${quote(ref)}`);
  if (!deps.openStorage) throw new UsageError(`cannot read ${quote(ref)}: no storage is configured`);
  const storage = await deps.openStorage();
  const info = await storage.head(ref, signal);
  if (info === undefined) throw new OperationError(`cannot download ${quote(ref)}: no such object`);
  const body = await storage.readStream(ref, signal);
  return await extractCounted(ref, format, body, info.size, options, fn, signal, deps);
}

async function extractCounted<T>(
  shown: string,
  format: NonNullable<ReturnType<typeof archiveFormat>>,
  body: ReadableStream<Uint8Array>,
  total: number | undefined,
  options: ReadArchiveOptions,
  fn: (archive: ReadArchive) => Promise<T>,
  signal: AbortSignal | undefined,
  deps: DownloadDeps,
): Promise<T> {
  let received = 0;
  const report = deps.onDownloadProgress;
  const counted = downloadErrorsWorded(shown, body).pipeThrough(
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

/**
 * `body`, whose failure while it is read (a connection closed before the promised length, a reset) is said as the
 * download's, naming it: it would otherwise reach the archive's reader as a broken archive ("is not a valid tar
 * archive: error reading a body from connection"). fctl's own failures (a time limit) are one line already.
 */
function downloadErrorsWorded(shown: string, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (err) {
        if (err instanceof FctlError) throw err;
        const { describeFetchFailure } = await import("../../http/fetch_error.ts");
        throw new OperationError(`cannot download ${quote(shown)}: ${describeFetchFailure(err)}`, { cause: err });
      }
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

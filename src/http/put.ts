/**
 * HTTP PUT with a fixed `Content-Length`, as signed upload URLs require (S3 answers a chunked PUT with
 * 501 NotImplemented).
 *
 * Every PUT goes through the command's `fetch` (its CA, proxy and system roots), bytes in memory and
 * files on disk alike. A file is streamed, never read whole: Deno's `fetch` frames a body of known size
 * with `Content-Length` (a `Blob`), but drops the header we set on a plain stream and sends it chunked
 * (denoland/deno#24197). {@link SizedFileBody} is a `Blob` that reports the file's size and streams the
 * file.
 *
 * Why not `node:https` (the former path for files): with the system roots it needs sys "ca", which
 * Deno 2.9's `--allow-sys=<name>` cannot name (`unknown sys descriptor`), so all of `--allow-sys`; its
 * `ca` option replaces the system roots instead of adding to them (a private admin CA then breaks a
 * public store's URL); and it ignores the proxy. Its one advantage is memory, measured with
 * `deno task bench:register-memory 300 3` (a 300 MB source from disk, plain HTTP, medians of 3, peak RSS
 * over the 40 KB source's): `node:http` with two reused buffers +11 MB, 2.9 s. `fetch` holds each
 * chunk zero-copy until sent, so chunks cannot be reused and die as garbage V8 collects late: +76 MB
 * (4.3–6.7 s) with 64 KB chunks, +80 MB with 1 MB, +48 MB with 16 KB, +36 MB (5.3–7.3 s) with 8 KB,
 * whose more frequent small allocations trigger collections sooner. Memory stays bounded either way
 * (it does not grow from a 100 MB to a 300 MB source); 8 KB keeps it within the benchmark's 40 MB.
 *
 * @module
 */
import { OperationError, quote } from "../errors.ts";
import type { StoreSource } from "../storage/store.ts";
import { describeFetchFailure } from "./fetch_error.ts";
import { excerpt } from "../output/printable.ts";
import { hideSignatures, signedUrlRedactor } from "./url_secrets.ts";
import { redactUrl } from "../log/shown_url.ts";
import { StreamedBlob } from "./streamed_blob.ts";

/**
 * How a PUT is made.
 *
 * ```ts
 * import { connect, type PutInit } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const init: PutInit = { headers: { "Content-Type": "application/gzip" }, label: "fast.tgz", signal: AbortSignal.timeout(60_000) };
 * const file = await Deno.stat("fast.tgz");
 * await (await flyte.http()).put("https://bucket.example.com/upload?signature=…", { path: "fast.tgz", size: file.size }, init);
 * ```
 */
export interface PutInit {
  /** Extra request headers (the data proxy's, plus `Content-MD5`). */
  headers?: Record<string, string>;
  /** Names the body in messages (default: its path, or "data"). */
  label?: string;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

/** Longest piece of an error response body quoted in a message (cut between words, as every server's text is). */
const MAX_ERROR_BODY = 300;

/**
 * PUTs `body` to `url` with its size as `Content-Length`; resolves on any 2xx response, whose body is not read.
 *
 * @throws {OperationError} on a non-2xx response or a network failure; the message names the
 *   URL without its query string, which holds the signature, and the failure's cause (an error answer's first words,
 *   without the URL's signature or token should it echo them)
 */
export async function putWithContentLength(
  httpFetch: typeof fetch,
  url: string,
  body: StoreSource,
  init: PutInit = {},
): Promise<void> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new OperationError(`cannot upload to ${quote(redactUrl(target))}: only http and https URLs are supported`);
  }
  const label = init.label ?? body.path ?? "data";
  const failed = (detail: string) => `uploading ${quote(label)} to ${redactUrl(target)} failed: ${detail}`;
  let response: Response;
  try {
    response = await httpFetch(target, {
      method: "PUT",
      body: body.bytes !== undefined ? body.bytes as Uint8Array<ArrayBuffer> : new SizedFileBody(body.path, body.size),
      headers: bodyHeaders(init.headers),
      signal: init.signal,
    });
  } catch (err) {
    if (init.signal?.aborted) throw init.signal.reason;
    throw new OperationError(failed(describeFetchFailure(err)), { cause: err });
  }
  if (response.status >= 200 && response.status <= 299) {
    // Uploaded: what the answer says besides its status is not read. A body that never ends (or trickles) would
    // otherwise be read into memory for as long as the server sends it.
    await response.body?.cancel().catch(() => {});
    return;
  }
  // An error answer's body is cut at 64 KiB and due within http.headersTimeout (the HTTP client's bounds).
  const text = await response.text();
  // A store may echo the URL's signature or token back: they are hidden, as the run's own secrets are.
  const redactor = signedUrlRedactor(target);
  const detail = excerpt(text, MAX_ERROR_BODY, { redact: (quoted) => hideSignatures(redactor.redact(quoted)) });
  throw new OperationError(failed(`HTTP ${response.status}${detail ? `: ${detail}` : ""}`));
}

/**
 * The caller's headers without `Content-Length`: the body's size is the one sent. A data proxy's upload headers may
 * carry one of their own (FlyteAdmin's object store answers the length of the `Content-MD5` text).
 */
function bodyHeaders(headers: Record<string, string> | undefined): Headers | undefined {
  if (!headers) return undefined;
  const copy = new Headers(headers);
  copy.delete("Content-Length");
  return copy;
}

/** Bytes read from the file at a time: small, so that dead chunks are collected soon (see the module doc). */
const FILE_CHUNK_BYTES = 8 * 1024;

/** A file as a {@link StreamedBlob}, streamed in {@link FILE_CHUNK_BYTES} pieces. */
export class SizedFileBody extends StreamedBlob {
  constructor(path: string, size: number) {
    super(size, () => fileStream(path));
  }
}

function fileStream(path: string): ReadableStream<Uint8Array<ArrayBuffer>> {
  let file: Deno.FsFile | undefined;
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: FILE_CHUNK_BYTES,
    async pull(controller) {
      file ??= await Deno.open(path, { read: true });
      const request = controller.byobRequest!;
      const read = await file.read(request.view as Uint8Array);
      if (read === null) {
        file.close();
        file = undefined;
        controller.close();
        request.respond(0);
      } else {
        request.respond(read);
      }
    },
    cancel() {
      file?.close();
      file = undefined;
    },
  });
}

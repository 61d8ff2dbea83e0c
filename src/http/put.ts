/**
 * HTTP PUT with a fixed `Content-Length`, as signed upload URLs require (S3 answers a chunked PUT with
 * 501 NotImplemented).
 *
 * Bytes in memory go through `fetch`, which sizes such a body itself. A file on disk goes through
 * `node:http(s)`: Deno's `fetch` sends a streamed body chunked and drops any `Content-Length` we set,
 * and reading a large file into memory to size it would defeat streaming. The file is sent in constant
 * memory (see `sendFile`). `node:http(s)` is loaded only then: a source small enough to be held in
 * memory, the usual case, never needs it.
 *
 * @module
 */
import type { ClientRequest, IncomingMessage } from "node:http";
import { OperationError, quote } from "../errors.ts";
import type { StoreSource } from "../storage/store.ts";

/** How a PUT is made. */
export interface PutInit {
  /** Extra request headers (the data proxy's, plus `Content-MD5`). */
  headers?: Record<string, string>;
  /** Names the body in messages (default: its path, or "data"). */
  label?: string;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

/** Longest piece of an error response body quoted in a message. */
const MAX_ERROR_BODY = 300;

/**
 * PUTs `body` to `url` with its size as `Content-Length`; resolves on any 2xx response.
 *
 * @throws {OperationError} on a non-2xx response or a network failure; the message names the
 *   URL without its query string, which holds the signature
 */
export async function putWithContentLength(
  httpFetch: typeof fetch,
  url: string,
  body: StoreSource,
  init: PutInit & { ca?: string } = {},
): Promise<void> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new OperationError(`cannot upload to ${quote(redactUrl(target))}: only http and https URLs are supported`);
  }
  const label = init.label ?? body.path ?? "data";
  const failed = (detail: string) => `uploading ${quote(label)} to ${redactUrl(target)} failed: ${detail}`;
  let status: number;
  let text: string;
  try {
    ({ status, text } = body.bytes !== undefined
      ? await putBytes(httpFetch, target, body.bytes, init)
      : await putFile(target, body.path, body.size, init));
  } catch (err) {
    if (init.signal?.aborted) throw init.signal.reason;
    throw new OperationError(failed((err as Error).message), { cause: err });
  }
  if (status < 200 || status > 299) {
    const detail = text.trim().replace(/\s+/g, " ").slice(0, MAX_ERROR_BODY);
    throw new OperationError(failed(`HTTP ${status}${detail ? `: ${detail}` : ""}`));
  }
}

async function putBytes(
  httpFetch: typeof fetch,
  target: URL,
  bytes: Uint8Array,
  init: PutInit,
): Promise<{ status: number; text: string }> {
  const response = await httpFetch(target, {
    method: "PUT",
    body: bytes as Uint8Array<ArrayBuffer>,
    headers: init.headers,
    signal: init.signal,
  });
  return { status: response.status, text: await response.text() };
}

async function putFile(
  target: URL,
  path: string,
  size: number,
  init: PutInit & { ca?: string },
): Promise<{ status: number; text: string }> {
  const { request } = target.protocol === "https:" ? await import("node:https") : await import("node:http");
  const headers = { ...init.headers, "Content-Length": String(size) };
  const tls = target.protocol === "https:" && init.ca ? { ca: [init.ca] } : {};
  const req = request(target, { method: "PUT", headers, signal: init.signal, ...tls });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    req.once("response", resolve);
    req.once("error", reject);
  });
  // Awaited below; a failure while sending is reported through it too (destroy emits "error").
  answered.catch(() => {});
  try {
    await sendFile(req, path);
  } catch (err) {
    req.destroy(err as Error);
  }
  const response = await answered;
  let text = "";
  response.setEncoding("utf8");
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode ?? 0, text };
}

/** Bytes read from the file at a time. */
const FILE_CHUNK_BYTES = 64 * 1024;

/**
 * Sends the file as the request's body and ends it, through two buffers used in turn: one is read
 * into while the other is written. Streaming the file as fresh chunks (`createReadStream`) leaves a
 * dead buffer behind per chunk, outside V8's heap, that V8 lets pile up to tens of MB before it
 * collects them; reused buffers keep a source of hundreds of MB in constant memory. A buffer is read
 * into again only once its write has completed (the socket has taken its bytes).
 */
async function sendFile(req: ClientRequest, path: string): Promise<void> {
  using file = await Deno.open(path, { read: true });
  const buffers = [new Uint8Array(FILE_CHUNK_BYTES), new Uint8Array(FILE_CHUNK_BYTES)];
  let writing: Promise<void> = Promise.resolve();
  for (let turn = 0;; turn++) {
    const buffer = buffers[turn % 2];
    const read = await file.read(buffer);
    await writing;
    if (read === null) break;
    writing = write(req, buffer.subarray(0, read));
  }
  await new Promise<void>((resolve) => req.end(resolve));
}

/** Writes a chunk; resolves once it is written, rejects if the request fails or closes first. */
function write(req: ClientRequest, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error("the connection closed during the upload"));
    req.once("close", closed);
    req.write(chunk, (err) => {
      req.off("close", closed);
      if (err) reject(err);
      else resolve();
    });
  });
}

/** The URL without query or fragment: a signed URL's query is a credential. */
function redactUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

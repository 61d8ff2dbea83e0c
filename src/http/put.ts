/**
 * HTTP PUT with a fixed `Content-Length`, as signed upload URLs require (S3 answers a chunked PUT with
 * 501 NotImplemented).
 *
 * Bytes in memory go through `fetch`, which sizes such a body itself. A file on disk goes through
 * `node:http(s)`: Deno's `fetch` sends a streamed body chunked and drops any `Content-Length` we set,
 * and reading a large file into memory to size it would defeat streaming.
 *
 * @module
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { IncomingMessage } from "node:http";
import { createReadStream } from "node:fs";
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
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  const headers = { ...init.headers, "Content-Length": String(size) };
  const tls = target.protocol === "https:" && init.ca ? { ca: [init.ca] } : {};
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(target, { method: "PUT", headers, signal: init.signal, ...tls }, resolve);
    req.on("error", reject);
    const file = createReadStream(path);
    file.on("error", (err) => req.destroy(err));
    file.pipe(req);
  });
  let text = "";
  response.setEncoding("utf8");
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode ?? 0, text };
}

/** The URL without query or fragment: a signed URL's query is a credential. */
function redactUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

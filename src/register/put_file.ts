/**
 * HTTP PUT of a local file (streamed) or of bytes in memory to a signed URL.
 *
 * This uses `node:http(s)` rather than `fetch` on purpose: Deno's `fetch` sends a streamed body with
 * `Transfer-Encoding: chunked` and drops any `Content-Length` we set, and S3 presigned PUTs reject
 * chunked uploads (501 NotImplemented). Reading a large file into memory to get a sized body would
 * defeat streaming. `node:http` sends our `Content-Length` and streams the file.
 *
 * @module
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { IncomingMessage } from "node:http";
import { createReadStream } from "node:fs";
import { OperationError, quote } from "../errors.ts";
import { streamedBytesCounter } from "../streamed_memory.ts";
import type { StoreSource } from "../storage/store.ts";

/**
 * What to PUT where: a local file (`path`, and its `size`, sent as `Content-Length`) or `bytes`,
 * and how.
 */
export type PutFileOptions = StoreSource & {
  /** Extra request headers (the data proxy's, plus `Content-MD5`). */
  headers?: Record<string, string>;
  /** Names the file in messages (default: its path). */
  label?: string;
  /** Aborts the upload. */
  signal?: AbortSignal;
};

/** Longest piece of an error response body quoted in a message. */
const MAX_ERROR_BODY = 300;

/**
 * PUTs the file at `options.path`, or `options.bytes`, to `url`; resolves on any 2xx response.
 *
 * @throws {OperationError} on a non-2xx response or a network failure; the message names the
 *   URL without its query string, which holds the signature
 */
export async function putFile(url: string, options: PutFileOptions): Promise<void> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new OperationError(`cannot upload to ${quote(redact(target))}: only http and https URLs are supported`);
  }
  const label = options.label ?? options.path ?? "data";
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  const size = options.bytes?.length ?? options.size;
  const headers = { ...options.headers, "Content-Length": String(size) };
  let response: IncomingMessage;
  try {
    response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(target, { method: "PUT", headers, signal: options.signal }, resolve);
      req.on("error", reject);
      if (options.bytes !== undefined) {
        req.end(options.bytes);
        return;
      }
      const body = createReadStream(options.path);
      body.on("error", (err) => req.destroy(err));
      const count = streamedBytesCounter();
      body.on("data", (chunk) => count(chunk.length));
      body.pipe(req);
    });
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new OperationError(`uploading ${quote(label)} to ${redact(target)} failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const text = await readText(response);
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    const detail = text.trim().replace(/\s+/g, " ").slice(0, MAX_ERROR_BODY);
    throw new OperationError(
      `uploading ${quote(label)} to ${redact(target)} failed: HTTP ${status}${detail ? `: ${detail}` : ""}`,
    );
  }
}

async function readText(response: IncomingMessage): Promise<string> {
  let text = "";
  response.setEncoding("utf8");
  for await (const chunk of response) text += chunk;
  return text;
}

/** The URL without query or fragment: a signed URL's query is a credential. */
function redact(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * Time limits of every plain HTTP call, so that no server can hang a command: one for the response headers
 * (connecting, TLS, the server's think time), one for a stall between chunks of a body (large archives and
 * uploads take long, but never stop for long), and an optional one for the whole call
 * (`storage.defaultHttpClient.timeout`, as flytectl's key bounds its storage client's calls). An answer read whole
 * and bounded (a call with `maxBodyBytes`: token, discovery, GitHub API) is due whole within the headers' limit: a
 * small answer that trickles is a stalled one. So is an error answer's body (read only for its message, and cut).
 *
 * A request's body is watched as `fetch` reads it: a large one (an upload) may take long to send, so its
 * response headers are timed from its end, and a stall while sending it is a stall like one in a response.
 *
 * Whatever ends a call (a limit, the caller's signal) ends a read of its body that waits, at once
 * (`abortable_reader.ts`).
 *
 * @module
 */
import { OperationError } from "../errors.ts";
import { formatDuration } from "../config/duration.ts";
import { abortableReader } from "./abortable_reader.ts";
import { redactUrl } from "../log/shown_url.ts";
import { StreamedBlob } from "./streamed_blob.ts";

/**
 * Time limits in milliseconds; 0 for none.
 *
 * ```ts
 * import type { HttpClientOptions, HttpTimeouts } from "@fctl/fctl";
 *
 * // A stalled server fails the call within a minute; a slow but steady download may take as long as it needs.
 * const timeouts: HttpTimeouts = { headersMs: 60_000, idleMs: 60_000, totalMs: 0 };
 * const options: HttpClientOptions = { timeouts };
 * console.log(options);
 * ```
 */
export interface HttpTimeouts {
  /**
   * From the request to the response headers (`http.headersTimeout`); for a request with a large body, from the
   * end of that body.
   */
  headersMs?: number;
  /** Longest wait for the next chunk of a response body, or for `fetch` to take the next of a request's (`http.idleTimeout`). */
  idleMs?: number;
  /** The whole call, body included (`storage.defaultHttpClient.timeout`). */
  totalMs?: number;
}

/**
 * An HTTP call ran out of one of its {@link HttpTimeouts}; the message names the URL (without its query) and which.
 *
 * ```ts
 * import { connect, HttpTimeoutError } from "@fctl/fctl";
 *
 * await using flyte = await connect({ flags: { "http.headersTimeout": "5s" } });
 * const http = await flyte.http();
 * try {
 *   await http.fetch("https://flyte.example.com/healthcheck");
 * } catch (err) {
 *   if (err instanceof HttpTimeoutError) console.error(err.message); // "GET https://… timed out: …"
 * }
 * ```
 */
export class HttpTimeoutError extends OperationError {}

/**
 * `fetch` with `timeouts` applied to the call, to the body it sends (when large) and to the body of its response.
 * A call with neither limits nor a signal is `inner`'s as it is; any other has its response body's reads ended by
 * the call's end (see `abortable_reader.ts`).
 */
export function fetchWithTimeouts(inner: typeof fetch, timeouts: HttpTimeouts): typeof fetch {
  const headersMs = timeouts.headersMs ?? 0;
  const idleMs = timeouts.idleMs ?? 0;
  const totalMs = timeouts.totalMs ?? 0;
  const limited = headersMs > 0 || idleMs > 0 || totalMs > 0;
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const outer = init?.signal ?? request?.signal;
    if (!limited && !outer) return await inner(input, init);
    const url = redactUrl(request?.url ?? String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener("abort", onAbort, { once: true });
    const expire = (what: string) => controller.abort(new HttpTimeoutError(`${method} ${url} timed out: ${what}`));
    let stage: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number, what: string) => {
      clearTimeout(stage);
      stage = ms > 0 ? setTimeout(() => expire(what), ms) : undefined;
    };
    const total = totalMs > 0
      ? setTimeout(
        () => expire(`not finished within ${formatDuration(totalMs)} (storage.defaultHttpClient.timeout)`),
        totalMs,
      )
      : undefined;
    // An answer read whole and bounded is small: all of it is due within the headers' limit, from the start.
    const readWhole = (init as { maxBodyBytes?: unknown } | undefined)?.maxBodyBytes !== undefined;
    const started = performance.now();
    let wholeAnswer: ReturnType<typeof setTimeout> | undefined;
    // Set once the response's headers are in, or the call is over: the request body's progress then times nothing.
    let answered = false;
    let releaseBody = () => {};
    const done = () => {
      answered = true;
      clearTimeout(stage);
      clearTimeout(total);
      clearTimeout(wholeAnswer);
      outer?.removeEventListener("abort", onAbort);
      releaseBody();
    };
    const timedOut = () => controller.signal.reason instanceof HttpTimeoutError ? controller.signal.reason : undefined;
    const awaitHeaders = (after: string) =>
      arm(headersMs, `no response headers within ${formatDuration(headersMs)}${after} (http.headersTimeout)`);
    // A large body's headers come after it, which may take long to send: they are timed from its end. While it is
    // sent, a chunk only records the time (an upload has thousands); the one timer waits out what is left.
    let lastProgress = 0;
    const sendingStalled = () => {
      const quiet = performance.now() - lastProgress;
      if (quiet < idleMs) stage = setTimeout(sendingStalled, idleMs - quiet);
      else expire(`no progress sending the request body for ${formatDuration(idleMs)} (http.idleTimeout)`);
    };
    const requestBody = !limited ? init?.body : watchedBody(init?.body, {
      chunk: () => {
        if (answered || idleMs <= 0) return;
        stage ??= setTimeout(sendingStalled, idleMs);
        lastProgress = performance.now();
      },
      end: () => {
        if (!answered) awaitHeaders(" after the request body was sent");
      },
    });
    if (requestBody === init?.body) awaitHeaders("");
    let response: Response;
    try {
      response = await inner(input, { ...init, body: requestBody, signal: controller.signal });
    } catch (err) {
      done();
      throw timedOut() ?? err;
    }
    answered = true;
    clearTimeout(stage);
    if (response.body === null) {
      done();
      return response;
    }
    // So is an error answer, read only for its message and cut at 64 KiB (`bounded_body.ts`): one that trickles would
    // otherwise hold the call for as long as a server likes, each byte restarting http.idleTimeout. Its body is timed
    // from its headers: they may come after a long upload.
    const wholeAnswerMs = readWhole || !response.ok ? headersMs : 0;
    if (wholeAnswerMs > 0) {
      wholeAnswer = setTimeout(
        () => expire(`no complete answer within ${formatDuration(wholeAnswerMs)} (http.headersTimeout)`),
        readWhole ? Math.max(0, wholeAnswerMs - (performance.now() - started)) : wholeAnswerMs,
      );
    }
    const reader = abortableReader(response.body, controller.signal);
    releaseBody = reader.release;
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        arm(idleMs, `no data for ${formatDuration(idleMs)} in the middle of the response body (http.idleTimeout)`);
        try {
          const chunk = await reader.read();
          clearTimeout(stage);
          if (chunk.done) {
            done();
            out.close();
          } else {
            out.enqueue(chunk.value);
          }
        } catch (err) {
          done();
          out.error(timedOut() ?? err);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Bodies at most this large are on their way as the request starts: their response headers are timed from then. */
const SMALL_BODY_BYTES = 64 * 1024;

/** Bytes of an in-memory body handed to `fetch` at a time, so that its progress can be seen. */
const BODY_CHUNK_BYTES = 64 * 1024;

/** What {@link watchedBody} reports as `fetch` reads a body. */
interface BodyWatch {
  /** `fetch` took a chunk (and asks for the next). */
  chunk(): void;
  /** `fetch` took the last one. */
  end(): void;
}

/**
 * `body` as `fetch` should get it: a stream, or a `Blob` or bytes over {@link SMALL_BODY_BYTES}, becomes a body that
 * reports each chunk `fetch` reads and its end; anything else is returned as it is, and its response headers are
 * timed from the start: none, small ones, and strings and forms (fctl sends only small ones: token requests). A
 * `Blob` or bytes stay a `Blob` of the same size and type (bytes have none), so `fetch` still sends their
 * `Content-Length`, and the same `Content-Type` or none; a stream stays a stream.
 */
function watchedBody(body: BodyInit | null | undefined, watch: BodyWatch): BodyInit | null | undefined {
  if (body instanceof ReadableStream) return watching(body, watch);
  if (body instanceof Blob) {
    if (body.size <= SMALL_BODY_BYTES) return body;
    return new StreamedBlob(body.size, () => watching(body.stream(), watch, body.size), body.type);
  }
  const bytes = body instanceof ArrayBuffer
    ? new Uint8Array(body)
    : ArrayBuffer.isView(body)
    ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
    : undefined;
  if (bytes === undefined || bytes.length <= SMALL_BODY_BYTES) return body;
  return new StreamedBlob(bytes.length, () => watching(chunked(bytes), watch, bytes.length));
}

/**
 * `source`'s chunks, reporting each one taken and the end: the stream's end, or for a body of known `size` its last
 * byte (`fetch` stops reading a body once it has the length it sent). Read through on pull, one chunk at a time: an
 * upload has thousands, and a `TransformStream`'s pipe cost a 100 MB upload 190 ms.
 */
function watching(source: ReadableStream<Uint8Array>, watch: BodyWatch, size?: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let taken = 0;
  let ended = false;
  const end = () => {
    if (!ended) watch.end();
    ended = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        end();
        controller.close();
        return;
      }
      taken += value.length;
      if (size !== undefined && taken >= size) end();
      else watch.chunk();
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** `bytes` in {@link BODY_CHUNK_BYTES} pieces (views, not copies). */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(offset, offset + BODY_CHUNK_BYTES));
      offset += BODY_CHUNK_BYTES;
    },
  });
}

/**
 * Node streams (what the Google and Azure SDKs hand back) as web streams for the {@link ObjectStore}
 * interface, with their failures described as the backend chooses.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { StoreSource } from "./store.ts";

/** How long the rest of a stream may stall, and what that failure is. */
export interface StreamIdle {
  /** The longest wait for a chunk after the first (`http.idleTimeout`); 0: none. */
  ms: number;
  /** The stream's error once it has waited that long. */
  error: () => unknown;
}

/**
 * Opens `node` and waits for its first chunk (so a refused request fails here, not in the consumer), then
 * returns a web stream of the rest. Cancelling the web stream destroys `node`; an error while streaming is
 * passed through `onError` first. With `idle`, a wait for a later chunk past `idle.ms` destroys `node` and fails
 * the stream with `idle.error()`: an SDK's download is not timed by fctl's HTTP client, and a service that stops
 * in the middle of an object would otherwise hold its reader for ever.
 */
export async function firstChunkThenStream(
  node: Readable,
  onError: (err: unknown) => unknown,
  idle?: StreamIdle,
): Promise<ReadableStream<Uint8Array>> {
  const chunks = node[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  let first: IteratorResult<Uint8Array>;
  try {
    first = await chunks.next();
  } catch (err) {
    node.destroy();
    throw err;
  }
  let pending: IteratorResult<Uint8Array> | undefined = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stall: unknown;
      try {
        const stalled = new Promise<never>((_, reject) => {
          if (idle && idle.ms > 0 && pending === undefined) {
            timer = setTimeout(() => {
              node.destroy();
              reject(stall = idle.error());
            }, idle.ms);
          }
        });
        const next = pending ?? await Promise.race([chunks.next(), stalled]);
        pending = undefined;
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      } catch (err) {
        // A stall is already said as the caller wants it.
        controller.error(stall !== undefined && err === stall ? err : onError(err));
      } finally {
        clearTimeout(timer);
      }
    },
    cancel() {
      node.destroy();
    },
  }, { highWaterMark: 0 });
}

/** What a call that sends a body tells its watch (see {@link watchedSource}; `boundedCall` times the call by it). */
export interface CallProgress {
  /** The SDK took a piece of the body. */
  sending(): void;
  /** The SDK took the body's last piece: the answer is due within `headersMs` from now. */
  sent(): void;
}

/** Bytes of a body handed to an SDK at a time, so that its progress can be seen. */
const SOURCE_PIECE_BYTES = 64 * 1024;

/**
 * `source` (bytes in memory, or a file, never read whole) as a Node stream an SDK reads, telling `progress` of each
 * piece it takes and of the last: what lets {@link boundedCall} see a service that stops taking the body.
 */
export function watchedSource(source: StoreSource, progress: CallProgress): Readable {
  async function* pieces(): AsyncGenerator<Buffer> {
    if (source.bytes !== undefined) {
      const bytes = source.bytes;
      for (let offset = 0; offset < bytes.byteLength; offset += SOURCE_PIECE_BYTES) {
        progress.sending();
        const end = Math.min(offset + SOURCE_PIECE_BYTES, bytes.byteLength);
        yield Buffer.from(bytes.buffer, bytes.byteOffset + offset, end - offset);
      }
    } else {
      for await (const chunk of createReadStream(source.path, { highWaterMark: SOURCE_PIECE_BYTES })) {
        progress.sending();
        yield chunk as Buffer;
      }
    }
    progress.sent();
  }
  return Readable.from(pieces(), { objectMode: false, highWaterMark: SOURCE_PIECE_BYTES });
}

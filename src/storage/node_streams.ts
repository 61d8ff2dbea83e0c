/**
 * Node streams (what the Google and Azure SDKs hand back) as web streams for the {@link ObjectStore}
 * interface, with their failures described as the backend chooses.
 *
 * @module
 */
import type { Readable } from "node:stream";

/**
 * Opens `node` and waits for its first chunk (so a refused request fails here, not in the consumer), then
 * returns a web stream of the rest. Cancelling the web stream destroys `node`; an error while streaming is
 * passed through `onError` first.
 */
export async function firstChunkThenStream(
  node: Readable,
  onError: (err: unknown) => unknown,
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
      try {
        const next = pending ?? await chunks.next();
        pending = undefined;
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      } catch (err) {
        controller.error(onError(err));
      }
    },
    cancel() {
      node.destroy();
    },
  }, { highWaterMark: 0 });
}

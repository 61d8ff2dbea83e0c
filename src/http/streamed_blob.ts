/**
 * A body of known size that `fetch` streams, for uploads: S3's signed URLs refuse a chunked PUT, and Deno's `fetch`
 * frames only a `Blob` with `Content-Length` (denoland/deno#24197), not a stream.
 *
 * @module
 */

/**
 * A `Blob` of known size whose bytes come from `open()`: `fetch` reads a `Blob` body's `size` and `stream()`, so it
 * sends the size as `Content-Length` and streams the bytes (the `Blob` itself is empty). Should a later Deno read
 * them from the `Blob`'s internals instead, the body would be empty and an upload's `Content-MD5` would fail, loudly;
 * the upload tests check the bytes and the header.
 */
export class StreamedBlob extends Blob {
  readonly #open: () => ReadableStream<Uint8Array>;

  constructor(size: number, open: () => ReadableStream<Uint8Array>, type = "") {
    super([], { type });
    this.#open = open;
    // An own property: `Blob` declares `size` as a read-only property, which a getter may not override.
    Object.defineProperty(this, "size", { value: size, enumerable: true });
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#open() as ReadableStream<Uint8Array<ArrayBuffer>>;
  }
}

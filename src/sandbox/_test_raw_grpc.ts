/**
 * A raw HTTP/2 gRPC client for the sandbox's transport tests: `node:http2` sends what no well-behaved client sends
 * (broken envelopes, odd headers, bodies split across frames) and returns the answer as it came on the wire.
 *
 * @module
 */
import type * as http2 from "node:http2";
import { Buffer } from "node:buffer";

/** An answer as it came: response headers, trailers and the body's bytes. */
export interface RawAnswer {
  headers: http2.IncomingHttpHeaders;
  trailers: http2.IncomingHttpHeaders;
  body: Buffer;
}

/** One call: its path, headers added to the defaults, and its body. */
export interface RawCall {
  path: string;
  headers?: http2.OutgoingHttpHeaders;
  /** Sent as given; an array is sent chunk by chunk, 5 ms apart. */
  body: Uint8Array | Uint8Array[];
}

/** One request on `session`; resolves when the stream ends. */
export function rawGrpcCall(session: http2.ClientHttp2Session, call: RawCall): Promise<RawAnswer> {
  const stream = session.request({
    ":method": "POST",
    ":path": call.path,
    "content-type": "application/grpc",
    te: "trailers",
    ...call.headers,
  });
  return new Promise((resolve, reject) => {
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => void (headers = h));
    stream.on("trailers", (t) => void (trailers = t));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("close", () => resolve({ headers, trailers, body: Buffer.concat(chunks) }));
    const body = call.body;
    if (!Array.isArray(body)) return void stream.end(body);
    (async () => {
      for (const [i, chunk] of body.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 5));
        if (i === body.length - 1) stream.end(chunk);
        else stream.write(chunk);
      }
    })();
  });
}

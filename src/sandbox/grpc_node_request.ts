/**
 * What a call's handler sees of a `node:http2` request: its headers, URL and a signal aborted when the stream
 * closes, derived as Connect's `universalRequestFromNodeRequest` derives them, but without the work that function
 * does for every call and that the unary path never uses (a generator for the body, which that path reads
 * itself, and an `AbortError` built when a stream that was answered closes normally, which nothing listens to).
 *
 * @module
 */
import type * as http2 from "node:http2";
import { Code, ConnectError } from "@connectrpc/connect";

/** The parts of Connect's `UniversalServerRequest` that do not depend on how the body is read. */
export interface CallRequest {
  httpVersion: string;
  method: string;
  url: string;
  /**
   * The request's headers as the name-value pairs Connect's `nodeHeaderToWebHeader` appends, in its order
   * (pseudo-headers left out): `new Headers(headerPairs)` is the `Headers` it makes. Pairs, because copying a
   * `Headers` into a new one (as every call's context does with its request header) costs four times as much.
   */
  headerPairs: [string, string][];
  /** Aborted when the stream closes: with the reset's error, or an `AbortError` while the call is unanswered. */
  signal: AbortSignal;
}

/**
 * HTTP/2 reset codes (RFC 9113, section 7) mapped to the status Connect's node adapter gives a call whose stream
 * was reset with them; NO_ERROR and STREAM_CLOSED map to none.
 */
const RESET_CODES: Record<number, [name: string, code: Code]> = {
  0x1: ["PROTOCOL_ERROR", Code.Internal],
  0x2: ["INTERNAL_ERROR", Code.Internal],
  0x3: ["FLOW_CONTROL_ERROR", Code.Internal],
  0x4: ["SETTINGS_TIMEOUT", Code.Internal],
  0x6: ["FRAME_SIZE_ERROR", Code.Internal],
  0x7: ["REFUSED_STREAM", Code.Unavailable],
  0x8: ["CANCEL", Code.Canceled],
  0x9: ["COMPRESSION_ERROR", Code.Internal],
  0xa: ["CONNECT_ERROR", Code.Internal],
  0xb: ["ENHANCE_YOUR_CALM", Code.ResourceExhausted],
  0xc: ["INADEQUATE_SECURITY", Code.PermissionDenied],
  0xd: ["HTTP_1_1_REQUIRED", Code.PermissionDenied],
};

/** The error Connect gives a call whose stream was reset with `rstCode`, or undefined (no error, or unmapped). */
function resetError(rstCode: number): ConnectError | undefined {
  const known = RESET_CODES[rstCode];
  if (!known) return undefined;
  return new ConnectError(`http/2 stream closed with error code ${known[0]} (0x${rstCode.toString(16)})`, known[1]);
}

/** Request headers as name-value pairs, pseudo-headers left out, as Connect's `nodeHeaderToWebHeader` appends them. */
function headerPairs(nodeHeaders: http2.IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (name.startsWith(":") || value === undefined) continue;
    if (typeof value === "string") pairs.push([name, value]);
    else if (typeof value === "number") pairs.push([name, String(value)]);
    else for (const item of value) pairs.push([name, item]);
  }
  return pairs;
}

/**
 * The call's request, or undefined when it names no authority (Connect's adapter then fails the call, and is left
 * to). `answered()` tells whether the call has its answer: a stream that closes without an error after that
 * aborts nothing, since nothing is listening any more.
 */
export function callRequest(request: http2.Http2ServerRequest, answered: () => boolean): CallRequest | undefined {
  const authority = request.authority ?? request.headers.host;
  if (authority === undefined) return undefined;
  const encrypted = "encrypted" in request.socket && request.socket.encrypted;
  const controller = new AbortController();
  request.once("close", () => {
    const error = resetError(request.stream.rstCode);
    if (error) controller.abort(error);
    else if (!answered()) controller.abort();
  });
  return {
    httpVersion: request.httpVersion,
    method: request.method ?? "",
    url: new URL(request.url ?? "", `${encrypted ? "https" : "http"}://${authority}`).toString(),
    headerPairs: headerPairs(request.headers),
    signal: controller.signal,
  };
}

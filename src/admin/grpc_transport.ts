/**
 * A gRPC transport for unary calls, leaner than Connect's own, over our {@link Http2Connection}.
 *
 * Why: Connect's gRPC transport runs every unary call through async-iterable pipelines, a sentinel
 * that builds an error object per call, and a closing abort that builds a `DOMException` per call.
 * Registration makes dozens of calls at once, and that CPU runs one call after another on the
 * client's single thread. This transport does a unary call as one HTTP/2 stream with one buffer
 * out and one in. Connect still provides the request headers, response and trailer validation,
 * status details (`@connectrpc/connect/protocol-grpc`), and the interceptor contract (the first
 * interceptor is the outermost). flyteidl's admin services have no streaming methods, so `stream`
 * answers UNIMPLEMENTED.
 *
 * @module
 */
import {
  create,
  type DescMessage,
  type DescMethodUnary,
  fromBinary,
  isMessage,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  type Interceptor,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { requestHeader, validateResponse, validateTrailer } from "@connectrpc/connect/protocol-grpc";
import { Buffer } from "node:buffer";
import { type ClientHttp2Stream, constants as h2, type IncomingHttpHeaders } from "node:http2";
import { BROKEN_CONNECTION_CODES, errorCodes } from "./errors.ts";
import { encodeEnvelope, splitEnvelopes } from "./grpc_envelope.ts";
import type { Http2Connection } from "./http2_connection.ts";

/** What {@link createUnaryGrpcTransport} needs. */
export interface UnaryGrpcTransportOptions {
  /** `http://host:port` or `https://host:port`, without a trailing slash. */
  baseUrl: string;
  /** The HTTP/2 connection, shared with anything else that talks to the same admin. */
  connection: Http2Connection;
  /** Outermost first, as in Connect. */
  interceptors?: Interceptor[];
}

type AnyUnaryRequest = UnaryRequest<DescMessage, DescMessage>;
type AnyUnaryResponse = UnaryResponse<DescMessage, DescMessage>;
type UnaryFn = (req: AnyUnaryRequest) => Promise<AnyUnaryResponse>;

/** Creates a transport whose unary calls bypass Connect's streaming machinery (see the module doc). */
export function createUnaryGrpcTransport(options: UnaryGrpcTransportOptions): Transport {
  const { baseUrl, connection } = options;
  // Calls are made on `baseUrl`'s origin; checked once here rather than by parsing every call's URL.
  const origin = new URL(baseUrl).origin;
  if (origin !== connection.authority) {
    throw new TypeError(
      `the transport's base URL ${baseUrl} is not on its connection's origin ${connection.authority}`,
    );
  }
  const interceptors = options.interceptors ?? [];
  // Connect's order: interceptors[0] wraps everything after it.
  const call = interceptors.reduceRight<UnaryFn>(
    (next, interceptor) => interceptor(next as never) as unknown as UnaryFn,
    (req) => exchange(connection, baseUrl, req),
  );
  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: HeadersInit | undefined,
      input: unknown,
      contextValues?: ReturnType<typeof createContextValues>,
    ): Promise<UnaryResponse<I, O>> {
      const timeout = timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined;
      const scope = callScope(signal, timeout);
      const headers = new CallHeaders(timeout, header);
      const req: AnyUnaryRequest & { [CALL_HEADERS]: CallHeaders } = {
        stream: false,
        service: method.parent,
        method: method as unknown as DescMethodUnary<DescMessage, DescMessage>,
        requestMethod: "POST",
        url: `${baseUrl}/${method.parent.typeName}/${method.name}`,
        signal: scope.signal,
        get header() {
          return headers.read();
        },
        set header(value: Headers) {
          headers.replace(value);
        },
        contextValues: contextValues ?? createContextValues(),
        message: isMessage(input, method.input) ? input : create(method.input, input as never),
        [CALL_HEADERS]: headers,
      };
      try {
        return await call(req) as unknown as UnaryResponse<I, O>;
      } catch (err) {
        // As Connect: once the call's signal fired (cancel, deadline), its reason is the error.
        throw scope.signal.aborted ? ConnectError.from(scope.signal.reason, Code.Canceled) : ConnectError.from(err);
      } finally {
        scope.done();
      }
    },
    stream: (method) =>
      Promise.reject(
        new ConnectError(
          `${method.parent.typeName}.${method.name}: streaming calls are not supported`,
          Code.Unimplemented,
        ),
      ),
  };
}

/** Request bodies encoded ahead of their calls, by message object (see {@link encodeAhead}). */
const bodiesAhead = new WeakMap<object, { schema: DescMessage; body: Uint8Array }>();

/**
 * Encodes a request message now, so that a later call with this very message object sends it without
 * encoding it then. A caller waiting on calls in flight can spend that idle time here instead of on the
 * path of its next call (registration encodes its creates while the previous ones are answered).
 *
 * The message must not change afterwards: the call sends the bytes encoded here. A call whose method
 * takes another message type, or an interceptor that swaps the message, encodes as usual.
 */
export function encodeAhead<T extends DescMessage>(schema: T, message: MessageShape<T>): void {
  bodiesAhead.set(message, { schema, body: encodeEnvelope(toBinary(schema, message)) });
}

/** The request's body: encoded ahead for this message and method, or now. */
function requestBody(req: AnyUnaryRequest): Uint8Array {
  const ahead = bodiesAhead.get(req.message);
  if (ahead?.schema === req.method.input) return ahead.body;
  return encodeEnvelope(toBinary(req.method.input, req.message));
}

const CALL_HEADERS = Symbol("callHeaders");

/** The headers every call sends unless it has a deadline or the caller's own headers (see {@link CallHeaders}). */
const PLAIN_HEADERS: Readonly<Record<string, string>> = headerRecord(requestHeader(true, undefined, undefined));

/**
 * A call's request headers, as Connect's `Headers` only if someone reads them. Interceptors see the
 * usual `req.header`; when nothing read or replaced it and the caller added nothing, the call sends a
 * shared record of the same headers, which spares building and walking a `Headers` per call (measurable
 * at registration's call rates).
 */
class CallHeaders {
  readonly #timeoutMs: number | undefined;
  readonly #init: HeadersInit | undefined;
  #headers: Headers | undefined;

  constructor(timeoutMs: number | undefined, init: HeadersInit | undefined) {
    this.#timeoutMs = timeoutMs;
    this.#init = init;
  }

  read(): Headers {
    return this.#headers ??= requestHeader(true, this.#timeoutMs, this.#init);
  }

  replace(headers: Headers): void {
    this.#headers = headers;
  }

  /** The shared plain headers, when this call's are exactly those and nobody has seen or changed them. */
  plain(): Readonly<Record<string, string>> | undefined {
    return this.#headers === undefined && this.#timeoutMs === undefined && this.#init === undefined
      ? PLAIN_HEADERS
      : undefined;
  }
}

/** A signal that never fires, for calls with neither a caller's signal nor a deadline (the common case). */
const NEVER = new AbortController().signal;

/**
 * The call's signal: the caller's, with the deadline added when there is one. Built only when needed,
 * since a linked controller per call is measurable at registration's call rates.
 */
function callScope(signal: AbortSignal | undefined, timeoutMs: number | undefined) {
  if (timeoutMs === undefined) return { signal: signal ?? NEVER, done: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)),
    timeoutMs,
  );
  const follow = () => controller.abort(signal?.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", follow);
    },
  };
}

/** One unary call as one HTTP/2 stream. */
async function exchange(connection: Http2Connection, baseUrl: string, req: AnyUnaryRequest): Promise<AnyUnaryResponse> {
  req.signal.throwIfAborted();
  const body = requestBody(req);
  const path = requestPath(req.url, baseUrl, connection.authority);
  let stream: ClientHttp2Stream;
  try {
    stream = await openStream(connection.request(requestHeaders(path, req)), req.signal);
  } catch (err) {
    throw connectErrorFromNode(err);
  }
  return await new Promise<AnyUnaryResponse>((resolve, reject) => {
    let status = 0;
    let header: IncomingHttpHeaders | undefined;
    let trailer: IncomingHttpHeaders | undefined;
    const chunks: Uint8Array[] = [];
    let settled = false;
    const settle = (outcome: () => AnyUnaryResponse) => {
      if (settled) return;
      settled = true;
      req.signal.removeEventListener("abort", onAbort);
      try {
        resolve(outcome());
      } catch (err) {
        reject(err);
      }
    };
    const fail = (err: unknown) =>
      settle(() => {
        throw err;
      });
    const onAbort = () => {
      // A client ends a call it gave up on (cancelled or past its deadline) with RST_STREAM CANCEL, as
      // gRPC's HTTP/2 mapping says; Node's default would be INTERNAL_ERROR.
      if (!stream.closed) stream.close(h2.NGHTTP2_CANCEL);
      fail(ConnectError.from(req.signal.reason, Code.Canceled));
    };
    req.signal.addEventListener("abort", onAbort, { once: true });
    stream.on("response", (headers) => {
      status = Number(headers[":status"] ?? 0);
      header = headers;
    });
    stream.on("data", (chunk: Uint8Array) => {
      chunks.push(chunk);
    });
    stream.on("trailers", (headers) => void (trailer = headers));
    stream.on("end", () => {
      // Without a response the stream was torn down (e.g. a TLS server read plaintext): "close" says how.
      if (header !== undefined) settle(() => unaryResponse(req, status, header!, trailer ?? {}, chunks));
    });
    stream.on("error", (err) => {
      // The server answered and closed while the request was still being written: its answer wins.
      if (stream.writableEnded && errorCodes(err).includes("ERR_STREAM_WRITE_AFTER_END")) return;
      // A reset by the server arrives as a stream error whose reset code says more than Node's error;
      // any other error (the connection failed, e.g. a proxy refused it) is mapped from Node's code.
      const reset = errorCodes(err).includes("ERR_HTTP2_STREAM_ERROR");
      fail((reset ? connectErrorFromResetCode(stream.rstCode) : undefined) ?? connectErrorFromNode(err));
    });
    stream.on("close", () => {
      if (settled) return;
      // A session torn down under the call closes its streams with a reset code of its own (CANCEL): the
      // connection was lost, which is not what that code would mean from the server.
      const sessionLost = stream.session === undefined || stream.session.destroyed;
      fail(
        (sessionLost ? undefined : connectErrorFromResetCode(stream.rstCode)) ??
          new ConnectError(
            sessionLost
              ? "the connection was closed before the admin service answered"
              : "http/2 stream closed before the admin service answered",
            Code.Unavailable,
          ),
      );
    });
    stream.end(body);
  });
}

/**
 * The stream `opening` gives, unless `signal` fires first: connecting can take long (a TLS handshake
 * that never completes never ends), and a deadline or a cancel must end the call regardless. A stream
 * that opens after that is reset at once.
 */
function openStream(opening: Promise<ClientHttp2Stream>, signal: AbortSignal): Promise<ClientHttp2Stream> {
  if (signal === NEVER) return opening;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(ConnectError.from(signal.reason, Code.Canceled));
    signal.addEventListener("abort", onAbort, { once: true });
    opening.then(
      (stream) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) stream.close(h2.NGHTTP2_CANCEL);
        else resolve(stream);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Validates status, headers, body and trailers the way Connect's gRPC transport does. The common answer
 * (200, a gRPC content type, one message, `grpc-status: 0` in the trailers) is recognised from the raw
 * headers, and its `Headers` objects are built only if someone reads them; any other answer goes through
 * Connect's own validation, so errors and protocol violations read exactly as Connect reports them.
 */
function unaryResponse(
  req: AnyUnaryRequest,
  status: number,
  rawHeader: IncomingHttpHeaders,
  rawTrailer: IncomingHttpHeaders,
  chunks: Uint8Array[],
): AnyUnaryResponse {
  const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  // The body is read as envelopes only once the status says it holds them (a proxy's HTML error page does not).
  if (isPlainOk(status, rawHeader, rawTrailer)) {
    const envelopes = splitEnvelopes(body);
    if (envelopes.length === 1 && !envelopes[0].compressed) {
      return okResponse(req, fromBinary(req.method.output, envelopes[0].message), rawHeader, rawTrailer);
    }
  }
  const header = webHeaders(rawHeader);
  const trailer = webHeaders(rawTrailer);
  const { headerError } = validateResponse(status, header);
  const envelopes = splitEnvelopes(body);
  if (envelopes.some((e) => e.compressed)) {
    throw new ConnectError(
      "protocol error: received a compressed message, but no compression was accepted",
      Code.Internal,
    );
  }
  if (envelopes.length > 1) {
    throw new ConnectError("protocol error: received extra output message for unary method", Code.Unimplemented);
  }
  validateTrailer(trailer, header);
  if (envelopes.length === 0) {
    // A trailers-only response carries its status in the headers.
    if (headerError) throw headerError;
    throw new ConnectError(
      "protocol error: missing output message for unary method",
      trailer.has("grpc-status") ? Code.Unimplemented : Code.Unknown,
    );
  }
  if (headerError) {
    throw new ConnectError("protocol error: received output message for unary method with error status", Code.Unknown);
  }
  return okResponse(req, fromBinary(req.method.output, envelopes[0].message), rawHeader, rawTrailer);
}

/** A successful answer on its face: what Connect's checks would let through without a second look. */
function isPlainOk(status: number, header: IncomingHttpHeaders, trailer: IncomingHttpHeaders): boolean {
  const type = header["content-type"];
  return status === 200 && (type === "application/grpc+proto" || type === "application/grpc") &&
    header["grpc-status"] === undefined && trailer["grpc-status"] === "0";
}

/** The response, with Connect's `Headers` made on first read (few callers ever look at them). */
function okResponse(
  req: AnyUnaryRequest,
  message: AnyUnaryResponse["message"],
  rawHeader: IncomingHttpHeaders,
  rawTrailer: IncomingHttpHeaders,
): AnyUnaryResponse {
  let header: Headers | undefined;
  let trailer: Headers | undefined;
  return {
    stream: false,
    service: req.service,
    method: req.method,
    message,
    get header() {
      return header ??= webHeaders(rawHeader);
    },
    get trailer() {
      return trailer ??= webHeaders(rawTrailer);
    },
  };
}

/**
 * The request's path. Requests are made on `baseUrl`, but interceptors may rewrite a request's URL, and
 * one that points to another origin cannot be sent on this connection.
 */
function requestPath(url: string, baseUrl: string, authority: string): string {
  if (url.startsWith(baseUrl) && url[baseUrl.length] === "/") return url.slice(baseUrl.length);
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.origin === authority) return parsed.pathname;
  throw new ConnectError(
    `cannot make a request to ${parsed?.origin ?? url}: the http2 session is connected to ${authority}`,
    Code.Internal,
  );
}

/**
 * The HTTP/2 request headers. A request an interceptor passed on may be a copy (`{ ...req }`), but
 * copying reads `header`, so the copy is never taken for one whose headers nobody saw.
 */
function requestHeaders(path: string, req: AnyUnaryRequest): Record<string, string> {
  const plain = (req as { [CALL_HEADERS]?: CallHeaders })[CALL_HEADERS]?.plain();
  return { ":method": "POST", ":path": path, ...(plain ?? headerRecord(req.header)) };
}

function headerRecord(header: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  header.forEach((value, key) => void (record[key] = value));
  return record;
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [key, value] of Object.entries(headers)) {
    if (key.startsWith(":") || value === undefined) continue;
    if (Array.isArray(value)) { for (const v of value) result.append(key, v); }
    else result.append(key, String(value));
  }
  return result;
}

/**
 * A Node networking error as the gRPC status clients expect: as Connect's Node client maps them, except
 * that a connection the peer broke off (reset, hung up, not HTTP/2) is UNAVAILABLE, as gRPC's own
 * transports say, and so retried like any other unreachable admin.
 */
function connectErrorFromNode(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  const codes = errorCodes(err);
  let code = Code.Internal;
  if (codes.some((c) => BROKEN_CONNECTION_CODES.has(c))) code = Code.Unavailable;
  else if (codes.includes("ERR_STREAM_WRITE_AFTER_END")) code = Code.Aborted;
  else if (codes.some((c) => c === "ERR_STREAM_DESTROYED" || c === "ERR_HTTP2_INVALID_STREAM")) code = Code.Aborted;
  else if (codes.some((c) => c === "ETIMEDOUT" || c === "ENOTFOUND" || c === "EAI_AGAIN" || c === "ECONNREFUSED")) {
    code = Code.Unavailable;
  }
  const mapped = ConnectError.from(err, code);
  if (mapped !== err) mapped.cause = err;
  return mapped;
}

const RESET_CODE_NAMES: Record<number, string> = {
  [h2.NGHTTP2_PROTOCOL_ERROR]: "PROTOCOL_ERROR",
  [h2.NGHTTP2_INTERNAL_ERROR]: "INTERNAL_ERROR",
  [h2.NGHTTP2_FLOW_CONTROL_ERROR]: "FLOW_CONTROL_ERROR",
  [h2.NGHTTP2_SETTINGS_TIMEOUT]: "SETTINGS_TIMEOUT",
  [h2.NGHTTP2_FRAME_SIZE_ERROR]: "FRAME_SIZE_ERROR",
  [h2.NGHTTP2_COMPRESSION_ERROR]: "COMPRESSION_ERROR",
  [h2.NGHTTP2_CONNECT_ERROR]: "CONNECT_ERROR",
  [h2.NGHTTP2_REFUSED_STREAM]: "REFUSED_STREAM",
  [h2.NGHTTP2_CANCEL]: "CANCEL",
  [h2.NGHTTP2_ENHANCE_YOUR_CALM]: "ENHANCE_YOUR_CALM",
  [h2.NGHTTP2_INADEQUATE_SECURITY]: "INADEQUATE_SECURITY",
  [h2.NGHTTP2_HTTP_1_1_REQUIRED]: "HTTP_1_1_REQUIRED",
};

/** The gRPC status of an HTTP/2 stream reset (gRPC's PROTOCOL-HTTP2 mapping); none for a clean close. */
export function connectErrorFromResetCode(rstCode: number | undefined): ConnectError | undefined {
  const name = rstCode === undefined ? undefined : RESET_CODE_NAMES[rstCode];
  if (name === undefined) return undefined;
  const code = rstCode === h2.NGHTTP2_REFUSED_STREAM
    ? Code.Unavailable
    : rstCode === h2.NGHTTP2_CANCEL
    ? Code.Canceled
    : rstCode === h2.NGHTTP2_ENHANCE_YOUR_CALM
    ? Code.ResourceExhausted
    : rstCode === h2.NGHTTP2_INADEQUATE_SECURITY || rstCode === h2.NGHTTP2_HTTP_1_1_REQUIRED
    ? Code.PermissionDenied
    : Code.Internal;
  return new ConnectError(`http/2 stream closed with error code ${name} (0x${rstCode!.toString(16)})`, code);
}

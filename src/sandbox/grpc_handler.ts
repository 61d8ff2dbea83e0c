/**
 * A lean gRPC server for unary methods on raw `node:http2` streams: routing by path, the five-byte message
 * envelope, `grpc-timeout`, cancellation, and the mapping of thrown errors to `grpc-status` the way
 * Connect's server maps them, so any gRPC client (Connect's included) sees the same answers.
 *
 * Why not Connect's server: its pipeline (async-iterable pipes, universal request and response adapters,
 * Node's compat request/response API) costs about 0.6 ms of CPU per unary call, which dominates benchmarks
 * that run client and sandbox on one thread. A unary call needs none of it: one request message in, one
 * response message or a status out.
 *
 * @module
 */
import type * as http2 from "node:http2";
import { Buffer } from "node:buffer";
import { create, type DescMethod, type DescService, fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { parseContentType, parseTimeout } from "@connectrpc/connect/protocol-grpc";
import type { Http2StreamListener } from "./http2_server.ts";
import { encodeEnvelope, splitEnvelopes } from "../admin/grpc_envelope.ts";

/**
 * A service to serve: its generated descriptor and an implementation keyed by each method's `localName`,
 * such as a `Partial<ServiceImpl<typeof Service>>`. Methods without an entry answer UNIMPLEMENTED.
 * Implementations are called with the request message only: there is no Connect `HandlerContext`.
 */
export interface GrpcService {
  service: DescService;
  impl: object;
}

/** A call as {@link GrpcHandlerOptions.beforeCall} sees it. */
export interface UnaryCall {
  /** The method called. */
  readonly method: DescMethod;
  /** The decoded request message. */
  readonly request: Message;
  /**
   * Aborted when the call's `grpc-timeout` passes (DEADLINE_EXCEEDED) or the client resets or closes the
   * stream (CANCELED); the reason is a ConnectError.
   */
  readonly signal: AbortSignal;
  /**
   * Resolves after `ms`, or rejects with the call's abort reason as soon as the call is aborted (see
   * {@link signal}, and {@link GrpcHandlerOptions.signal}). Unlike racing a timer against `signal`, it
   * makes no signal or listener per call.
   */
  sleep(ms: number): Promise<void>;
}

/** What the handler serves. */
export interface GrpcHandlerOptions {
  services: GrpcService[];
  /**
   * Runs before the implementation of every decoded call, implemented or not; a throw (or rejection)
   * becomes the call's status. Return a promise only when there is something to wait for: a call whose
   * hook returns nothing is answered without an extra turn of the event loop.
   */
  beforeCall?: (call: UnaryCall) => void | Promise<void>;
  /** Aborting it aborts every call in flight with its reason (a server shutting down); they answer with it. */
  signal?: AbortSignal;
}

type UnaryImpl = (request: Message) => unknown;

interface Route {
  method: DescMethod;
  impl: UnaryImpl | undefined;
}

interface Context {
  routes: Map<string, Route>;
  beforeCall: GrpcHandlerOptions["beforeCall"];
  /** Calls not answered yet, for the handler's signal to abort. */
  live: Set<Call>;
  shutdown: AbortSignal | undefined;
}

/** The only message content type served: binary protobuf (`application/grpc` means the same). */
const CONTENT_TYPE = "application/grpc+proto";
/** The largest delay `setTimeout` keeps; longer ones fire at once, so such deadlines are not timed. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const EMPTY = Buffer.alloc(0);
const UTF8 = new TextEncoder();

/** Builds the `"stream"` listener serving `options.services`; the route table is built once, here. */
export function createGrpcHandler(options: GrpcHandlerOptions): Http2StreamListener {
  const shutdown = options.signal;
  const context: Context = {
    routes: buildRoutes(options.services),
    beforeCall: options.beforeCall,
    live: new Set(),
    shutdown,
  };
  shutdown?.addEventListener("abort", () => {
    for (const call of context.live) call.fail(ConnectError.from(shutdown.reason, Code.Unavailable));
  }, { once: true });
  return (stream, headers) => handleStream(context, stream, headers);
}

function buildRoutes(services: GrpcService[]): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const { service, impl } of services) {
    for (const method of service.methods) {
      const fn = (impl as Record<string, unknown>)[method.localName];
      if (typeof fn === "function" && method.methodKind !== "unary") {
        throw new TypeError(
          `${service.typeName}.${method.name} is ${method.methodKind}: only unary methods are served`,
        );
      }
      routes.set(`/${service.typeName}/${method.name}`, {
        method,
        impl: typeof fn === "function" ? (fn.bind(impl) as UnaryImpl) : undefined,
      });
    }
  }
  return routes;
}

function handleStream(context: Context, stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
  // A stream error (a reset, a write racing the close) ends the call through "close"; unhandled it would
  // be thrown as uncaught.
  stream.on("error", ignore);
  const contentType = headers["content-type"];
  if (contentType !== CONTENT_TYPE && parseContentType(contentType ?? null)?.binary !== true) {
    return reject(stream, 415, Code.Internal, `invalid gRPC request content-type ${JSON.stringify(contentType ?? "")}`);
  }
  if (headers[":method"] !== "POST") {
    return reject(stream, 405, Code.Internal, `invalid gRPC request method ${JSON.stringify(headers[":method"])}`);
  }
  const path = headers[":path"] ?? "";
  const query = path.indexOf("?");
  const route = context.routes.get(query < 0 ? path : path.slice(0, query));
  if (!route) return reject(stream, 200, Code.Unimplemented, `unknown method ${JSON.stringify(path)}`);
  const encoding = headers["grpc-encoding"];
  if (encoding !== undefined && encoding !== "identity") {
    // As Connect words it; we accept no compression, so the request cannot be read.
    return reject(
      stream,
      200,
      Code.Unimplemented,
      `unknown compression ${JSON.stringify(encoding)}: supported encodings are identity`,
    );
  }
  // Connect's parser, without its upper bound: longer deadlines are accepted and just not timed.
  const timeout = headers["grpc-timeout"];
  const { timeoutMs, error } = parseTimeout(timeout === undefined ? null : String(timeout), Infinity);
  if (error) return reject(stream, 200, error.code, error.rawMessage);
  if (context.shutdown?.aborted) {
    const reason = ConnectError.from(context.shutdown.reason, Code.Unavailable);
    return reject(stream, 200, reason.code, reason.rawMessage);
  }
  const call = new Call(context, route, stream as CallStream);
  (stream as CallStream)[CALL] = call;
  context.live.add(call);
  if (timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS) call.timer = setTimeout(onDeadline, timeoutMs, call);
  stream.on("data", onData);
  stream.once("end", onEnd);
  stream.once("close", onClose);
}

const CALL = Symbol("call");
type CallStream = http2.ServerHttp2Stream & { [CALL]?: Call };

/**
 * One unary call. Stream listeners are shared functions that find it on the stream, rather than closures
 * made per call.
 */
class Call implements UnaryCall {
  request!: Message;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The status or response is written (or the stream is gone): nothing more may be written. */
  done = false;
  #context: Context;
  #route: Route;
  #stream: CallStream;
  #chunk: Buffer | undefined;
  #chunks: Buffer[] | undefined;
  /** Made when first asked for: most calls never look at their signal. */
  #controller: AbortController | undefined;
  #abortReason: ConnectError | undefined;
  /** A {@link sleep} in progress: its timer, and how to end it early. */
  #sleeping: { timer: ReturnType<typeof setTimeout>; reject: (reason: ConnectError) => void } | undefined;

  constructor(context: Context, route: Route, stream: CallStream) {
    this.#context = context;
    this.#route = route;
    this.#stream = stream;
  }

  get method(): DescMethod {
    return this.#route.method;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortReason) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  sleep(ms: number): Promise<void> {
    if (this.#abortReason) return Promise.reject(this.#abortReason);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#sleeping = undefined;
        resolve();
      }, ms);
      this.#sleeping = { timer, reject };
    });
  }

  receive(chunk: Buffer): void {
    if (this.done) return; // answered early (a passed deadline): the rest of the body is dropped
    if (this.#chunk === undefined) this.#chunk = chunk;
    else (this.#chunks ??= [this.#chunk]).push(chunk);
  }

  /** Decodes the request, runs the hook and the implementation, and answers. */
  async run(): Promise<void> {
    if (this.done) return;
    const body = this.#chunks ? Buffer.concat(this.#chunks) : this.#chunk ?? EMPTY;
    this.#chunk = this.#chunks = undefined;
    try {
      const method = this.#route.method;
      this.request = decodeRequest(method, body);
      const before = this.#context.beforeCall?.(this);
      if (before) await before;
      if (this.done) return;
      const impl = this.#route.impl;
      if (!impl) {
        throw new ConnectError(`${method.parent.typeName}.${method.name} is not implemented`, Code.Unimplemented);
      }
      let result = impl(this.request);
      if (result instanceof Promise) result = await result;
      this.respond(toBinary(method.output, create(method.output, result as Message)));
    } catch (err) {
      this.fail(toConnectError(err));
    }
  }

  /** Writes the response message and, once it is sent, the OK trailers. */
  respond(message: Uint8Array): void {
    if (this.#finish()) return;
    const stream = this.#stream;
    const frame = encodeEnvelope(message);
    try {
      stream.respond({ ":status": 200, "content-type": CONTENT_TYPE }, { waitForTrailers: true });
      stream.once("wantTrailers", sendOkTrailers);
      stream.end(frame);
    } catch {
      // The stream closed between the check and the write: there is no one left to answer.
    }
  }

  /** Answers with `error` as the status and aborts the signal with it. */
  fail(error: ConnectError): void {
    this.abort(error);
    if (this.#finish()) return;
    const stream = this.#stream;
    respondStatus(stream, 200, error.code, error.rawMessage);
  }

  /** The stream closed: if the call was not answered yet, it never will be, so its signal is aborted. */
  closed(rstCode: number): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    // Only the hook sees this reason (its signal, its sleep); nothing can be sent any more.
    this.abort(
      new ConnectError(`the stream closed (HTTP/2 code ${rstCode}) before the call was answered`, Code.Canceled),
    );
  }

  abort(reason: ConnectError): void {
    if (this.#abortReason) return;
    this.#abortReason = reason;
    this.#context.live.delete(this);
    this.#controller?.abort(reason);
    const sleeping = this.#sleeping;
    if (sleeping) {
      this.#sleeping = undefined;
      clearTimeout(sleeping.timer);
      sleeping.reject(reason);
    }
  }

  /** Marks the call answered; true when it already was or the stream can no longer be written. */
  #finish(): boolean {
    if (this.done) return true;
    this.done = true;
    clearTimeout(this.timer);
    this.#context.live.delete(this);
    const stream = this.#stream;
    return stream.closed || stream.destroyed;
  }
}

function onData(this: CallStream, chunk: Buffer): void {
  this[CALL]!.receive(chunk);
}

function onEnd(this: CallStream): void {
  void this[CALL]!.run();
}

function onClose(this: CallStream): void {
  this[CALL]!.closed(this.rstCode);
}

function onDeadline(call: Call): void {
  call.fail(new ConnectError("the operation timed out", Code.DeadlineExceeded));
}

function sendOkTrailers(this: http2.ServerHttp2Stream): void {
  try {
    this.sendTrailers({ "grpc-status": "0" });
  } catch {
    // Reset while the message was being sent.
  }
}

function ignore(): void {}

/** Answers a stream that never became a call, and discards whatever body the client still sends. */
function reject(stream: http2.ServerHttp2Stream, httpStatus: number, code: Code, message: string): void {
  respondStatus(stream, httpStatus, code, message);
  stream.resume();
}

/** A Trailers-Only response: one HEADERS frame that ends the stream and carries the status. */
function respondStatus(stream: http2.ServerHttp2Stream, httpStatus: number, code: Code, message: string): void {
  if (stream.closed || stream.destroyed) return;
  try {
    stream.respond({
      ":status": httpStatus,
      "content-type": CONTENT_TYPE,
      "grpc-status": String(code),
      "grpc-message": encodeGrpcMessage(message),
    }, { endStream: true });
  } catch {
    // The stream closed between the check and the write.
  }
}

/** A thrown value as the status to send: Connect's server sends other errors as INTERNAL "internal error". */
function toConnectError(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  return new ConnectError("internal error", Code.Internal, undefined, undefined, err);
}

/**
 * Decodes the request body: exactly one uncompressed envelope. Codes and wording follow Connect's server,
 * so clients see the same statuses as before.
 */
function decodeRequest(method: DescMethod, body: Uint8Array): Message {
  const envelopes = splitEnvelopes(body);
  if (envelopes.length === 0) {
    throw new ConnectError("protocol error: missing input message for unary method", Code.Unimplemented);
  }
  if (envelopes.length > 1) {
    throw new ConnectError("protocol error: received extra input message for unary method", Code.Unimplemented);
  }
  if (envelopes[0].compressed) {
    // Per the gRPC spec a compressed message without a negotiated encoding is INTERNAL; Connect agrees.
    throw new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal);
  }
  try {
    return fromBinary(method.input, envelopes[0].message);
  } catch (err) {
    throw new ConnectError(`parse binary: ${err instanceof Error ? err.message : String(err)}`, Code.Internal);
  }
}

/**
 * Percent-encodes a status message as the gRPC spec asks for `grpc-message`: UTF-8, with every byte
 * outside printable ASCII, and `%` itself, as `%XX`.
 */
export function encodeGrpcMessage(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = "";
  for (const byte of UTF8.encode(message)) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

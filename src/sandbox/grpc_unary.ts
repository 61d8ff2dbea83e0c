/**
 * Unary gRPC calls answered without Connect's streaming pipeline. Connect's gRPC handler runs every call, unary or
 * not, through a chain of async generators (split, parse, invoke, serialize, join the envelopes) that cost several
 * times what the call's own work does; a registration makes thousands of unary creates. For a plain unary call (no
 * compression, a valid or no deadline, one uncompressed envelope) this reads the envelope, decodes it and runs the
 * interceptors and the implementation with the same Connect functions the pipeline uses, and writes the answer as
 * Connect's node adapter writes it, so the call sees the same context, signal, headers and errors, and the client
 * the same headers, message and trailers (`grpc_unary_test.ts` compares the two). Anything else goes to Connect's
 * own handler, with the body already read when it was. A message longer than grpc-go's default receive limit
 * (4 MiB, which FlyteAdmin keeps) is refused as grpc-go refuses it: RESOURCE_EXHAUSTED as soon as its envelope's
 * prefix says so, without waiting for the rest, which is discarded as it comes (grpc-go resets the stream with
 * NO_ERROR instead; Deno's `node:http2` sends a reset before the trailers, so the client's own end closes it).
 *
 * @module
 */
import type * as http2 from "node:http2";
import type { DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createConnectRouter,
  createHandlerContext,
  createServiceImplSpec,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import { type CallRequest, callRequest } from "./grpc_node_request.ts";
import {
  createAsyncIterable,
  createMethodSerializationLookup,
  createMethodUrl,
  encodeEnvelope,
  invokeUnaryImplementation,
  type UniversalHandler,
  type UniversalServerResponse,
  validateUniversalHandlerOptions,
} from "@connectrpc/connect/protocol";
import {
  contentTypeProto,
  grpcStatusOk,
  headerContentType,
  headerEncoding,
  headerGrpcStatus,
  headerTimeout,
  parseTimeout,
  setTrailerStatus,
} from "@connectrpc/connect/protocol-grpc";

/** What the handler serves: Connect's router options, as `connectNodeAdapter` takes them. */
export interface GrpcHandlerOptions {
  routes: (router: ConnectRouter) => void;
  interceptors: Interceptor[];
  shutdownSignal: AbortSignal;
  /** Answers a path no service declares. */
  fallback: (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => void;
}

/**
 * The reason a call's signal is aborted with once the call is answered, which Connect leaves to an `AbortError`
 * built per call; nothing listens by then, and building that error is most of what ending a call costs.
 */
const ANSWERED = new ConnectError("the call was answered", Code.Canceled);
/** The gRPC envelope's header: a flags byte and a 4-byte big-endian length. */
const ENVELOPE_HEADER_BYTES = 5;
/** grpc-go's default `MaxRecvMsgSize`, which FlyteAdmin's server keeps: the longest request message it reads. */
export const MAX_RECEIVE_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The implementation of a unary method. */
type UnarySpec = Extract<MethodImplSpec, { kind: "unary" }>;

/** A plain unary call's answer: headers, the enveloped message (none after an error), trailers with the status. */
interface UnaryAnswer {
  header: Headers;
  message?: Uint8Array;
  trailer: Headers;
}

/** A unary method of a service registered without options of its own. */
interface UnaryRoute {
  spec: UnarySpec;
  serialization: ReturnType<typeof createMethodSerializationLookup>;
  /** Connect's handler of the method, for every call this file does not answer itself. */
  handler: UniversalHandler;
}

/**
 * A request listener doing what `connectNodeAdapter` does with the same options (gRPC only, binary, no
 * compression), with plain unary calls answered directly.
 */
export function createGrpcHandler(
  options: GrpcHandlerOptions,
): (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => void {
  const routerOptions = {
    interceptors: options.interceptors,
    shutdownSignal: options.shutdownSignal,
    grpc: true,
    grpcWeb: false,
    connect: false,
    acceptCompression: [],
    // The calls left to Connect keep the same limit (with Connect's own message).
    readMaxBytes: MAX_RECEIVE_MESSAGE_BYTES,
  };
  const router = createConnectRouter(routerOptions);
  // What Connect's handlers make of the same options, its defaults filled in (read and write limits, the longest
  // deadline), so that the calls answered here keep to them too.
  const handling = validateUniversalHandlerOptions(routerOptions);
  const specs = new Map<string, UnarySpec>();
  // Registers every service on Connect's router, and keeps the implementation of each unary method of a
  // service registered without options of its own (options could change its protocols or interceptors).
  const recording: ConnectRouter = {
    get handlers() {
      return router.handlers;
    },
    service(service, implementation, serviceOptions) {
      router.service(service, implementation, serviceOptions);
      if (serviceOptions === undefined) {
        const spec = createServiceImplSpec(service as DescService, implementation);
        for (const method of (service as DescService).methods) {
          const methodSpec = spec.methods[method.localName];
          if (methodSpec.kind === "unary") specs.set(createMethodUrl("/", method), methodSpec);
        }
      }
      return recording;
    },
    rpc(method, implementation, rpcOptions) {
      router.rpc(method, implementation, rpcOptions);
      return recording;
    },
  };
  options.routes(recording);
  const handlers = new Map<string, UniversalHandler>();
  const unary = new Map<string, UnaryRoute>();
  for (const handler of router.handlers) {
    handlers.set(handler.requestPath, handler);
    const spec = specs.get(handler.requestPath);
    if (spec) {
      unary.set(handler.requestPath, {
        spec,
        serialization: createMethodSerializationLookup(
          handler.method,
          handling.binaryOptions,
          handling.jsonOptions,
          handling,
        ),
        handler,
      });
    }
  }
  return (request, response) => {
    // As connectNodeAdapter matches paths: without the query.
    const path = request.url?.split("?", 2)[0] ?? "";
    const handler = handlers.get(path);
    if (!handler) return options.fallback(request, response);
    const route = unary.get(path);
    const plain = route && plainCall(request.headers, handling.maxTimeoutMs);
    let answered = false;
    const call = plain && callRequest(request, () => answered);
    const written = route && plain && call
      ? answerUnary(route, request, call, plain.timeoutMs, options).then((answer) => {
        answered = true;
        return "status" in answer ? universalResponseToNodeResponse(answer, response) : writeAnswer(answer, response);
      })
      : handler(universalRequestFromNodeRequest(request, response, undefined, undefined))
        .then((answer) => universalResponseToNodeResponse(answer, response));
    written.catch((reason) => {
      // As connectNodeAdapter reports a handler that failed.
      if (ConnectError.from(reason).code === Code.Aborted) return;
      console.error(`handler for rpc ${handler.method.name} of ${handler.service.typeName} failed`, reason);
    });
  };
}

/**
 * A call without compression and with no deadline or a valid one, which {@link answerUnary} answers itself: its
 * deadline's length (undefined: none); undefined for any other call.
 */
function plainCall(
  headers: http2.IncomingHttpHeaders,
  maxTimeoutMs: number,
): { timeoutMs: number | undefined } | undefined {
  const encoding = headers[headerEncoding.toLowerCase()];
  if (encoding !== undefined && encoding !== "identity") return undefined;
  const timeout = headers[headerTimeout.toLowerCase()];
  if (timeout === undefined) return { timeoutMs: undefined };
  if (typeof timeout !== "string") return undefined;
  const parsed = parseTimeout(timeout, maxTimeoutMs);
  return parsed.error === undefined ? { timeoutMs: parsed.timeoutMs } : undefined;
}

/**
 * Reads the request body into `chunks`. Its events, not the async iterator Connect reads it with, which costs
 * more than the rest of reading; it fails as that iterator does: with the stream's error, or when the stream
 * closes before its end (the client reset it). Once the first envelope's prefix declares a message longer than
 * `maxMessageBytes`, it stops keeping what comes and resolves with that length.
 */
function readBody(
  request: http2.Http2ServerRequest,
  chunks: Uint8Array[],
  maxMessageBytes: number,
): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    let ended = false;
    let received = 0;
    const onData = (chunk: Uint8Array) => {
      chunks.push(chunk);
      const before = received;
      received += chunk.length;
      if (before >= ENVELOPE_HEADER_BYTES || received < ENVELOPE_HEADER_BYTES) return;
      const length = declaredLength(chunks);
      if (length <= maxMessageBytes) return;
      // The rest of the body is discarded as it comes (the stream stays flowing without a listener).
      ended = true;
      request.off("data", onData);
      request.resume();
      chunks.length = 0;
      resolve(length);
    };
    request.on("data", onData);
    request.once("end", () => {
      ended = true;
      resolve(undefined);
    });
    request.once("error", reject);
    request.once("close", () => {
      if (!ended) reject(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    });
  });
}

/** The message length the first envelope's prefix declares, from chunks holding at least the prefix. */
function declaredLength(chunks: Uint8Array[]): number {
  const prefix = concat(chunks).subarray(0, ENVELOPE_HEADER_BYTES);
  return new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength).getUint32(1);
}

/** The body's one uncompressed message, or undefined when it is anything else (Connect's handler then answers). */
function singleMessage(chunks: Uint8Array[]): Uint8Array | undefined {
  const body = chunks.length === 1 ? chunks[0] : concat(chunks);
  if (body.length < ENVELOPE_HEADER_BYTES || body[0] !== 0) return undefined;
  const length = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(1);
  if (ENVELOPE_HEADER_BYTES + length !== body.length) return undefined;
  return body.subarray(ENVELOPE_HEADER_BYTES);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/**
 * Answers a plain unary call as Connect's gRPC handler does: the context made first (its deadline running from
 * the call's start), the body read whole, the message decoded, the interceptors and implementation run; an error
 * becomes the trailers' status, any other than a ConnectError INTERNAL. A body that is not one uncompressed
 * message is answered by Connect's handler.
 */
async function answerUnary(
  route: UnaryRoute,
  request: http2.Http2ServerRequest,
  call: CallRequest,
  timeoutMs: number | undefined,
  options: GrpcHandlerOptions,
): Promise<UnaryAnswer | UniversalServerResponse> {
  const context = createHandlerContext({
    ...route.spec,
    service: route.spec.method.parent,
    requestMethod: call.method,
    protocolName: "grpc",
    timeoutMs,
    shutdownSignal: options.shutdownSignal,
    requestSignal: call.signal,
    requestHeader: call.headerPairs,
    url: call.url,
    responseHeader: { [headerContentType]: contentTypeProto },
    responseTrailer: { [headerGrpcStatus]: grpcStatusOk },
  });
  const body: Uint8Array[] = [];
  let output: Uint8Array | undefined;
  try {
    const tooLong = await readBody(request, body, MAX_RECEIVE_MESSAGE_BYTES);
    if (tooLong !== undefined) {
      // grpc-go's parser refuses it before decoding anything, so no interceptor or implementation sees the call.
      const error = new ConnectError(
        `grpc: received message larger than max (${tooLong} vs. ${MAX_RECEIVE_MESSAGE_BYTES})`,
        Code.ResourceExhausted,
      );
      context.abort(error);
      setTrailerStatus(context.responseTrailer, error);
      return { header: context.responseHeader, trailer: context.responseTrailer };
    }
    const payload = singleMessage(body);
    if (payload === undefined) {
      context.abort();
      const { headerPairs, ...rest } = call;
      return route.handler({ ...rest, header: new Headers(headerPairs), body: createAsyncIterable(body) });
    }
    const input = route.serialization.getI(true).parse(payload);
    const message = await invokeUnaryImplementation(route.spec, context, input, options.interceptors);
    output = encodeEnvelope(0, route.serialization.getO(true).serialize(message));
    context.abort(ANSWERED);
  } catch (err) {
    context.abort(err);
    const error = err instanceof ConnectError
      ? err
      : new ConnectError("internal error", Code.Internal, undefined, undefined, err);
    setTrailerStatus(context.responseTrailer, error);
  }
  return { header: context.responseHeader, message: output, trailer: context.responseTrailer };
}

/**
 * Writes an answer as Connect's `universalResponseToNodeResponse` writes it (status 200 and the headers, the message
 * if any, the trailers), without its per-chunk promises and listeners, which cost as much as the rest of answering.
 * A stream that has closed meanwhile (the client reset it) is left to that function, which fails quietly there.
 */
function writeAnswer(answer: UnaryAnswer, response: http2.Http2ServerResponse): Promise<void> | void {
  if (response.stream.destroyed || response.stream.closed || response.headersSent) {
    const { header, message, trailer } = answer;
    return universalResponseToNodeResponse(
      { status: 200, header, body: createAsyncIterable(message ? [message] : []), trailer },
      response,
    );
  }
  response.writeHead(200, nodeHeaders(answer.header));
  if (answer.message) response.write(answer.message);
  response.addTrailers(nodeHeaders(answer.trailer));
  response.end();
}

/** Headers as `node:http2` takes them, a repeated name as a list, as Connect's `webHeaderToNodeHeaders` makes them. */
function nodeHeaders(headers: Headers): http2.OutgoingHttpHeaders {
  const result: Record<string, string | string[]> = Object.create(null);
  headers.forEach((value, name) => {
    const existing = result[name];
    if (Array.isArray(existing)) existing.push(value);
    else if (existing === undefined) result[name] = value;
    else result[name] = [existing, value];
  });
  return result;
}

/**
 * The sandbox's gRPC endpoint: Connect's router serving only what a FlyteAdmin serves on its gRPC port, binary
 * gRPC without compression, plain unary calls answered without Connect's streaming pipeline (`grpc_unary.ts`),
 * and answering what the router leaves to its adapter the way a gRPC server does.
 *
 * @module
 */
import type * as http2 from "node:http2";
import { Code, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { headerContentType, headerTimeout, parseContentType, parseTimeout } from "@connectrpc/connect/protocol-grpc";
import { createGrpcHandler } from "./grpc_unary.ts";
import type { Http2RequestListener } from "./http2_listener.ts";

/** What the router serves. */
export interface GrpcRouterOptions {
  /** Registers the services, e.g. `(router) => router.service(AdminService, impl)`. */
  routes: (router: ConnectRouter) => void;
  /** Interceptors wrapped around every call of a known method, implemented or not, once its request is decoded. */
  interceptors: Interceptor[];
  /** Aborting it aborts every call's signal with its reason (a server shutting down). */
  shutdownSignal: AbortSignal;
}

/** The only content type answered: binary protobuf (`application/grpc` means the same). */
const CONTENT_TYPE = "application/grpc+proto";
/** The longest delay `setTimeout` keeps; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Builds the request listener. Before Connect's router sees a request, it answers what is not a binary gRPC
 * POST (Connect would serve gRPC's JSON flavour too, which FlyteAdmin does not) with HTTP 415 or 405 and
 * INTERNAL, and drops a `grpc-timeout` too long for a timer to hold (Connect's timer would fire at once);
 * methods no service declares answer UNIMPLEMENTED, as gRPC servers do, instead of the adapter's plain 404.
 */
export function createGrpcRouter(options: GrpcRouterOptions): Http2RequestListener {
  const adapter = createGrpcHandler({
    routes: options.routes,
    interceptors: options.interceptors,
    shutdownSignal: options.shutdownSignal,
    fallback: (request, response) => {
      answerStatus(request, response, 200, Code.Unimplemented, `unknown method ${JSON.stringify(request.url)}`);
    },
  });
  return (request, response) => {
    const contentType = request.headers[headerContentType.toLowerCase()];
    if (parseContentType(typeof contentType === "string" ? contentType : null)?.binary !== true) {
      const message = `invalid gRPC request content-type ${JSON.stringify(contentType ?? "")}`;
      return answerStatus(request, response, 415, Code.Internal, message);
    }
    if (request.method !== "POST") {
      const message = `invalid gRPC request method ${JSON.stringify(request.method)}`;
      return answerStatus(request, response, 405, Code.Internal, message);
    }
    dropUntimeableDeadline(request);
    adapter(request, response);
  };
}

/**
 * A deadline longer than a timer can hold (about 24.8 days; gRPC allows 8 digits of hours) is as good as
 * none: it is removed rather than left to fire at once. A malformed value stays for Connect to reject.
 */
function dropUntimeableDeadline(request: http2.Http2ServerRequest): void {
  const name = headerTimeout.toLowerCase();
  const value = request.headers[name];
  if (typeof value !== "string") return;
  const { timeoutMs } = parseTimeout(value, Infinity);
  if (timeoutMs !== undefined && timeoutMs > MAX_TIMER_MS) delete request.headers[name];
}

/**
 * Answers with a gRPC status and no message, and discards whatever body the client still sends. Typed by what it
 * uses, since Connect's fallback is declared for HTTP/1.1 requests too.
 */
function answerStatus(
  request: { resume(): unknown },
  response: { writeHead(status: number, headers: Record<string, string>): unknown; end(): unknown },
  httpStatus: number,
  code: Code,
  message: string,
): void {
  request.resume();
  response.writeHead(httpStatus, {
    "content-type": CONTENT_TYPE,
    "grpc-status": String(code),
    // Percent-encoded as Connect encodes it (the gRPC spec asks for at least non-printable bytes and "%").
    "grpc-message": encodeURIComponent(message),
  });
  response.end();
}

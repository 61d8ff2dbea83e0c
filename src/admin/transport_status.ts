/**
 * The gRPC statuses of transport failures that Connect's Node client reports otherwise, so that the retry
 * interceptor tries a new connection where gRPC's own clients would, and the error mapping can add the
 * connection hint.
 *
 * - A connection the peer broke off (ECONNRESET, EPIPE, an HTTP/2 session error: an HTTP/1 server, a
 *   proxy or load balancer hanging up) is UNAVAILABLE, as gRPC's transports say; Connect reports ABORTED
 *   or INTERNAL, neither of which is retried.
 * - A stream the server reset is reported by Node as an error before the reset code is looked at, so
 *   Connect says INTERNAL for every code; gRPC's HTTP/2 mapping gives REFUSED_STREAM (never processed,
 *   safe to retry) UNAVAILABLE, ENHANCE_YOUR_CALM RESOURCE_EXHAUSTED, and INADEQUATE_SECURITY and
 *   HTTP_1_1_REQUIRED PERMISSION_DENIED.
 * - A stream closed with CANCEL that nobody on this side cancelled (neither the caller, nor a deadline,
 *   nor closing the client): under Deno, a session torn down under a call (a TLS server that read
 *   plaintext, a peer hanging up) closes its streams so. Connect reports CANCELED; the connection was lost.
 *
 * @module
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { BROKEN_CONNECTION_CODES, errorCodes } from "./errors.ts";
import { isClosedHere } from "./session_guard.ts";

/** gRPC's status for an HTTP/2 reset code other than INTERNAL, by the name Node's stream error gives it. */
const RESET_STATUSES: Readonly<Record<string, Code>> = {
  NGHTTP2_REFUSED_STREAM: Code.Unavailable,
  NGHTTP2_ENHANCE_YOUR_CALM: Code.ResourceExhausted,
  NGHTTP2_INADEQUATE_SECURITY: Code.PermissionDenied,
  NGHTTP2_HTTP_1_1_REQUIRED: Code.PermissionDenied,
};

/** The status gRPC gives a reset stream, from Node's `Stream closed with error code NGHTTP2_…` error. */
function resetStatus(err: ConnectError): Code | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if ((e as { code?: unknown }).code !== "ERR_HTTP2_STREAM_ERROR") continue;
    const name = /\bNGHTTP2_[A-Z0-9_]+/.exec(e.message)?.[0];
    return name === undefined ? undefined : RESET_STATUSES[name];
  }
  return undefined;
}

/** The innermost interceptor: gives the failures listed in the module doc gRPC's status, keeping the cause. */
export const transportStatusInterceptor: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    const ce = ConnectError.from(err);
    // A CANCEL nobody here asked for (see the module doc). Closing the client under a call is asking.
    if (ce.code === Code.Canceled && !req.signal.aborted && !isClosedHere(ce)) {
      throw new ConnectError(
        "the connection was closed before the admin service answered",
        Code.Unavailable,
        ce.metadata,
        undefined,
        ce,
      );
    }
    const code = resetStatus(ce) ??
      (errorCodes(ce).some((c) => BROKEN_CONNECTION_CODES.has(c)) ? Code.Unavailable : undefined);
    if (code === undefined || code === ce.code) throw err;
    throw new ConnectError(ce.rawMessage, code, ce.metadata, undefined, ce);
  }
};

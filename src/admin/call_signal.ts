/**
 * A call's abort signal ({@link CallOptions.signal}), applied inside Connect's interceptor chain instead of by
 * Connect itself.
 *
 * Connect answers every failure of a call whose own signal has aborted with `Canceled`, whatever the failure
 * was. A call that waits on a sign-in (Pkce, DeviceFlow) fails with the flow's own error when the user presses
 * Ctrl-C ("interrupted while waiting for the sign-in"), and that message must survive. So the caller's signal
 * travels as a context value, and the outermost interceptor links it to the request's signal: the transport,
 * the retries' waits and every interceptor see it abort, and the call's error is `Canceled` unless it is one of
 * fctl's own errors.
 *
 * @module
 */
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { FctlError } from "../errors.ts";

/** The caller's abort signal of one call, if it gave one. */
export const CALL_SIGNAL = createContextKey<AbortSignal | undefined>(undefined, { description: "fctl call signal" });

/** Whether `err` is, or is Connect's wrapping of, one of fctl's own errors (which name their cause better). */
function isFctlError(err: unknown): boolean {
  return err instanceof FctlError || (err instanceof ConnectError && err.cause instanceof FctlError);
}

/** The interceptor applying {@link CALL_SIGNAL}; it must come first (outermost). */
export const callSignalInterceptor: Interceptor = (next) => (req) => {
  const signal = req.contextValues.get(CALL_SIGNAL);
  // Most calls have no signal of their own (a registration's creates): no extra async step for them.
  return signal ? withCallSignal(next, req, signal) : next(req);
};

/** Runs `req` with `signal` linked to its own (see the module doc). */
async function withCallSignal(
  next: Parameters<Interceptor>[0],
  req: Parameters<Parameters<Interceptor>[0]>[0],
  signal: AbortSignal,
) {
  const linked = new AbortController();
  const callSignal = req.signal;
  // Connect aborts its own signal when the call ends, however it ends: that unhooks the caller's signal.
  const onAbort = function (this: AbortSignal) {
    if (!linked.signal.aborted) linked.abort(this.reason);
    signal.removeEventListener("abort", onAbort);
    callSignal.removeEventListener("abort", onAbort);
  };
  for (const source of [signal, callSignal]) {
    if (source.aborted) {
      onAbort.call(source);
      break;
    }
    source.addEventListener("abort", onAbort);
  }
  try {
    return await next({ ...req, signal: linked.signal });
  } catch (err) {
    if (signal.aborted && !isFctlError(err)) throw ConnectError.from(signal.reason, Code.Canceled);
    throw err;
  }
}

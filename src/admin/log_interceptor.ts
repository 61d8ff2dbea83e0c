/**
 * Debug records of every admin call: the RPC, how long it took and how it ended. Never headers or
 * messages: they can carry tokens and user data.
 *
 * @module
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "../log/logger.ts";

/** An interceptor that logs each call attempt at debug level. */
export function logInterceptor(log: Logger): Interceptor {
  // Below debug level the call goes straight to `next`: no extra async step per call.
  return (next) =>
    !log.enabled(5) ? next : async (req) => {
      const started = performance.now();
      const rpc = req.method.name;
      try {
        const res = await next(req);
        log.debug("admin call", { rpc, status: "OK", ms: Math.round(performance.now() - started) });
        return res;
      } catch (err) {
        // Named as in the error lines (`Unauthenticated`), not by number.
        const status = Code[ConnectError.from(err).code];
        log.debug("admin call failed", { rpc, status, ms: Math.round(performance.now() - started) });
        throw err;
      }
    };
}

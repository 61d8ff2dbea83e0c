/**
 * The gRPC `User-Agent` fctl sends: `fctl/<version>` before Connect's own token, so an admin's access logs
 * and proxies can tell fctl's calls (and which release made them) from other clients'.
 *
 * @module
 */
import type { Interceptor } from "@connectrpc/connect";
import { VERSION } from "../version.ts";

/** fctl's product token, `fctl/0.1.0`. */
export const USER_AGENT_PRODUCT = `fctl/${VERSION}`;

/** Puts {@link USER_AGENT_PRODUCT} first in every call's `User-Agent`, keeping what the transport names itself. */
export const userAgentInterceptor: Interceptor = (next) => (request) => {
  const transport = request.header.get("User-Agent");
  request.header.set("User-Agent", transport ? `${USER_AGENT_PRODUCT} ${transport}` : USER_AGENT_PRODUCT);
  return next(request);
};

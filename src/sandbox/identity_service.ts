/**
 * The production profile's `IdentityService` (who the caller's token belongs to, as FlyteAdmin answers
 * `UserInfo`), and the check of an identity-aware proxy in front of the admin (`proxy-authorization`).
 *
 * @module
 */
import { Code, ConnectError, type Interceptor, type ServiceImpl } from "@connectrpc/connect";
import type { IdentityService } from "../../proto/gen/flyteidl/service/identity_pb.ts";
import type { TokenIssuer } from "./oauth_server.ts";

/** `UserInfo` answers the subject of the bearer token in `metadataKey` (the signed-in user, else the client). */
export function createIdentityService(
  issuer: TokenIssuer,
  metadataKey: string,
): Partial<ServiceImpl<typeof IdentityService>> {
  return {
    userInfo: (_request, context) => {
      const bearer = /^Bearer\s+(\S+)$/i.exec(context.requestHeader.get(metadataKey) ?? "");
      const subject = bearer ? issuer.subject(bearer[1]) : undefined;
      // The token check before the service already rejected calls without a valid token.
      if (!subject) throw new ConnectError("no valid bearer token", Code.Unauthenticated);
      return { subject, name: subject, preferredUsername: subject };
    },
  };
}

/**
 * Rejects every call whose `proxy-authorization` is not `expected`, as an identity-aware proxy (GCP's IAP) does:
 * HTTP 401 before the admin sees the call, which a gRPC client reads as UNAUTHENTICATED, whatever the service
 * (AuthMetadataService, which FlyteAdmin serves without credentials, included).
 */
export function requireProxyAuthorization(expected: string): Interceptor {
  return (next) => async (request) => {
    const value = request.header.get("proxy-authorization");
    if (value !== expected) {
      throw new ConnectError(
        `Invalid IAP credentials: ${value ? "invalid token" : "empty token"}`,
        Code.Unauthenticated,
      );
    }
    return await next(request);
  };
}

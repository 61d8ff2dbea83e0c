/**
 * FlyteAdmin's auth on the sandbox's gRPC port: `AuthMetadataService` (anonymous, as FlyteAdmin serves it)
 * points clients at the authorization server, and an interceptor answers every AdminService and
 * DataProxyService call without a valid `Bearer` token in the advertised metadata key with UNAUTHENTICATED.
 *
 * @module
 */
import { Code, ConnectError, type Interceptor, type ServiceImpl } from "@connectrpc/connect";
import type { AuthMetadataService } from "../../proto/gen/flyteidl/service/auth_pb.ts";
import { CALLER } from "./caller.ts";
import { authorizationServerMetadata, type TokenIssuer } from "./oauth_server.ts";

/** What the admin service advertises about its auth. */
export interface AdvertisedAuth {
  /** The authorization server's issuer URL. */
  issuer: string;
  /** Public client id (for the browser flows) and redirect URI. */
  clientId: string;
  redirectUri: string;
  scopes: string[];
  /** The gRPC metadata key that carries `Bearer <token>`. */
  authorizationMetadataKey: string;
  audience: string;
}

/** The AuthMetadataService implementation. */
export function createAuthMetadataService(
  advertised: AdvertisedAuth,
): Partial<ServiceImpl<typeof AuthMetadataService>> {
  return {
    getOAuth2Metadata: () => {
      const metadata = authorizationServerMetadata(advertised.issuer);
      return {
        issuer: metadata.issuer,
        authorizationEndpoint: metadata.authorization_endpoint,
        tokenEndpoint: metadata.token_endpoint,
        deviceAuthorizationEndpoint: metadata.device_authorization_endpoint,
        responseTypesSupported: metadata.response_types_supported,
        scopesSupported: metadata.scopes_supported,
        tokenEndpointAuthMethodsSupported: metadata.token_endpoint_auth_methods_supported,
        jwksUri: metadata.jwks_uri,
        codeChallengeMethodsSupported: metadata.code_challenge_methods_supported,
        grantTypesSupported: metadata.grant_types_supported,
      };
    },
    getPublicClientConfig: () => ({
      clientId: advertised.clientId,
      redirectUri: advertised.redirectUri,
      scopes: advertised.scopes,
      authorizationMetadataKey: advertised.authorizationMetadataKey,
      audience: advertised.audience,
    }),
  };
}

/** The services that require a token; AuthMetadataService stays anonymous. */
const PROTECTED = new Set([
  "flyteidl.service.AdminService",
  "flyteidl.service.DataProxyService",
  "flyteidl.service.IdentityService",
]);

/**
 * Answers calls of the protected services without a valid token in `metadataKey` with UNAUTHENTICATED; a call with
 * one carries its subject as the {@link CALLER}.
 */
export function requireToken(issuer: TokenIssuer, metadataKey: string): Interceptor {
  return (next) => async (request) => {
    if (PROTECTED.has(request.service.typeName)) {
      const value = request.header.get(metadataKey) ?? "";
      const bearer = /^Bearer\s+(\S+)$/i.exec(value);
      if (!bearer) {
        throw new ConnectError(`no bearer token in the "${metadataKey}" metadata`, Code.Unauthenticated);
      }
      const subject = issuer.subject(bearer[1]);
      if (subject === undefined) {
        throw new ConnectError("the bearer token is invalid, expired or revoked", Code.Unauthenticated);
      }
      // FlyteAdmin's identity context: the managers record its user id (the token's subject) as the principal.
      request.contextValues.set(CALLER, subject);
    }
    return await next(request);
  };
}

/**
 * What the interactive flows (Pkce, DeviceFlow) share: the admin's public client (no secret) at the
 * discovered authorization server, oauth4webapi's view of both, requests through the run's HTTP client, and
 * the refresh grant that spares the user a new sign-in when a refresh token is there.
 *
 * @module
 */
import * as oauth from "oauth4webapi";
import { OperationError } from "../errors.ts";
import { shownUrl } from "../log/shown_url.ts";
import type { TextSink } from "../output/io.ts";
import { refreshGrant } from "./client_secret.ts";
import type { Discovery } from "./discovery.ts";
import type { AuthSettings } from "./settings.ts";
import type { Token } from "./tokens.ts";
import type { Sleep } from "./wait.ts";

/** What an interactive flow uses. */
export interface InteractiveFlowDeps {
  settings: AuthSettings;
  discovery: Discovery;
  /** The run's HTTP client's fetch. */
  fetch: typeof fetch;
  /** Codes, verifiers and device codes are registered here as soon as they exist. */
  secrets: { add(secret: string | undefined): void };
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Where the user is told what to do (stderr, redacted). */
  prompt: TextSink;
  /** The run's abort signal: Ctrl-C ends every wait. */
  signal: AbortSignal;
  sleep: Sleep;
}

/** The public client at the authorization server, ready for oauth4webapi. */
export interface PublicClientSession {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  options: oauth.TokenEndpointRequestOptions;
  /** The advertised redirect URI (empty when none). */
  redirectUri: string;
  /** The token endpoint without its query, for messages. */
  where: string;
}

/** The endpoint a flow cannot do without, and what it is called in messages. */
const ENDPOINT_NAMES = {
  authorizationEndpoint: "authorization endpoint",
  deviceAuthorizationEndpoint: "device authorization endpoint",
} as const;

/** The public client of `flow`, which needs the authorization server's `endpoint`. */
export async function publicClientSession(
  deps: InteractiveFlowDeps,
  flow: string,
  endpoint: keyof typeof ENDPOINT_NAMES,
): Promise<PublicClientSession> {
  const [server, config] = await Promise.all([
    deps.discovery.interactiveServer(),
    deps.discovery.publicClientConfig(),
  ]);
  if (!config.clientId) {
    throw new OperationError(`the admin service advertises no public client id: admin.authType ${flow} cannot be used`);
  }
  if (!server[endpoint]) {
    throw new OperationError(
      `the authorization server advertises no ${ENDPOINT_NAMES[endpoint]}: admin.authType ${flow} cannot be used`,
    );
  }
  if (!server.tokenEndpoint) {
    throw new OperationError("the admin service advertises no token endpoint; set admin.tokenUrl");
  }
  const as: oauth.AuthorizationServer = {
    issuer: server.issuer ?? new URL(server.tokenEndpoint).origin,
    token_endpoint: server.tokenEndpoint,
    authorization_endpoint: server.authorizationEndpoint,
    device_authorization_endpoint: server.deviceAuthorizationEndpoint,
  };
  const plainHttp = [server.tokenEndpoint, server[endpoint]!].some((url) => url.startsWith("http:"));
  return {
    as,
    client: { client_id: config.clientId },
    options: {
      [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<"POST", URLSearchParams>) =>
        deps.fetch(url, init),
      // A plain-HTTP authorization server is the user's choice (a local sandbox), as flytectl allows it.
      [oauth.allowInsecureRequests]: plainHttp,
    },
    redirectUri: config.redirectUri,
    where: shownUrl(server.tokenEndpoint),
  };
}

/** {@link refreshGrant} for the public client (no client authentication): a refused one means a new sign-in. */
export function refreshPublic(
  session: PublicClientSession,
  previous: Token | undefined,
  now: () => number,
  renewedElsewhere?: () => Promise<Token | undefined>,
): Promise<Token | undefined> {
  const { as, client, options } = session;
  return refreshGrant({ as, client, auth: oauth.None(), options }, previous, now, renewedElsewhere);
}

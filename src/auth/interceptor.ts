/**
 * The admin client's auth, as a Connect interceptor, lazy and driven by the admin service: a fresh cached token
 * is sent up front; a call answered UNAUTHENTICATED triggers discovery and a token (one fetch shared by the
 * calls in flight), then exactly one retry with it. Against an admin without auth it costs nothing: no
 * discovery, no token request, no OAuth code loaded. AuthMetadataService calls (discovery itself) pass through.
 *
 * @module
 */
import {
  Code,
  ConnectError,
  type Interceptor,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { ConnectionDescription } from "../admin/errors.ts";
import { OAUTH_ANSWER_MAX_BYTES, withMaxBodyBytes } from "../http/bounded_body.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Logger } from "../log/logger.ts";
import { quote } from "../errors.ts";
import { Discovery } from "./discovery.ts";
import { checkHeaderToken, headerTokenProblem } from "./header_token.ts";
import type { CommandRunner } from "./external_command.ts";
import type { InteractiveIo } from "./interactive.ts";
import { type AuthSettings, cachesTokens } from "./settings.ts";
import { isDiscoveryCall, type LoadedAuthSession, type NextCall } from "./deferred_session.ts";
import { type Token, TokenManager, type TokenSource, type TokenStore } from "./tokens.ts";

/** What the auth interceptor uses. */
export interface AuthInterceptorOptions {
  settings: AuthSettings;
  /**
   * The admin client's transport and connection, for AuthMetadataService; asked on first need, as the client
   * is built after its interceptors.
   */
  admin: () => { transport: Transport; connection: ConnectionDescription };
  /** The run's HTTP client (CA, proxy), for token requests. */
  http: () => Promise<HttpClient>;
  /** The run's environment (`admin.clientSecretEnvVar`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads `admin.clientSecretLocation`. */
  readTextFile: (path: string) => Promise<string>;
  /** Runs `admin.command` (ExternalCommand). */
  runCommand: CommandRunner;
  /** The run's abort signal: Ctrl-C ends `admin.command` while it runs, and discovery's calls. */
  signal?: AbortSignal;
  /** Every secret and token is registered here before use. */
  secrets: { add(secret: string | undefined): void };
  logger: Logger;
  /**
   * Where the tokens of flows that issue expiring tokens (ClientSecret, Pkce, DeviceFlow) are kept between
   * runs; default none (memory only). ExternalCommand's tokens are never stored: the command is their cache.
   */
  tokenStore?: TokenStore;
  /** The user, for Pkce and DeviceFlow; without it those flows cannot run. */
  interactive?: InteractiveIo;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/** The auth of one admin client: its interceptor and its flow, sharing one token. */
export function authSession(options: AuthInterceptorOptions): LoadedAuthSession {
  const { settings, logger: log } = options;
  const now = options.now ?? Date.now;
  const discovery = new Discovery({
    settings,
    calls: async () => {
      const { authMetadataCalls } = await import("./admin_metadata.ts");
      const admin = options.admin();
      return authMetadataCalls(admin.transport, admin.connection, options.signal);
    },
    fetch: async () => withMaxBodyBytes((await options.http()).fetch, OAUTH_ANSWER_MAX_BYTES),
  });
  const tokens = new TokenManager({
    source: async () => {
      const source = await tokenSource(options, discovery, now);
      // The key goes with the token, so that a stored token is sent next run without discovery. It is asked for
      // as the token is, not after it: GetPublicClientConfig then overlaps the flow's own round trips
      // (GetOAuth2Metadata, the token request, the command), and the flow finds it answered or in flight.
      return {
        fetch: async (previous, renewedElsewhere) => {
          const metadataKey = discovery.metadataKey();
          // The token's failure is the one to report; the key's is observed below, once the token is there.
          metadataKey.catch(() => {});
          const token = await source.fetch(previous, renewedElsewhere);
          // Refused before it is kept or stored: the run's error says why, and the next run asks again.
          checkHeaderToken(token.accessToken, tokenOrigin(settings));
          // Another process's token (see TokenManager) came with its key.
          return { ...token, metadataKey: token.metadataKey ?? await metadataKey };
        },
      };
    },
    secrets: options.secrets,
    refreshWindowMs: settings.refreshWindowMs,
    now,
    store: cachesTokens(settings) ? sendableTokens(options.tokenStore) : undefined,
  });
  /**
   * Puts `token` in the call's headers, and returns the header's name. The headers are the call's own (Connect
   * makes them per call), so they are set in place: a copy per call cost more than the rest of this interceptor.
   */
  const withToken = async (req: UnaryRequest, token: Token): Promise<string> => {
    const key = settings.authorizationHeader.toLowerCase() || token.metadataKey || await discovery.metadataKey();
    req.header.set(key, `Bearer ${token.accessToken}`);
    return key;
  };
  // Against an admin without auth no call ever has a token: once one found none (no cached token, none being
  // fetched, no kept failure), later calls do not ask again (a registration's creates: several promises each)
  // until this session fetches one. `fetches` tells a call whose answer predates a fetch from one that follows it.
  let tokenless = false;
  let fetches = 0;
  const fetching = () => {
    fetches++;
    tokenless = false;
  };
  const upFrontToken = async (): Promise<Token | undefined> => {
    if (tokenless) return undefined;
    const before = fetches;
    // A cached token that cannot be renewed now (its flow has no secret here, its server is gone) is no reason
    // to fail a call the admin may answer without one: the call goes without it, and only an admin that asks
    // for a token (below) gets the flow's error.
    const token = await tokens.upFront().catch(() => null);
    if (token === undefined && fetches === before) tokenless = true;
    return token ?? undefined;
  };
  /**
   * A call the admin refused as UNAUTHENTICATED, sent with `upFront` in header `sentIn` (or with no token): sent
   * once more with a token in place of that one.
   */
  const withNewToken = async (
    next: NextCall,
    req: UnaryRequest,
    upFront?: Token,
    sentIn?: string,
  ): Promise<UnaryResponse | StreamResponse> => {
    log.debug("the admin service asked for a token", {
      rpc: req.method.name,
      authType: settings.authType,
      hadToken: upFront !== undefined,
    });
    // From now on the connection has an auth flow, which error messages name.
    const connection = options.admin().connection;
    connection.authType ??= settings.authType;
    fetching();
    const token = await tokens.replace(upFront);
    // The retry carries the new token only, whatever header the rejected one went in.
    if (sentIn !== undefined) req.header.delete(sentIn);
    await withToken(req, token);
    return await next(req);
  };
  const interceptor: Interceptor = (next) => async (req) => {
    if (req.stream || isDiscoveryCall(req)) return await next(req);
    const upFront = tokenless ? undefined : await upFrontToken();
    const sentIn = upFront ? await withToken(req, upFront) : undefined;
    try {
      return await next(req);
    } catch (err) {
      if (ConnectError.from(err).code !== Code.Unauthenticated) throw err;
      return await withNewToken(next, req, upFront, sentIn);
    }
  };
  return {
    interceptor,
    login: () => {
      fetching();
      return tokens.login();
    },
    afterUnauthenticated: (next, req) => withNewToken(next, req),
  };
}

/** Where the flow's tokens come from, as an error about one names it. */
function tokenOrigin(settings: AuthSettings): string {
  return settings.authType === "ExternalCommand"
    ? `admin.command ${quote(settings.command[0] ?? "")}`
    : `the token endpoint (admin.authType ${settings.authType})`;
}

/** `store` without the stored tokens no header can carry (a cache file edited by hand): no token, the flow runs. */
function sendableTokens(store: TokenStore | undefined): TokenStore | undefined {
  if (!store) return undefined;
  return {
    load: async () => {
      const token = await store.load();
      return token && !headerTokenProblem(token.accessToken) ? token : undefined;
    },
    save: (token) => store.save(token),
  };
}

/** The configured flow, loaded on first need. */
async function tokenSource(
  options: AuthInterceptorOptions,
  discovery: Discovery,
  now: () => number,
): Promise<TokenSource> {
  const { settings } = options;
  switch (settings.authType) {
    case "ClientSecret": {
      const { clientSecretSource } = await import("./client_secret.ts");
      const http = await options.http();
      return clientSecretSource({
        settings,
        discovery,
        env: options.env,
        readTextFile: options.readTextFile,
        fetch: withMaxBodyBytes(http.fetch, OAUTH_ANSWER_MAX_BYTES),
        secrets: options.secrets,
        now,
      });
    }
    case "ExternalCommand": {
      const { externalCommandSource } = await import("./external_command.ts");
      return externalCommandSource(settings.command, options.runCommand, {
        timeoutMs: settings.commandTimeoutMs,
        signal: options.signal,
      });
    }
    case "Pkce":
    case "DeviceFlow": {
      const { interactiveSource } = await import("./interactive.ts");
      return interactiveSource({ ...options, discovery, now });
    }
  }
}

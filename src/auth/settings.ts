/**
 * The auth settings of a run, taken from the configuration once, so the flows never read it themselves.
 *
 * @module
 */
import type { Config } from "../config/schema.ts";

/** The flows `admin.authType` names. */
export type AuthType = "ClientSecret" | "Pkce" | "ExternalCommand" | "DeviceFlow";

/** What shapes discovery, token requests and the header. */
export interface AuthSettings {
  authType: AuthType;
  /** `admin.clientId`: the confidential client of ClientSecret. */
  clientId: string;
  /** `admin.clientSecretEnvVar`: the variable holding the secret; wins over {@link clientSecretLocation}. */
  clientSecretEnvVar: string;
  /** `admin.clientSecretLocation`: the file holding the secret. */
  clientSecretLocation: string;
  /** `admin.command`: ExternalCommand's program and arguments. */
  command: readonly string[];
  /** `admin.commandTimeout` in milliseconds (0: none): the longest `admin.command` may run. */
  commandTimeoutMs: number;
  /** `admin.scopes`; empty: the ones the admin advertises. */
  scopes: readonly string[];
  /** `admin.audience`. */
  audience: string;
  /** `admin.useAudienceFromAdmin`: the advertised audience wins over {@link audience}. */
  useAudienceFromAdmin: boolean;
  /** `admin.authorizationServerUrl`: where the authorization server's metadata is, instead of discovery. */
  authorizationServerUrl: string;
  /** `admin.tokenUrl`: the token endpoint, instead of the discovered one. */
  tokenUrl: string;
  /**
   * Whether the admin is reached over plaintext (`admin.insecure`, or an `http://` endpoint): then a plain-HTTP
   * authorization server is a local sandbox's, and credentials may go to it.
   */
  adminInsecure: boolean;
  /**
   * `admin.allowInsecureTokenEndpoint`: credentials may go to a plain-HTTP token endpoint (and its metadata) though
   * the admin is reached over TLS.
   */
  allowInsecureTokenEndpoint: boolean;
  /** `admin.authorizationHeader`: the metadata key of the token, instead of the advertised one. */
  authorizationHeader: string;
  /**
   * A token this close to expiry (milliseconds) is replaced before use: `admin.tokenRefreshWindow`, or the
   * flow's own `refreshTime` (`admin.pkceConfig`, `admin.deviceFlowConfig`) when that is longer.
   */
  refreshWindowMs: number;
  /** `admin.pkceConfig.timeout` in milliseconds: how long Pkce waits for the browser. */
  pkceTimeoutMs: number;
  /** `admin.deviceFlowConfig.pollInterval` in milliseconds: DeviceFlow's interval when the server names none. */
  devicePollIntervalMs: number;
  /** `admin.deviceFlowConfig.timeout` in milliseconds: how long DeviceFlow waits for the user. */
  deviceTimeoutMs: number;
}

/**
 * Whether the flow's tokens are kept in the token cache between runs: ExternalCommand's never are, its command
 * being their cache: the auth session neither stores nor reads them, and the deferred session looks for none.
 */
export function cachesTokens(settings: Pick<AuthSettings, "authType">): boolean {
  return settings.authType !== "ExternalCommand";
}

/**
 * The auth settings of a configuration; `admin.insecure` is how the admin client connects, which the configuration
 * alone does not say (an `http://` endpoint implies it, unless `admin.insecure` is set either way).
 */
export function authSettings(config: Config, admin: { insecure: boolean }): AuthSettings {
  const authType = config["admin.authType"] as AuthType;
  const flowRefreshTime = authType === "Pkce"
    ? config["admin.pkceConfig.refreshTime"]
    : authType === "DeviceFlow"
    ? config["admin.deviceFlowConfig.refreshTime"]
    : 0;
  return {
    authType,
    clientId: config["admin.clientId"],
    clientSecretEnvVar: config["admin.clientSecretEnvVar"],
    clientSecretLocation: config["admin.clientSecretLocation"],
    command: config["admin.command"],
    commandTimeoutMs: config["admin.commandTimeout"],
    scopes: config["admin.scopes"],
    audience: config["admin.audience"],
    useAudienceFromAdmin: config["admin.useAudienceFromAdmin"],
    authorizationServerUrl: config["admin.authorizationServerUrl"],
    tokenUrl: config["admin.tokenUrl"],
    adminInsecure: admin.insecure,
    allowInsecureTokenEndpoint: config["admin.allowInsecureTokenEndpoint"],
    authorizationHeader: config["admin.authorizationHeader"],
    refreshWindowMs: Math.max(config["admin.tokenRefreshWindow"], flowRefreshTime),
    pkceTimeoutMs: config["admin.pkceConfig.timeout"],
    devicePollIntervalMs: config["admin.deviceFlowConfig.pollInterval"],
    deviceTimeoutMs: config["admin.deviceFlowConfig.timeout"],
  };
}

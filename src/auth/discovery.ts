/**
 * Discovery of the admin's auth: the public client config (the metadata key, scopes, audience) and the
 * authorization server (its token endpoint), asked of the admin's `AuthMetadataService` once per process and
 * shared by concurrent callers. `admin.authorizationServerUrl` and `admin.tokenUrl` replace what the admin
 * says about the authorization server. Every flow gets its endpoints here, so the rule on plain HTTP
 * (`plain_http.ts`) is applied here, once: to the endpoints the configured flow sends credentials to, and to
 * the metadata that names them.
 *
 * @module
 */
import { OperationError, quote, UsageError } from "../errors.ts";
import { describeFetchFailure } from "../http/fetch_error.ts";
import { shownUrl } from "../log/shown_url.ts";
import { type NamedEndpoint, refusePlainHttp } from "./plain_http.ts";
import type { AuthSettings } from "./settings.ts";

/** What `GetPublicClientConfig` answers. */
export interface PublicClientConfig {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  authorizationMetadataKey: string;
  audience: string;
}

/** What fctl needs of the authorization server's metadata (RFC 8414). */
export interface AuthorizationServerInfo {
  /** The issuer, when known. */
  issuer?: string;
  tokenEndpoint: string;
  /** Where Pkce sends the browser, when known. */
  authorizationEndpoint?: string;
  /** Where DeviceFlow asks for a device code (RFC 8628), when known. */
  deviceAuthorizationEndpoint?: string;
}

/** The two AuthMetadataService calls, errors already mapped to fctl errors. */
export interface AuthMetadataCalls {
  getPublicClientConfig(): Promise<PublicClientConfig>;
  /** RFC 8414 metadata; empty fields when the admin leaves them out. */
  getOAuth2Metadata(): Promise<
    { issuer: string; tokenEndpoint: string; authorizationEndpoint: string; deviceAuthorizationEndpoint: string }
  >;
}

/** What discovery uses. */
export interface DiscoveryDeps {
  settings: AuthSettings;
  /** The admin's AuthMetadataService, made on first use. */
  calls: () => Promise<AuthMetadataCalls>;
  /** The run's HTTP client (CA, proxy), for `admin.authorizationServerUrl`. */
  fetch: () => Promise<typeof fetch>;
}

/** The authorization server's metadata and who gave it, as refusals name it. */
interface ServerMetadata {
  server: AuthorizationServerInfo;
  advertisedBy: string;
}

/** The options that name the authorization server's endpoints instead of the admin. */
export type ServerUrlOption = "admin.tokenUrl" | "admin.authorizationServerUrl";

/** What a flow does with the token endpoint, as a plain-HTTP refusal says it. */
export const TOKEN_ENDPOINT_ACTION = "send credentials to the token endpoint";

/** What discovery does with `admin.authorizationServerUrl`, as a plain-HTTP refusal says it. */
export const METADATA_ACTION = "read the authorization server metadata (where credentials go) at";

/** The metadata key the admin reads tokens from when it does not say. */
export const DEFAULT_METADATA_KEY = "flyte-authorization";

/** Lazy, memoized discovery. */
export class Discovery {
  readonly #deps: DiscoveryDeps;
  #client?: Promise<PublicClientConfig>;
  #server?: Promise<AuthorizationServerInfo>;
  #metadata?: Promise<ServerMetadata>;

  constructor(deps: DiscoveryDeps) {
    this.#deps = deps;
  }

  /** The admin's public client config, asked once. */
  publicClientConfig(): Promise<PublicClientConfig> {
    this.#client ??= this.#deps.calls().then((calls) => calls.getPublicClientConfig());
    return this.#client;
  }

  /** The header that carries the token: `admin.authorizationHeader`, else the advertised key. */
  async metadataKey(): Promise<string> {
    const configured = this.#deps.settings.authorizationHeader;
    if (configured) return configured.toLowerCase();
    return (await this.publicClientConfig()).authorizationMetadataKey.toLowerCase() || DEFAULT_METADATA_KEY;
  }

  /** The authorization server, asked once (of the admin, or of `admin.authorizationServerUrl`). */
  authorizationServer(): Promise<AuthorizationServerInfo> {
    this.#server ??= this.#discoverServer();
    return this.#server;
  }

  /**
   * The authorization server with the endpoints of the interactive flows (Pkce, DeviceFlow), asked once:
   * `admin.tokenUrl` replaces only its token endpoint.
   */
  async interactiveServer(): Promise<AuthorizationServerInfo> {
    const { tokenUrl } = this.#deps.settings;
    const token = tokenUrl ? checkedServerUrl(tokenUrl, "admin.tokenUrl") : undefined;
    this.#metadata ??= this.#serverMetadata(token === undefined);
    const { server, advertisedBy } = await this.#metadata;
    const interactive = token ? { ...server, tokenEndpoint: token } : server;
    this.#refusePlainHttp(interactive, advertisedBy, token !== undefined);
    return interactive;
  }

  async #discoverServer(): Promise<AuthorizationServerInfo> {
    const { tokenUrl } = this.#deps.settings;
    if (tokenUrl) {
      const server = { tokenEndpoint: checkedServerUrl(tokenUrl, "admin.tokenUrl") };
      this.#refusePlainHttp(server, "", true);
      return server;
    }
    const { server, advertisedBy } = await (this.#metadata ??= this.#serverMetadata(true));
    this.#refusePlainHttp(server, advertisedBy, false);
    return server;
  }

  /**
   * Throws unless the endpoints of `server` the configured flow sends credentials to may be used (`plain_http.ts`):
   * the token endpoint, and DeviceFlow's device authorization endpoint. Pkce's authorization endpoint is not one:
   * the browser goes there, and the code it brings back is worthless without the verifier, sent to the token
   * endpoint. `advertisedBy`: who gave the metadata; `tokenUrl`: the token endpoint is `admin.tokenUrl`'s.
   */
  #refusePlainHttp(server: AuthorizationServerInfo, advertisedBy: string, tokenUrl: boolean): void {
    const { settings } = this.#deps;
    const from: NamedEndpoint["from"] = tokenUrl ? { option: "admin.tokenUrl" } : { advertisedBy };
    refusePlainHttp({ url: server.tokenEndpoint, action: TOKEN_ENDPOINT_ACTION, from }, settings);
    const device = server.deviceAuthorizationEndpoint;
    if (settings.authType === "DeviceFlow" && device) {
      refusePlainHttp(
        { url: device, action: "send credentials to the device authorization endpoint", from: { advertisedBy } },
        settings,
      );
    }
  }

  /** The authorization server's metadata, from `admin.authorizationServerUrl` else the admin service. */
  async #serverMetadata(needsTokenEndpoint: boolean): Promise<ServerMetadata> {
    const { authorizationServerUrl } = this.#deps.settings;
    if (authorizationServerUrl) {
      const base = checkedServerUrl(authorizationServerUrl, "admin.authorizationServerUrl");
      return { server: await this.#wellKnown(base), advertisedBy: `the metadata at ${wellKnownUrl(base, true)}` };
    }
    const metadata = await (await this.#deps.calls()).getOAuth2Metadata();
    if (!metadata.tokenEndpoint && needsTokenEndpoint) {
      throw new OperationError("the admin service advertises no token endpoint; set admin.tokenUrl");
    }
    const server = {
      issuer: metadata.issuer || undefined,
      tokenEndpoint: metadata.tokenEndpoint,
      authorizationEndpoint: metadata.authorizationEndpoint || undefined,
      deviceAuthorizationEndpoint: metadata.deviceAuthorizationEndpoint || undefined,
    };
    return { server, advertisedBy: "the admin service" };
  }

  /**
   * The metadata at `<url>/.well-known/oauth-authorization-server`, as flytectl reads it, else (answered 404) at
   * `<url>/.well-known/openid-configuration`; never over plain HTTP unless credentials may go that way too:
   * whoever rewrites it chooses where they go.
   */
  async #wellKnown(base: string): Promise<AuthorizationServerInfo> {
    refusePlainHttp(
      {
        url: base,
        action: METADATA_ACTION,
        from: { option: "admin.authorizationServerUrl" },
      },
      this.#deps.settings,
    );
    const shown = wellKnownUrl(base, true);
    const fetch = await this.#deps.fetch();
    let body: {
      issuer?: unknown;
      token_endpoint?: unknown;
      authorization_endpoint?: unknown;
      device_authorization_endpoint?: unknown;
    };
    const read = async (url: string) => {
      const response = await fetch(url, { headers: { accept: "application/json" } });
      if (!response.ok) {
        await response.body?.cancel();
        throw new MetadataStatus(response.status);
      }
      return await response.json();
    };
    try {
      try {
        body = await read(wellKnownUrl(base, false));
      } catch (err) {
        // Azure AD and Google publish only OpenID Connect's discovery document, which names the same endpoints.
        if (!(err instanceof MetadataStatus && err.status === 404)) throw err;
        try {
          body = await read(wellKnownUrl(base, false, OPENID_CONFIGURATION));
        } catch (openIdErr) {
          const reason = `${describeFetchFailure(err)} (nor at .../${OPENID_CONFIGURATION}: ${
            describeFetchFailure(openIdErr)
          })`;
          throw new OperationError(`cannot read the authorization server metadata at ${shown}: ${reason}`, {
            cause: openIdErr,
          });
        }
      }
    } catch (err) {
      if (err instanceof OperationError) throw err;
      const reason = describeFetchFailure(err);
      throw new OperationError(`cannot read the authorization server metadata at ${shown}: ${reason}`, {
        cause: err,
      });
    }
    if (typeof body.token_endpoint !== "string" || !body.token_endpoint) {
      throw new OperationError(`the authorization server metadata at ${shown} names no token_endpoint`);
    }
    const text = (value: unknown) => typeof value === "string" && value ? value : undefined;
    return {
      issuer: text(body.issuer),
      tokenEndpoint: body.token_endpoint,
      authorizationEndpoint: text(body.authorization_endpoint),
      deviceAuthorizationEndpoint: text(body.device_authorization_endpoint),
    };
  }
}

/** RFC 8414's well-known name of an authorization server's metadata. */
const OAUTH_AUTHORIZATION_SERVER = ".well-known/oauth-authorization-server";

/** OpenID Connect Discovery's well-known name of a provider's metadata (the same endpoints, more besides). */
const OPENID_CONFIGURATION = ".well-known/openid-configuration";

/** A metadata document answered with an HTTP error status. */
class MetadataStatus extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/**
 * Where the metadata of the authorization server at `base` is (`name`: RFC 8414's well-known name, or OpenID
 * Connect's); `shown`: as messages say it, without the query or user information of `base`.
 */
function wellKnownUrl(base: string, shown: boolean, name = OAUTH_AUTHORIZATION_SERVER): string {
  return `${(shown ? shownUrl(base) : base).replace(/\/+$/, "")}/${name}`;
}

/**
 * `value` of `option` (`admin.tokenUrl`, `admin.authorizationServerUrl`), checked: an http(s) URL. The rule of
 * both options, applied when discovery uses them and by `config validate`.
 *
 * @throws {UsageError} it is not one; the message shows it without its query or user information
 */
export function checkedServerUrl(value: string, option: ServerUrlOption): string {
  if (!/^https?:$/.test(URL.parse(value)?.protocol ?? "")) {
    throw new UsageError(`invalid ${option} ${quote(shownUrl(value))}: expected an https:// (or http://) URL`);
  }
  return value;
}

/** The innermost message of an error chain (fetch hides the real cause one level down). */
export function causeOf(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e.message) message = e.message;
  }
  return message;
}

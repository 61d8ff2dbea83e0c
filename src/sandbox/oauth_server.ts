/**
 * The sandbox's OAuth 2 authorization server, as FlyteAdmin's production deployments have one: real HTTP(S)
 * on loopback with RFC 8414 metadata at `/.well-known/oauth-authorization-server`, a token endpoint for the
 * `client_credentials` and `refresh_token` grants (client id and secret by HTTP Basic, or in the form), the
 * interactive grants of the public client (authorization code with PKCE, device code: see
 * `interactive_grants.ts`), and RFC 7009 revocation. Access tokens are opaque random strings, or signed JWTs when told
 * (RFC 9068), that expire on the sandbox clock; the admin service asks {@link TokenIssuer.valid} about the ones it
 * receives. Answers carry an OpenID Connect id_token as providers add one, signed with an algorithm other than
 * RS256 unless told otherwise (`jwt.ts`): clients must cope with any. Every token request is recorded for tests.
 *
 * @module
 */

import { type BusyAnswer, type InteractiveGrants, randomText } from "./interactive_grants.ts";
import { type JwtAlgorithm, JwtSigner } from "./jwt.ts";

/**
 * One request the token endpoint answered.
 *
 * ```ts
 * import { startSandbox, type TokenRequestRecord } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox({ production: true });
 * try {
 *   // … run the code under test against sandbox.endpoint …
 *   const refreshes: TokenRequestRecord[] = sandbox.auth!.tokenRequests.filter((r) => r.grantType === "refresh_token");
 *   console.log(refreshes.map((r) => `${r.clientId}: ${r.status}`));
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export interface TokenRequestRecord {
  /** `grant_type` as sent (empty when missing). */
  grantType: string;
  /** The client that authenticated, or tried to. */
  clientId: string;
  /** `scope` as sent, if any. */
  scope?: string;
  /** `audience` as sent, if any. */
  audience?: string;
  /** The HTTP status answered. */
  status: number;
  /** Milliseconds since the epoch, from the sandbox clock. */
  at: number;
}

/** How tokens are issued. */
export interface TokenIssuerOptions {
  /** Registered confidential clients: id → secret. */
  clients: Readonly<Record<string, string>>;
  /** Lifetime of an access token, in seconds. */
  tokenLifetimeSeconds: number;
  /** Whether token answers carry a refresh token. */
  refreshTokens: boolean;
  /** Whether a refresh grant consumes its refresh token and answers a new one (else it stays valid and none is sent). */
  rotateRefreshTokens: boolean;
  /** Access tokens as opaque random strings (default) or as RS256-signed JWTs (RFC 9068). */
  accessTokens?: "opaque" | "jwt";
  /**
   * The one way confidential clients may authenticate, as an Okta or Auth0 application is set up with one (another
   * is refused `invalid_client`); default either.
   */
  clientAuthentication?: ClientAuthentication;
  now: () => Date;
}

/**
 * How a token answer is worded: `rfc6749` (`token_type` "Bearer", `expires_in` a number, `scope` as asked);
 * `keycloak` (its realm's scopes whatever was asked, `refresh_expires_in`, `not-before-policy`); `azure-v1` (Azure AD
 * v1.0: `expires_in` and its other times as strings of digits, a `resource`, no `scope`); `dex` (`token_type`
 * "bearer" in lower case, no `scope`).
 */
export type TokenAnswerDialect = "rfc6749" | "keycloak" | "azure-v1" | "dex";

/** How a confidential client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export type ClientAuthentication = "client_secret_basic" | "client_secret_post";

/**
 * Who a token was issued to: the client, and the subject it speaks for (the user an interactive grant signed in, as
 * an identity provider's tokens name the user; the client itself for client credentials).
 */
interface Grantee {
  clientId: string;
  subject: string;
}

/** An issued access token. */
interface AccessToken extends Grantee {
  expiresAt: number;
}

/** The tokens the authorization server issued and the admin service accepts. */
export class TokenIssuer {
  readonly #options: TokenIssuerOptions;
  readonly #access = new Map<string, AccessToken>();
  /** refresh token → whom it was issued to */
  readonly #refresh = new Map<string, Grantee>();
  /** Signs JWT access tokens and the authorization server's id_tokens. */
  readonly signer: JwtSigner = new JwtSigner();
  /** The authorization server's URL, the `iss` of its JWTs; set once it listens. */
  url = "";

  constructor(options: TokenIssuerOptions) {
    this.#options = options;
  }

  /** Whether `secret` is the secret of the registered client `clientId`, sent by an accepted `method`. */
  authenticates(clientId: string, secret: string, method?: ClientAuthentication): boolean {
    const accepted = method === undefined || (this.#options.clientAuthentication ?? method) === method;
    return accepted && Object.hasOwn(this.#options.clients, clientId) && this.#options.clients[clientId] === secret;
  }

  /**
   * Issues an access token (and a refresh token when configured, unless `refreshed` without rotation) to `clientId`
   * for `subject` (the client itself unless a user signed in); `foreign`: for another audience than the admin's,
   * which the admin refuses (a refresh gets no better one).
   */
  issue(
    clientId: string,
    refreshed = false,
    foreign = false,
    subject = clientId,
  ): { accessToken: string; refreshToken?: string; expiresIn: number } {
    const expiresIn = this.#options.tokenLifetimeSeconds;
    const now = this.#options.now().getTime();
    const accessToken = this.#options.accessTokens === "jwt"
      ? this.signer.sign("RS256", {
        iss: this.url,
        sub: subject,
        client_id: clientId,
        aud: this.url,
        iat: Math.floor(now / 1000),
        exp: Math.floor(now / 1000) + expiresIn,
        jti: randomText(""),
      }, "at+jwt")
      : randomText("at-");
    if (!foreign) this.#access.set(accessToken, { clientId, subject, expiresAt: now + expiresIn * 1000 });
    if (foreign || !this.#options.refreshTokens || (refreshed && !this.#options.rotateRefreshTokens)) {
      return { accessToken, expiresIn };
    }
    const refreshToken = randomText("rt-");
    this.#refresh.set(refreshToken, { clientId, subject });
    return { accessToken, refreshToken, expiresIn };
  }

  /**
   * Uses a refresh token of `clientId` (consumed when they rotate): the subject it was issued for, undefined when
   * unknown or another client's.
   */
  useRefreshToken(refreshToken: string, clientId: string): string | undefined {
    const grantee = this.#refresh.get(refreshToken);
    if (grantee?.clientId !== clientId) return undefined;
    if (this.#options.rotateRefreshTokens) this.#refresh.delete(refreshToken);
    return grantee.subject;
  }

  /** Whether `token` is an access token issued here, neither expired nor revoked. */
  valid(token: string): boolean {
    const entry = this.#access.get(token);
    return entry !== undefined && this.#options.now().getTime() < entry.expiresAt;
  }

  /** Whom an access token speaks for (its subject: the signed-in user, else the client), while it is valid. */
  subject(token: string): string | undefined {
    return this.valid(token) ? this.#access.get(token)?.subject : undefined;
  }

  /** Revokes every access token issued so far (refresh tokens too when `refreshTokens`). */
  revokeAll(refreshTokens: boolean): void {
    this.#access.clear();
    if (refreshTokens) this.#refresh.clear();
  }

  /** Revokes an access or refresh token; unknown tokens are ignored (RFC 7009). */
  revoke(token: string): void {
    this.#access.delete(token);
    this.#refresh.delete(token);
  }
}

/** A running authorization server. */
export interface OAuthServer {
  /** The issuer, e.g. `https://127.0.0.1:4567`: metadata is at `/.well-known/oauth-authorization-server`. */
  issuer: string;
  tokenEndpoint: string;
  close(): Promise<void>;
}

/** Where and how to serve. */
export interface OAuthServerOptions {
  hostname: string;
  /** PEM certificate and key: serve HTTPS. */
  tls?: { cert: string; key: string };
  issuer: TokenIssuer;
  /** The public client's authorization code and device code grants. */
  interactive: InteractiveGrants;
  /** Every token request is appended here. */
  requests: TokenRequestRecord[];
  /**
   * Statuses the next token requests are answered with, in order, before anything else is looked at: 502 and 504 as
   * the HTML page of the proxy in front, others as OAuth's `temporarily_unavailable`.
   */
  faults?: number[];
  /** The id_token of every grant's answers (`none`: no id_token); default {@link DEFAULT_ID_TOKENS}, per grant. */
  idToken?: IdTokenKind | "none";
  /**
   * Where the server's metadata is: `both` (default; RFC 8414's `/.well-known/oauth-authorization-server` and OpenID
   * Connect's `/.well-known/openid-configuration`, as Okta and Keycloak serve it), or `openid` alone (Azure AD's and
   * Google's).
   */
  metadataDocuments?: "both" | "openid";
  /** How token answers are worded, see {@link TokenAnswerDialect}; default `rfc6749`. */
  tokenAnswers?: TokenAnswerDialect;
  now: () => Date;
}

/** An id_token signed with one of these algorithms, or `malformed`: not a JWT at all. */
type IdTokenKind = JwtAlgorithm | "malformed";

const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * The id_tokens of the grants when none is configured: an OpenID provider's, signed otherwise than the RS256 a
 * client assumes when it is told nothing; the other grants' answers carry none.
 */
const DEFAULT_ID_TOKENS: ReadonlyMap<string, IdTokenKind> = new Map([
  ["authorization_code", "HS256"],
  [DEVICE_CODE_GRANT, "ES256"],
]);

/** What a `malformed` id_token is: two parts, no signature. */
const MALFORMED_ID_TOKEN = "sandbox.not-a-jwt";

/** The id_token of a `grantType` answer to `clientId` for `subject` (its user, or the client itself), if any. */
function idTokenOf(options: OAuthServerOptions, grantType: string, clientId: string, subject: string) {
  const kind = options.idToken ?? DEFAULT_ID_TOKENS.get(grantType) ?? "none";
  if (kind === "none") return undefined;
  if (kind === "malformed") return MALFORMED_ID_TOKEN;
  const now = Math.floor(options.now().getTime() / 1000);
  const claims = { iss: options.issuer.url, sub: subject, aud: clientId, iat: now, exp: now + 3600, auth_time: now };
  return options.issuer.signer.sign(kind, claims);
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });

const GATEWAY_REASONS: Readonly<Record<number, string>> = { 502: "Bad Gateway", 504: "Gateway Time-out" };

/** The page nginx answers for a failure of the server behind it (502, 504). */
const gatewayPage = (status: number) => {
  const title = `${status} ${GATEWAY_REASONS[status]}`;
  const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
  return new Response(page, { status, headers: { "content-type": "text/html" } });
};

const busyResponse = (busy: BusyAnswer) => new Response(busy.body, { status: busy.status, headers: busy.headers });

const oauthError = (status: number, error: string, description: string) =>
  json(status, { error, error_description: description });

/** RFC 8414 metadata of the server at `base`. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/oauth2/token`,
    device_authorization_endpoint: `${base}/oauth2/device/authorize`,
    revocation_endpoint: `${base}/oauth2/revoke`,
    jwks_uri: `${base}/oauth2/jwks`,
    response_types_supported: ["code"],
    grant_types_supported: [
      "client_credentials",
      "refresh_token",
      "authorization_code",
      "urn:ietf:params:oauth:grant-type:device_code",
    ],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    code_challenge_methods_supported: ["S256"],
    scopes_supported: ["all", "offline"],
  };
}

/** The client id and secret of a request: HTTP Basic (RFC 6749 §2.3.1, form-encoded parts), else the form. */
function clientCredentials(
  request: Request,
  form: URLSearchParams,
): { id: string; secret: string; method: ClientAuthentication } | undefined {
  const header = request.headers.get("authorization") ?? "";
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic) {
    let decoded: string;
    try {
      decoded = atob(basic[1]);
    } catch {
      return undefined;
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) return undefined;
    const part = (text: string) => decodeURIComponent(text.replace(/\+/g, " "));
    return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)), method: "client_secret_basic" };
  }
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  return id !== null && secret !== null ? { id, secret, method: "client_secret_post" } : undefined;
}

async function tokenEndpoint(request: Request, options: OAuthServerOptions): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const grantType = form.get("grant_type") ?? "";
  const client = clientCredentials(request, form);
  const record: TokenRequestRecord = {
    grantType,
    clientId: client?.id ?? form.get("client_id") ?? "",
    status: 200,
    at: options.now().getTime(),
  };
  if (form.has("scope")) record.scope = form.get("scope")!;
  if (form.has("audience")) record.audience = form.get("audience")!;
  options.requests.push(record);
  const answer = (response: Response) => {
    record.status = response.status;
    return response;
  };
  const fault = options.faults?.shift();
  if (fault !== undefined) {
    // A gateway's failure comes from the proxy in front of the server, as its HTML page; the server's own, as OAuth's.
    if (fault === 502 || fault === 504) return answer(gatewayPage(fault));
    return answer(oauthError(fault, "temporarily_unavailable", "the authorization server is busy; try again"));
  }
  const { issuer, interactive } = options;
  // A confidential client authenticates; the public client of the interactive grants names itself.
  const publicId = client ? undefined : form.get("client_id") ?? "";
  if (client ? !issuer.authenticates(client.id, client.secret, client.method) : !interactive.isPublic(publicId!)) {
    return answer(oauthError(401, "invalid_client", "client authentication failed"));
  }
  const clientId = client?.id ?? publicId!;
  let subject = clientId;
  let foreign = false;
  if (grantType === "refresh_token") {
    const refreshedFor = issuer.useRefreshToken(form.get("refresh_token") ?? "", clientId);
    if (refreshedFor === undefined) {
      return answer(oauthError(400, "invalid_grant", "the refresh token is invalid, expired or revoked"));
    }
    subject = refreshedFor;
  } else if (grantType === "authorization_code" || grantType === DEVICE_CODE_GRANT) {
    if (client) {
      return answer(oauthError(400, "unauthorized_client", `grant type "${grantType}" is for the public client`));
    }
    const outcome = grantType === DEVICE_CODE_GRANT
      ? interactive.pollDevice(form, clientId)
      : await interactive.redeemCode(form, clientId);
    if ("busy" in outcome) return answer(busyResponse(outcome.busy));
    if ("error" in outcome) return answer(oauthError(outcome.status ?? 400, outcome.error, outcome.description));
    subject = outcome.user;
    foreign = outcome.foreign ?? false;
  } else if (grantType !== "client_credentials" || !client) {
    const error = grantType === "client_credentials" ? "unauthorized_client" : "unsupported_grant_type";
    return answer(oauthError(400, error, `grant type "${grantType}" is not supported for this client`));
  }
  const token = issuer.issue(clientId, grantType === "refresh_token", foreign, subject);
  const idToken = idTokenOf(options, grantType, clientId, subject);
  return answer(json(200, {
    access_token: token.accessToken,
    ...tokenAnswerWords(options.tokenAnswers ?? "rfc6749", token.expiresIn, options.now(), form.get("scope")),
    ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
    ...(idToken ? { id_token: idToken } : {}),
  }));
}

/**
 * The members of a token answer besides its tokens, as `dialect` words them: `token_type`, `expires_in` (seconds
 * from `now`) and `scope` (the asked one, or the provider's own), with what the provider adds.
 */
function tokenAnswerWords(dialect: TokenAnswerDialect, expiresIn: number, now: Date, scope: string | null) {
  switch (dialect) {
    case "rfc6749":
      return { token_type: "Bearer", expires_in: expiresIn, ...(scope === null ? {} : { scope }) };
    case "keycloak":
      // The realm's default scopes, whatever was asked; a refresh expiry of 0 for a grant without refresh tokens.
      return {
        token_type: "Bearer",
        expires_in: expiresIn,
        refresh_expires_in: 0,
        "not-before-policy": 0,
        scope: "profile email",
      };
    case "azure-v1": {
      const at = Math.floor(now.getTime() / 1000);
      return {
        token_type: "Bearer",
        expires_in: String(expiresIn),
        ext_expires_in: String(expiresIn),
        expires_on: String(at + expiresIn),
        not_before: String(at),
        resource: "https://flyte.example.com",
      };
    }
    case "dex":
      return { token_type: "bearer", expires_in: expiresIn };
  }
}

async function deviceAuthorizationEndpoint(request: Request, options: OAuthServerOptions, base: string) {
  const answer = options.interactive.deviceAuthorization(new URLSearchParams(await request.text()), base);
  if ("busy" in answer) return busyResponse(answer.busy);
  const headers: Record<string, string> = answer.contentType ? { "content-type": answer.contentType } : {};
  return json(answer.status, answer.body, headers);
}

async function revocationEndpoint(request: Request, options: OAuthServerOptions): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const client = clientCredentials(request, form);
  if (!client || !options.issuer.authenticates(client.id, client.secret)) {
    return oauthError(401, "invalid_client", "client authentication failed");
  }
  options.issuer.revoke(form.get("token") ?? "");
  return new Response(null, { status: 200 });
}

/** Starts the authorization server on `hostname` with an ephemeral port. */
export async function startOAuthServer(options: OAuthServerOptions): Promise<OAuthServer> {
  let base = "";
  const handler = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const oauthMetadata = pathname === "/.well-known/oauth-authorization-server" &&
      (options.metadataDocuments ?? "both") === "both";
    if ((oauthMetadata || pathname === "/.well-known/openid-configuration") && request.method === "GET") {
      return json(200, authorizationServerMetadata(base));
    }
    if (pathname === "/oauth2/token" && request.method === "POST") return await tokenEndpoint(request, options);
    if (pathname === "/oauth2/authorize" && request.method === "GET") {
      return options.interactive.authorize(new URL(request.url).searchParams);
    }
    if (pathname === "/oauth2/device/authorize" && request.method === "POST") {
      return await deviceAuthorizationEndpoint(request, options, base);
    }
    if (pathname === "/oauth2/revoke" && request.method === "POST") return await revocationEndpoint(request, options);
    await request.body?.cancel();
    return oauthError(404, "not_found", `no such endpoint: ${request.method} ${pathname}`);
  };
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: options.hostname,
    port: 0,
    ...(options.tls ?? {}),
    onListen: (addr) => listening.resolve(addr as Deno.NetAddr),
  }, handler);
  const addr = await listening.promise;
  const host = options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname;
  base = `${options.tls ? "https" : "http"}://${host}:${addr.port}`;
  options.issuer.url = base;
  return { issuer: base, tokenEndpoint: `${base}/oauth2/token`, close: () => server.shutdown() };
}

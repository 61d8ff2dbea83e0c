/**
 * Starts the sandbox: an HTTP/2 gRPC server (h2c, or TLS when given a certificate) serving AdminService and
 * DataProxyService from memory, plus the HTTP server behind signed upload URLs. The production profile adds
 * TLS from a CA made at start (for gRPC and the `https://` upload URLs), and OAuth: AuthMetadataService, a token required on every call, and an
 * authorization server on loopback.
 *
 * @module
 */
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { AuthMetadataService } from "../../proto/gen/flyteidl/service/auth_pb.ts";
import { IdentityService } from "../../proto/gen/flyteidl/service/identity_pb.ts";
import { createAdminService } from "./admin_service.ts";
import { type AdvertisedAuth, createAuthMetadataService, requireToken } from "./auth_metadata.ts";
import { createDataProxyService, UploadRegistry } from "./data_proxy.ts";
import { FaultInjector, type MethodPattern } from "./faults.ts";
import { createGrpcRouter } from "./grpc_router.ts";
import { listenHttp2 } from "./http2_listener.ts";
import { createIdentityService, requireProxyAuthorization } from "./identity_service.ts";
import { recordAndInject, type RecordedRequest } from "./record_and_inject.ts";
import { type OAuthServer, startOAuthServer, TokenIssuer, type TokenRequestRecord } from "./oauth_server.ts";
import { type DeviceFlowBehaviour, type InteractiveBehaviour, InteractiveGrants } from "./interactive_grants.ts";
import { SandboxStore } from "./store.ts";
import { createTestCertificates } from "./test_ca.ts";
import { startUploadServer } from "./upload_server.ts";

export type { DeviceFlowBehaviour, InteractiveBehaviour, RecordedRequest, TokenRequestRecord };

/**
 * A production-shaped admin: TLS with a certificate from a CA made at start (needs `openssl`), and OAuth 2
 * enforced as FlyteAdmin enforces it. Every field has a default.
 *
 * ```ts
 * import { type ProductionProfile, startSandbox } from "@fctl/fctl/testing";
 *
 * const profile: ProductionProfile = {
 *   clients: { "my-service": "my-secret" },
 *   tokenLifetimeSeconds: 60,
 *   scopes: ["all", "offline"],
 *   proxyAuthorization: "Bearer iap-token",
 * };
 * const sandbox = await startSandbox({ production: profile });
 * console.log(sandbox.endpoint.startsWith("https://")); // true
 * await sandbox.close();
 * ```
 */
export interface ProductionProfile {
  /** Confidential clients of the authorization server, id → secret; default `{ flytepropeller: "…" }`. */
  clients?: Record<string, string>;
  /** Access token lifetime in seconds; default 3600. */
  tokenLifetimeSeconds?: number;
  /** Whether token answers carry refresh tokens; default true. */
  refreshTokens?: boolean;
  /** Whether refresh tokens rotate (each is used once, its answer brings a new one); default true. */
  rotateRefreshTokens?: boolean;
  /** Access tokens as opaque random strings (default) or as signed JWTs (RFC 9068), as many providers issue them. */
  accessTokens?: "opaque" | "jwt";
  /**
   * The one way confidential clients may authenticate at the token endpoint, as an Okta or Auth0 application is set
   * up with one (another is refused `invalid_client`); default either.
   */
  clientAuthentication?: "client_secret_basic" | "client_secret_post";
  /**
   * Where the authorization server's metadata is: `both` (default: RFC 8414's and OpenID Connect's well-known
   * documents), or `openid` alone (`/.well-known/openid-configuration`, as Azure AD and Google serve it).
   */
  metadataDocuments?: "both" | "openid";
  /**
   * How token answers are worded: `rfc6749` (default), `keycloak` (its realm's scopes whatever was asked),
   * `azure-v1` (times as strings of digits, no scope) or `dex` (`token_type` "bearer").
   */
  tokenAnswers?: "rfc6749" | "keycloak" | "azure-v1" | "dex";
  /**
   * The OpenID Connect id_token of every grant's token answers: signed with one of these algorithms, `malformed`
   * (not a JWT), or `none`. Default: HS256 for the authorization code grant, ES256 for the device code grant, none
   * for the others; an admin's clients never learn the algorithm.
   */
  idToken?: "HS256" | "ES256" | "RS256" | "PS256" | "malformed" | "none";
  /** The metadata key the admin reads the token from and advertises; default `flyte-authorization`. */
  authorizationMetadataKey?: string;
  /** The advertised audience; default none. */
  audience?: string;
  /** The advertised scopes; default `["all"]`. */
  scopes?: string[];
  /** The public client of the Pkce and DeviceFlow flows, advertised by the admin; default `flytectl`. */
  publicClientId?: string;
  /** The advertised (and only registered) redirect URI; default `http://localhost:53593/callback`. */
  redirectUri?: string;
  /** The user the authorization and device endpoints sign in without asking; default `sandbox-user`. */
  user?: string;
  /** The authorization endpoint refuses the sign-in (`access_denied`) instead of approving it. */
  denyAuthorization?: boolean;
  /** How device codes behave; default approved at the first poll, a 5 s interval. */
  deviceFlow?: DeviceFlowBehaviour;
  /**
   * The `proxy-authorization` value an identity-aware proxy in front of the admin requires on every call
   * (e.g. `Bearer iap-token`); a call without it fails PERMISSION_DENIED before anything else. Default none.
   */
  proxyAuthorization?: string;
  /**
   * The issuer the admin advertises (its endpoints below it: `/oauth2/token`, …) instead of the authorization
   * server's own, e.g. a plain-HTTP server's, to see what a client sends where a hostile admin points it.
   */
  advertisedIssuer?: string;
}

/**
 * The default client of the production profile's authorization server.
 *
 * ```ts
 * import { connect } from "@fctl/fctl";
 * import { SANDBOX_CLIENT, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox({ production: true });
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
 * const flags = {
 *   "admin.endpoint": sandbox.endpoint,
 *   "admin.caCertFilePath": `${dir}/ca.pem`,
 *   "admin.authType": "ClientSecret",
 *   "admin.clientId": SANDBOX_CLIENT.id,
 *   "admin.clientSecretEnvVar": "SANDBOX_SECRET",
 * };
 * await using flyte = await connect({ flags, env: { SANDBOX_SECRET: SANDBOX_CLIENT.secret } });
 * console.log((await flyte.client.admin.getVersion({})).controlPlaneVersion);
 * await sandbox.close();
 * ```
 */
export const SANDBOX_CLIENT = { id: "flytepropeller", secret: "sandbox-client-secret-7f3a" } as const;

/**
 * The production profile's OAuth side, for tests.
 *
 * ```ts
 * import { type SandboxAuth, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox({ production: true });
 * try {
 *   const auth: SandboxAuth = sandbox.auth!;
 *   const token = auth.issueToken(); // for the default client
 *   auth.revoke(token); // the admin rejects it from now on
 *   console.log(auth.issuer, auth.tokenRequests.length);
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export interface SandboxAuth {
  /** The authorization server's issuer (`https://127.0.0.1:PORT`). */
  issuer: string;
  /** The token endpoint's URL, which clients find through discovery. */
  tokenEndpoint: string;
  /** Every request the token endpoint answered, in order. */
  tokenRequests: TokenRequestRecord[];
  /** Issues an access token to a registered client (default {@link SANDBOX_CLIENT}), as the token endpoint would. */
  issueToken(clientId?: string): string;
  /** Revokes an access or refresh token: the admin rejects it from now on. */
  revoke(token: string): void;
  /**
   * Revokes every access token issued so far, as if they had all expired; with `refreshTokens`, every refresh
   * token too, so that only a new grant gets a token.
   */
  revokeAll(options?: { refreshTokens?: boolean }): void;
  /**
   * The next `count` (default 1) token requests are answered `status` (default 503) with OAuth's
   * `temporarily_unavailable` (502 and 504: the HTML page of the proxy in front), and recorded; nothing is issued.
   */
  failNextTokenRequests(count?: number, status?: number): void;
  /**
   * How the interactive grants behave (the user, a refused sign-in, device codes), from the profile; tests
   * may change it between sign-ins. A device code behaves as this said when it was issued.
   */
  interactive: InteractiveBehaviour;
}

/**
 * How to start a sandbox.
 *
 * ```ts
 * import { type SandboxOptions, startSandbox } from "@fctl/fctl/testing";
 *
 * // An older FlyteAdmin: no DataProxy service, and slow.
 * const options: SandboxOptions = { dataProxy: false, latencyMs: 50, now: () => new Date("2026-01-01T00:00:00Z") };
 * const sandbox = await startSandbox(options);
 * console.log(sandbox.endpoint); // http://127.0.0.1:PORT
 * await sandbox.close();
 * ```
 */
export interface SandboxOptions {
  /** gRPC port; 0 or absent picks a free one. */
  port?: number;
  /** Address to listen on; default `127.0.0.1`. */
  hostname?: string;
  /** PEM certificate and key: serve gRPC over TLS (`https://` endpoint) instead of h2c. */
  tls?: { cert: string; key: string };
  /** Delay added before every RPC is handled. */
  latencyMs?: number;
  /** Clock for creation times, upload expiry and recording; default the system clock. */
  now?: () => Date;
  /** Serve as a production admin does (TLS and OAuth, see {@link ProductionProfile}); not with {@link tls}. */
  production?: ProductionProfile | true;
  /**
   * Serve the DataProxy service (signed upload URLs); default true. Without it, `CreateUploadLocation`
   * answers UNIMPLEMENTED as an older FlyteAdmin's does, and clients fall back to their own storage.
   */
  dataProxy?: boolean;
}

/**
 * A running sandbox. Close it when done: `await using` does, when the block ends however it ends.
 *
 * ```ts
 * import { createAdminClient } from "@fctl/fctl";
 * import { type Sandbox, startSandbox } from "@fctl/fctl/testing";
 * import { Code } from "@fctl/fctl/types";
 *
 * await using sandbox: Sandbox = await startSandbox();
 * await using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
 * sandbox.failNext("GetVersion", Code.Unavailable);
 * await client.admin.getVersion({}).catch((err) => console.log(err.status)); // Unavailable
 * console.log(sandbox.requests.map((request) => request.method)); // [ "GetVersion" ]
 * ```
 */
export interface Sandbox extends AsyncDisposable {
  /** What clients pass as the admin endpoint: `http://127.0.0.1:PORT`, or `https://…` with TLS. */
  endpoint: string;
  /** The gRPC port. */
  port: number;
  /**
   * Every gRPC request received, in order, including failed and injected ones; not those refused for a message
   * over 4 MiB, which (as with grpc-go) are refused before they are decoded.
   */
  requests: RecordedRequest[];
  /** native_url -> bytes successfully PUT to a signed URL. */
  uploads: Map<string, Uint8Array>;
  /** Entities, for direct seeding and inspection. */
  store: SandboxStore;
  /** Empties {@link Sandbox.requests}. */
  clearRequests(): void;
  /** Sets the delay added before every RPC is handled. */
  setLatency(ms: number): void;
  /** The next `count` (default 1) calls of `method` (`*`: any) fail with `code` before touching state. */
  failNext(method: MethodPattern, code: Code, count?: number): void;
  /** A deterministic share of calls of `method` fail with `code` (0.5: every other call, starting with the first). */
  failRatio(method: MethodPattern, code: Code, ratio: number): void;
  /**
   * The next `count` (default 1) PUTs to signed upload URLs are answered `status` (default 503, S3's Slow Down)
   * without storing anything; the URL stays good.
   */
  failNextUploads(count?: number, status?: number): void;
  /** Removes every failNext and failRatio rule. */
  clearFaults(): void;
  /** The production profile's CA certificate (PEM), which clients must trust. */
  caCertificate?: string;
  /** The production profile's authorization server and tokens. */
  auth?: SandboxAuth;
  /** Stops every server and ends open connections; safe to call twice. */
  close(): Promise<void>;
  /** {@link close}: what `await using sandbox = await startSandbox()` calls at the end of the block. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a sandbox admin service on loopback.
 *
 * ```ts
 * import { connect, getTask } from "@fctl/fctl";
 * import { startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * try {
 *   await using flyte = await connect({ flags: { "admin.endpoint": sandbox.endpoint, "admin.insecure": true }, env: {} });
 *   const result = await getTask(flyte.client, { project: "flytesnacks", domain: "development" });
 *   console.log(result.kind === "list" ? result.tasks.length : 1, sandbox.requests.length); // 0 1
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const hostname = options.hostname ?? "127.0.0.1";
  if (options.production && options.tls) throw new Error("startSandbox: production brings its own TLS; drop tls");
  const parts: Parts = {
    store: new SandboxStore(now),
    faults: new FaultInjector(),
    registry: new UploadRegistry(),
    requests: [],
    closing: new AbortController(),
  };
  parts.faults.latencyMs = options.latencyMs ?? 0;
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = () => Promise.all(stops.splice(0).map((stop) => stop()));
  try {
    const production = options.production
      ? await startProduction(options.production === true ? {} : options.production, hostname, now)
      : undefined;
    if (production) stops.push(() => production.server.close());
    const tls = production?.tls ?? options.tls;
    // The production profile's signed upload URLs are https://, from the same CA, as a cloud store's are.
    const uploadServer = await startUploadServer(parts.registry, hostname, now, production?.tls);
    stops.push(() => uploadServer.close());
    // Calls are recorded (and faults injected) before the token is checked, so tests see rejected calls too.
    const interceptors = [recordAndInject({ requests: parts.requests, faults: parts.faults, now })];
    const proxyAuthorization = production?.profile.proxyAuthorization;
    if (proxyAuthorization) interceptors.push(requireProxyAuthorization(proxyAuthorization));
    if (production) interceptors.push(requireToken(production.issuer, production.advertised.authorizationMetadataKey));
    const onRequest = createGrpcRouter({
      routes: routes(parts, now, options.dataProxy === false ? undefined : uploadServer.baseUrl, production),
      interceptors,
      shutdownSignal: parts.closing.signal,
    });
    const grpc = await listenHttp2(onRequest, { port: options.port ?? 0, hostname, tls });
    stops.push(() => grpc.close());
    const host = hostname.includes(":") ? `[${hostname}]` : hostname;
    const endpoint = `${tls ? "https" : "http"}://${host}:${grpc.port}`;
    const sandbox = sandboxApi(parts, endpoint, grpc.port, stopAll);
    if (production) {
      sandbox.caCertificate = production.tls.caCert;
      sandbox.auth = production.api;
    }
    return sandbox;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

interface Production {
  profile: ProductionProfile;
  tls: { caCert: string; cert: string; key: string };
  issuer: TokenIssuer;
  advertised: AdvertisedAuth;
  server: OAuthServer;
  api: SandboxAuth;
}

async function startProduction(profile: ProductionProfile, hostname: string, now: () => Date): Promise<Production> {
  const tls = await createTestCertificates();
  const clients = profile.clients ?? { [SANDBOX_CLIENT.id]: SANDBOX_CLIENT.secret };
  const issuer = new TokenIssuer({
    clients,
    tokenLifetimeSeconds: profile.tokenLifetimeSeconds ?? 3600,
    refreshTokens: profile.refreshTokens ?? true,
    rotateRefreshTokens: profile.rotateRefreshTokens ?? true,
    accessTokens: profile.accessTokens,
    clientAuthentication: profile.clientAuthentication,
    now,
  });
  const tokenRequests: TokenRequestRecord[] = [];
  const interactive = new InteractiveGrants(
    {
      clientId: profile.publicClientId ?? "flytectl",
      redirectUri: profile.redirectUri ?? "http://localhost:53593/callback",
    },
    {
      user: profile.user ?? "sandbox-user",
      denyAuthorization: profile.denyAuthorization ?? false,
      deviceFlow: { ...profile.deviceFlow },
    },
    now,
  );
  const tokenFaults: number[] = [];
  const server = await startOAuthServer({
    hostname,
    tls,
    issuer,
    interactive,
    requests: tokenRequests,
    faults: tokenFaults,
    idToken: profile.idToken,
    metadataDocuments: profile.metadataDocuments,
    tokenAnswers: profile.tokenAnswers,
    now,
  });
  const advertised: AdvertisedAuth = {
    issuer: profile.advertisedIssuer ?? server.issuer,
    clientId: interactive.client.clientId,
    redirectUri: interactive.client.redirectUri,
    scopes: profile.scopes ?? ["all"],
    authorizationMetadataKey: profile.authorizationMetadataKey ?? "flyte-authorization",
    audience: profile.audience ?? "",
  };
  const defaultClient = Object.keys(clients)[0];
  const api: SandboxAuth = {
    issuer: server.issuer,
    tokenEndpoint: server.tokenEndpoint,
    tokenRequests,
    issueToken: (clientId = defaultClient) => issuer.issue(clientId).accessToken,
    revoke: (token) => issuer.revoke(token),
    revokeAll: (options) => issuer.revokeAll(options?.refreshTokens ?? false),
    failNextTokenRequests: (count = 1, status = 503) => {
      for (let i = 0; i < count; i++) tokenFaults.push(status);
    },
    interactive: interactive.behaviour,
  };
  return { profile, tls, issuer, advertised, server, api };
}

/** The sandbox's state, shared by the services, the interceptor and the API. */
interface Parts {
  store: SandboxStore;
  faults: FaultInjector;
  registry: UploadRegistry;
  requests: RecordedRequest[];
  /** Aborted on close: the router then aborts every call in flight (artificial latency included) with its reason. */
  closing: AbortController;
}

function routes(
  parts: Parts,
  now: () => Date,
  uploadBaseUrl: string | undefined,
  production: Production | undefined,
): (router: ConnectRouter) => void {
  return (router) => {
    router.service(AdminService, createAdminService(parts.store));
    if (uploadBaseUrl !== undefined) {
      router.service(DataProxyService, createDataProxyService({ registry: parts.registry, now, uploadBaseUrl }));
    }
    if (production) {
      router.service(AuthMetadataService, createAuthMetadataService(production.advertised));
      router.service(
        IdentityService,
        createIdentityService(production.issuer, production.advertised.authorizationMetadataKey),
      );
    }
  };
}

function sandboxApi(parts: Parts, endpoint: string, port: number, stop: () => Promise<unknown>): Sandbox {
  const { faults, requests } = parts;
  let closed: Promise<void> | undefined;
  return {
    endpoint,
    port,
    requests,
    uploads: parts.registry.uploads,
    store: parts.store,
    clearRequests: () => void requests.splice(0),
    setLatency: (ms) => void (faults.latencyMs = ms),
    failNext: (method, code, count) => faults.failNext(method, code, count),
    failRatio: (method, code, ratio) => faults.failRatio(method, code, ratio),
    failNextUploads: (count = 1, status = 503) => parts.registry.failNext(count, status),
    clearFaults: () => faults.clear(),
    close,
    [Symbol.asyncDispose]: close,
  };

  function close(): Promise<void> {
    parts.closing.abort(new ConnectError("sandbox is closing", Code.Unavailable));
    closed ??= stop().then(() => {});
    return closed;
  }
}

/**
 * Builds the admin client a command uses from the resolved configuration: endpoint, TLS and CA,
 * proxy, retries, service config, and logging of retries. Loaded by the app (`app.ts`) on first use; it
 * loads the RPC stack itself, after it has opened the connection when the command asks for that.
 *
 * @module
 */
import type { AdminClientOptions, TransportAdminClient } from "../admin/client.ts";
import { reachedInsecurely } from "../admin/endpoint.ts";
import { adminSessions, handleArrivedIo, openAhead } from "../admin/sessions.ts";
import type { InteractiveIo } from "../auth/interactive.ts";
import type { AuthSession } from "../auth/deferred_session.ts";
import { type AuthSettings, authSettings, cachesTokens } from "../auth/settings.ts";
import { endpointKey } from "../auth/token_file.ts";
import type { TokenStore } from "../auth/tokens.ts";
import type { LoadedConfig } from "../config/load.ts";
import { parseServiceConfig } from "../config/service_config.ts";
import type { Logger } from "../log/logger.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Io } from "../output/io.ts";
import { adminRoute } from "./connection_checks.ts";
import { readCaFile } from "./read_ca.ts";
import { commandRunner } from "./run_command.ts";

/** What building the admin client uses besides the configuration. */
export interface ConnectAdminDeps {
  /** Logs retries, calls at debug level and the proxy in use. */
  logger: Logger;
  /** Where `HTTPS_PROXY`/`NO_PROXY` are read (the command's environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads the CA file and the client secret file. */
  io: Pick<Io, "readTextFile">;
  /** Every secret and token the auth flows learn is registered here. */
  secrets: { add(secret: string | undefined): void };
  /** The run's HTTP client (CA, proxy), for token requests. */
  http: () => Promise<HttpClient>;
  /**
   * Opens the connection before loading the client's modules (Connect's transport, the descriptors), so
   * that the handshakes overlap loading them: for a command that makes a call whatever happens next.
   */
  connectNow?: boolean;
  /** The user at stderr, for the sign-in of the Pkce and DeviceFlow flows. */
  interactive?: InteractiveIo;
  /** The run's abort signal: Ctrl-C ends `admin.command` and `admin.proxyCommand` while they run. */
  signal?: AbortSignal;
}

/** An admin client and its auth, for `fctl auth …`. */
export interface AdminWithAuth {
  client: TransportAdminClient;
  auth: AdminAuth;
}

/** The auth of the configured admin: what `fctl auth login|status|logout` use. */
export interface AdminAuth {
  /** `host:port`, the key of the token cache. */
  endpoint: string;
  settings: AuthSettings;
  /** `$HOME`, under which the token cache lives; undefined: no cache. */
  home: string | undefined;
  /** The token cache of this endpoint, flow and client. */
  store: TokenStore;
  session: AuthSession;
}

/** An admin client for the configured endpoint; `admin.insecure` wins over what the URL scheme implies. */
export async function connectAdmin(loaded: LoadedConfig, deps: ConnectAdminDeps): Promise<TransportAdminClient> {
  return (await connectAdminWithAuth(loaded, deps)).client;
}

/** {@link connectAdmin}, with the client's auth. */
export async function connectAdminWithAuth(loaded: LoadedConfig, deps: ConnectAdminDeps): Promise<AdminWithAuth> {
  const config = loaded.config;
  const log = deps.logger;
  const { endpoint, proxy } = adminRoute(config, deps.env);
  const insecure = reachedInsecurely(endpoint, loaded);
  const caPath = config["admin.caCertFilePath"];
  const skipVerify = config["admin.insecureSkipVerify"];
  if (skipVerify && !insecure) {
    log.configWarning("admin.insecureSkipVerify is set: the admin service's certificate is not verified");
  }
  const serviceConfigText = config["admin.defaultServiceConfig"];
  if (proxy) log.debug("connecting through proxy", { proxy: new URL(proxy).host });
  const caCertificates = caPath && !insecure ? await readCaFile(deps.io, caPath) : undefined;
  const options: AdminClientOptions = {
    endpoint: config["admin.endpoint"],
    insecure,
    caCertificates,
    insecureSkipVerify: skipVerify,
    proxy,
    // Until an auth flow has run, only an auth type the user chose says anything about the connection.
    authType: loaded.sources["admin.authType"] === "default" ? undefined : config["admin.authType"],
    maxMessageSizeBytes: config["admin.maxMessageSizeBytes"],
    retry: {
      maxAttempts: config["admin.maxRetries"],
      perAttemptTimeoutMs: config["admin.perRetryTimeout"],
      maxBackoffMs: config["admin.maxBackoffDelay"],
      serviceConfig: serviceConfigText.trim() ? parseServiceConfig(serviceConfigText) : undefined,
      onRetry: (info) =>
        log.info(`retrying ${info.rpc} after ${info.status}`, {
          attempt: info.attempt,
          maxAttempts: info.maxAttempts,
          delayMs: info.delayMs,
        }),
    },
  };
  const sessions = adminSessions(options);
  // TLS's first flight, or a proxy's CONNECT, leaves before the client's modules load, and what arrived during
  // the longest of them (Connect, its Node transport and protobuf-es) is handled next. A connection with nothing to
  // send ahead takes neither turn of the event loop, which would only leave Deno idle (about 2 ms each).
  const ahead = deps.connectNow === true && sessions.opensAhead;
  if (ahead) await openAhead(sessions);
  const clientModule = await import("../admin/client.ts");
  if (ahead) await handleArrivedIo();
  const [{ createAdminClient }, { logInterceptor }, { deferredAuthSession }, { fileTokenStore }, proxyModule] =
    await Promise.all([
      clientModule,
      import("../admin/log_interceptor.ts"),
      import("../auth/deferred_session.ts"),
      import("../auth/token_file.ts"),
      config["admin.proxyCommand"].length > 0 ? import("../auth/proxy_command.ts") : undefined,
    ]);
  // The auth session does nothing until a token is cached or the admin asks for one, and loads only then; it
  // reaches AuthMetadataService through this client's own transport.
  const settings = authSettings(config, { insecure });
  const runCommand = commandRunner(deps.env);
  const home = deps.env["HOME"] || undefined;
  const cacheKey = endpointKey(endpoint, insecure);
  const store = fileTokenStore({
    home,
    key: { endpoint: cacheKey, authType: settings.authType, clientId: settings.clientId },
    logger: log,
  });
  const session = deferredAuthSession({
    tokenStore: cachesTokens(settings) ? store : undefined,
    load: async (tokenStore) =>
      (await import("../auth/interceptor.ts")).authSession({
        settings,
        admin: () => client,
        http: deps.http,
        env: deps.env,
        readTextFile: deps.io.readTextFile,
        runCommand,
        signal: deps.signal,
        secrets: deps.secrets,
        logger: log,
        interactive: deps.interactive,
        tokenStore,
      }),
  });
  // The identity-aware proxy's header goes on every call, discovery included, so it is the outermost.
  const proxyAuth = proxyModule?.proxyCommandInterceptor({
    command: config["admin.proxyCommand"],
    runCommand,
    limits: { timeoutMs: config["admin.commandTimeout"], signal: deps.signal },
    secrets: deps.secrets,
  });
  const interceptors = [...(proxyAuth ? [proxyAuth] : []), session.interceptor, logInterceptor(log)];
  const client: TransportAdminClient = createAdminClient({ ...options, interceptors }, sessions);
  return { client, auth: { endpoint: cacheKey, settings, home, store, session } };
}

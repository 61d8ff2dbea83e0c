/**
 * An admin client with the auth interceptor, built as the CLI builds it, against a sandbox, for the auth tests.
 *
 * @module
 */
import { createAdminClient, type TransportAdminClient } from "../admin/client.ts";
import { commandRunner } from "../app/run_command.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";
import { createLogger } from "../log/logger.ts";
import { Redactor } from "../log/redact.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { deferredAuthSession } from "./deferred_session.ts";
import { type AuthInterceptorOptions, authSession } from "./interceptor.ts";
import type { InteractiveIo } from "./interactive.ts";
import type { CommandRunner } from "./external_command.ts";
import { type AuthSettings, cachesTokens } from "./settings.ts";
import type { Token, TokenStore } from "./tokens.ts";

/** The settings of an empty configuration (see `src/config/schema.ts`). */
export const DEFAULT_SETTINGS: AuthSettings = {
  authType: "ClientSecret",
  clientId: "flytepropeller",
  clientSecretEnvVar: "",
  clientSecretLocation: "/etc/secrets/client_secret",
  command: [],
  commandTimeoutMs: 60_000,
  scopes: [],
  audience: "",
  useAudienceFromAdmin: false,
  authorizationServerUrl: "",
  tokenUrl: "",
  adminInsecure: false,
  allowInsecureTokenEndpoint: false,
  authorizationHeader: "",
  refreshWindowMs: 0,
  pkceTimeoutMs: 120_000,
  devicePollIntervalMs: 5_000,
  deviceTimeoutMs: 600_000,
};

/**
 * What a test gets: the client, the redactor it fed, what was logged, how often the HTTP client was asked for,
 * and how often the auth session was loaded (it loads on first need: a cached token, or an admin asking for one).
 */
export interface AuthedClient {
  client: TransportAdminClient;
  secrets: Redactor;
  log: () => string;
  httpRequested: () => number;
  sessionLoads: () => number;
  close(): void;
}

/**
 * An admin client of `sandbox` with auth `settings` (over the defaults), the environment `env`, a clock, and
 * the user of the interactive flows (default: none) and the token cache (default: none, memory only).
 */
export function authedClient(
  sandbox: Sandbox,
  settings: Partial<AuthSettings>,
  env: Record<string, string> = {},
  now?: () => number,
  extra: { interactive?: InteractiveIo; runCommand?: CommandRunner; tokenStore?: TokenStore } = {},
): AuthedClient {
  const secrets = new Redactor();
  let logged = "";
  const logger = createLogger({
    sink: { write: (text) => void (logged += text) },
    level: 5,
    formatter: "json",
    redactor: secrets,
  });
  let http: HttpClient | undefined;
  let httpRequested = 0;
  const insecure = sandbox.endpoint.startsWith("http:");
  const authSettings = { ...DEFAULT_SETTINGS, adminInsecure: insecure, ...settings };
  let sessionLoads = 0;
  // As fctl builds it (src/app/connect_admin.ts): the auth session loads on first need.
  const { interceptor: auth } = deferredAuthSession({
    tokenStore: cachesTokens(authSettings) ? extra.tokenStore : undefined,
    load: (tokenStore) => {
      sessionLoads++;
      return Promise.resolve(authSession({ ...sessionOptions, tokenStore }));
    },
  });
  const sessionOptions: AuthInterceptorOptions = {
    settings: authSettings,
    admin: () => client,
    http: () => {
      httpRequested++;
      http ??= createHttpClient({ caCertificates: sandbox.caCertificate });
      return Promise.resolve(http);
    },
    env,
    readTextFile: (path) => Deno.readTextFile(path),
    runCommand: extra.runCommand ?? commandRunner(env),
    secrets,
    logger,
    now,
    interactive: extra.interactive,
    tokenStore: extra.tokenStore,
  };
  const client: TransportAdminClient = createAdminClient({
    endpoint: sandbox.endpoint,
    insecure,
    caCertificates: sandbox.caCertificate,
    interceptors: [auth],
  });
  return {
    client,
    secrets,
    log: () => logged,
    httpRequested: () => httpRequested,
    sessionLoads: () => sessionLoads,
    close: () => {
      client.close();
      http?.close();
    },
  };
}

/** A TCP port free at the moment (for a redirect URI the sandbox registers and fctl listens on). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** What a browser sees of a sign-in: where the authorization server sent it, and the page it ended on. */
export interface BrowserVisit {
  /** The redirect's target (with the code or error), or undefined when the server did not redirect. */
  location?: string;
  status: number;
  page: string;
}

/**
 * Does what a browser does with a sign-in URL: GET it (trusting the sandbox's CA), follow the redirect to
 * the loopback server (with `accept` as the browser's Accept header; default any type), read the page.
 */
export async function followSignIn(
  url: string,
  caCertificate: string,
  { accept = "*/*" }: { accept?: string } = {},
): Promise<BrowserVisit> {
  const client = Deno.createHttpClient({ caCerts: [caCertificate] });
  try {
    const first = await fetch(url, { client, redirect: "manual" });
    const location = first.headers.get("location") ?? undefined;
    if (!location) return { status: first.status, page: await first.text() };
    await first.body?.cancel();
    const landing = await fetch(location, { headers: { accept } });
    return { location, status: landing.status, page: await landing.text() };
  } finally {
    client.close();
  }
}

/** Resolves with the first match of `pattern` in `text()` once it appears (polling, for output written later). */
export async function waitFor(text: () => string, pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(text());
    if (match) return match;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} in ${JSON.stringify(text())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A sink that keeps what is written, for the prompts of the interactive flows. */
export function promptSink(): { write(text: string): void; text(): string } {
  let written = "";
  return { write: (text) => void (written += text), text: () => written };
}

/** A token cache shared by the processes of a test, in memory, that counts its reads. */
export function sharedStore(): TokenStore & { token?: Token; loads: number } {
  const store = {
    token: undefined as Token | undefined,
    loads: 0,
    load: () => {
      store.loads++;
      return Promise.resolve(store.token && { ...store.token });
    },
    save: (token: Token) => {
      store.token = { ...token };
      return Promise.resolve();
    },
  };
  return store;
}

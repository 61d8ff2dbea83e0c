/**
 * An admin client with the auth interceptor, built as the CLI builds it, against a sandbox, for the auth tests.
 *
 * @module
 */
import { type AdminClient, createAdminClient } from "../admin/client.ts";
import { commandRunner } from "../cli/run_command.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";
import { createLogger } from "../log/logger.ts";
import { Redactor } from "../log/redact.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { authInterceptor } from "./interceptor.ts";
import type { AuthSettings } from "./settings.ts";

/** The settings of an empty configuration (see `src/config/schema.ts`). */
export const DEFAULT_SETTINGS: AuthSettings = {
  authType: "ClientSecret",
  clientId: "flytepropeller",
  clientSecretEnvVar: "",
  clientSecretLocation: "/etc/secrets/client_secret",
  command: [],
  scopes: [],
  audience: "",
  useAudienceFromAdmin: false,
  authorizationServerUrl: "",
  tokenUrl: "",
  authorizationHeader: "",
  refreshWindowMs: 0,
};

/** What a test gets: the client, the redactor it fed, what was logged, and how often the HTTP client was asked for. */
export interface AuthedClient {
  client: AdminClient;
  secrets: Redactor;
  log: () => string;
  httpRequested: () => number;
  close(): void;
}

/** An admin client of `sandbox` with auth `settings` (over the defaults), the environment `env`, and a clock. */
export function authedClient(
  sandbox: Sandbox,
  settings: Partial<AuthSettings>,
  env: Record<string, string> = {},
  now?: () => number,
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
  const auth = authInterceptor({
    settings: { ...DEFAULT_SETTINGS, ...settings },
    admin: () => client,
    http: () => {
      httpRequested++;
      http ??= createHttpClient({ caCertificates: sandbox.caCertificate });
      return Promise.resolve(http);
    },
    env,
    readTextFile: (path) => Deno.readTextFile(path),
    runCommand: commandRunner(env),
    secrets,
    logger,
    now,
  });
  const client: AdminClient = createAdminClient({
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
    close: () => {
      client.close();
      http?.close();
    },
  };
}

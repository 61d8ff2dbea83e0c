/**
 * Builds the admin client a command uses from the resolved configuration: endpoint, TLS and CA,
 * proxy, retries, service config, and logging of retries.
 *
 * @module
 */
import { type AdminClient, createAdminClient } from "../admin/client.ts";
import { parseEndpoint } from "../admin/endpoint.ts";
import { proxyFor } from "../http/proxy_env.ts";
import type { LoadedConfig } from "../config/load.ts";
import { parseServiceConfig } from "../config/service_config.ts";
import { quote, UsageError } from "../errors.ts";
import { runtimeOf } from "./context.ts";
import { logInterceptor } from "../admin/log_interceptor.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";

function readCaFile(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    const reason = err instanceof Deno.errors.NotFound ? "no such file" : (err as Error).message;
    throw new UsageError(`cannot read admin.caCertFilePath ${quote(path)}: ${reason}`);
  }
}

/**
 * An admin client for the configured endpoint; `admin.insecure` wins over what the URL scheme implies.
 * `env` is where `HTTPS_PROXY`/`NO_PROXY` are read (the process environment of the command).
 */
export function connectAdmin(loaded: LoadedConfig, env?: Readonly<Record<string, string | undefined>>): AdminClient {
  const config = loaded.config;
  const runtime = runtimeOf(loaded);
  const insecureSet = loaded.sources["admin.insecure"] !== "default";
  const endpoint = parseEndpoint(config["admin.endpoint"]);
  const insecure = insecureSet ? config["admin.insecure"] : endpoint.schemeInsecure ?? false;
  const caPath = config["admin.caCertFilePath"];
  const skipVerify = config["admin.insecureSkipVerify"];
  if (skipVerify && !insecure) {
    runtime?.log.warn("admin.insecureSkipVerify is set: the admin service's certificate is not verified");
  }
  const serviceConfigText = config["admin.defaultServiceConfig"];
  const proxy = proxyFor(endpoint.host, endpoint.port, env ?? runtime?.env ?? {});
  if (proxy) runtime?.log.debug("connecting through proxy", { proxy: new URL(proxy).host });
  return createAdminClient({
    endpoint: config["admin.endpoint"],
    insecure,
    caCertificates: caPath && !insecure ? readCaFile(caPath) : undefined,
    insecureSkipVerify: skipVerify,
    proxy,
    // Until an auth flow has run, only an auth type the user chose says anything about the connection.
    authType: loaded.sources["admin.authType"] === "default" ? undefined : config["admin.authType"],
    interceptors: runtime ? [logInterceptor(runtime.log)] : [],
    retry: {
      maxAttempts: config["admin.maxRetries"],
      perAttemptTimeoutMs: config["admin.perRetryTimeout"],
      maxBackoffMs: config["admin.maxBackoffDelay"],
      serviceConfig: serviceConfigText.trim() ? parseServiceConfig(serviceConfigText) : undefined,
      onRetry: (info) =>
        runtime?.log.info(`retrying ${info.rpc} after ${info.status}`, {
          attempt: info.attempt,
          maxAttempts: info.maxAttempts,
          delayMs: info.delayMs,
        }),
    },
  });
}

/**
 * The command's HTTP client (downloads, the GitHub API, uploads): `admin.httpProxyURL` else the proxy
 * variables of `env`, and the CA file.
 */
export function connectHttp(loaded: LoadedConfig, env?: Readonly<Record<string, string | undefined>>): HttpClient {
  const config = loaded.config;
  const caPath = config["admin.caCertFilePath"];
  const proxy = config["admin.httpProxyURL"];
  if (proxy && !URL.canParse(proxy)) {
    throw new UsageError(`invalid admin.httpProxyURL ${quote(proxy)}: expected a URL such as http://proxy:3128`);
  }
  return createHttpClient({
    proxy: proxy || undefined,
    env: env ?? runtimeOf(loaded)?.env ?? {},
    caCertificates: caPath ? readCaFile(caPath) : undefined,
  });
}

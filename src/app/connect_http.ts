/**
 * Builds the HTTP client a command uses (downloads, the GitHub API, uploads) from the resolved
 * configuration: `admin.httpProxyURL` else the command's proxy variables, the CA file, and
 * `admin.insecureSkipVerify` (which HTTP calls cannot honour: the client warns once).
 *
 * @module
 */
import type { LoadedConfig } from "../config/load.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";
import type { Logger } from "../log/logger.ts";
import type { Io } from "../output/io.ts";
import { httpSettings } from "./http_settings.ts";

/** What building the HTTP client uses besides the configuration. */
export interface ConnectHttpDeps {
  /** Where `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` are read (the command's environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads the CA file. */
  io: Pick<Io, "readTextFile">;
  /** Where the client's warnings and retries go, and at debug level a record of every call. */
  logger?: Pick<Logger, "configWarning" | "info" | "debug" | "enabled">;
  /** The run's abort signal: Ctrl-C cancels every call. */
  signal?: AbortSignal;
}

/** The command's HTTP client. */
export async function connectHttp(loaded: LoadedConfig, deps: ConnectHttpDeps): Promise<HttpClient> {
  const config = loaded.config;
  const { proxy, caCertificates } = await httpSettings(config, deps.io);
  return createHttpClient({
    proxy,
    env: deps.env,
    caCertificates,
    insecureSkipVerify: config["admin.insecureSkipVerify"],
    // Its one warning is about admin.insecureSkipVerify: a configuration warning, shown at every level.
    warn: (message) => deps.logger?.configWarning(message),
    debug: deps.logger?.enabled(5) ? (message, fields) => deps.logger?.debug(message, fields) : undefined,
    signal: deps.signal,
    // The admin's retry settings: how many attempts a call may take, and the longest wait between them.
    retry: {
      maxAttempts: config["admin.maxRetries"],
      maxBackoffMs: config["admin.maxBackoffDelay"],
      onRetry: (info) =>
        deps.logger?.info(`retrying ${info.method} ${info.url} after ${info.reason}`, {
          attempt: info.attempt,
          maxAttempts: info.maxAttempts,
          delayMs: info.delayMs,
        }),
    },
    timeouts: {
      headersMs: config["http.headersTimeout"],
      idleMs: config["http.idleTimeout"],
      totalMs: config["storage.defaultHttpClient.timeout"],
    },
  });
}

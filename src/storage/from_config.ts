/**
 * The `storage.*` options as the storage module takes them, and whether the admin is on this machine
 * (for `storage.allow-local-fallback`). Pure: no backend is loaded here.
 *
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config/schema.ts";
import type { StorageConfig } from "./store.ts";

/** `storage.*` of a configuration, as {@link StorageConfig}, with the run's `fetch` and environment. */
export function storageConfigFrom(
  config: Config,
  runtime: { fetch?: typeof fetch; env?: Readonly<Record<string, string | undefined>> } = {},
): StorageConfig {
  return {
    type: config["storage.type"],
    container: config["storage.container"],
    multiContainer: config["storage.enable-multicontainer"],
    endpoint: config["storage.connection.endpoint"],
    // flytectl's default root of local storage when no endpoint names one.
    defaultLocalRoot: join(tmpdir(), "flyte-local-storage"),
    authType: config["storage.connection.auth-type"],
    accessKey: config["storage.connection.access-key"],
    secretKey: config["storage.connection.secret-key"],
    region: config["storage.connection.region"],
    disableSsl: config["storage.connection.disable-ssl"],
    stowKind: config["storage.stow.kind"],
    stowConfig: config["storage.stow.config"],
    timeoutMs: config["storage.defaultHttpClient.timeout"],
    // The stow google and azure SDKs make their own HTTP calls: they get the HTTP client's stall limits this way.
    headersTimeoutMs: config["http.headersTimeout"],
    idleTimeoutMs: config["http.idleTimeout"],
    cacheMaxSizeMbs: config["storage.cache.max_size_mbs"],
    cacheTargetGcPercent: config["storage.cache.target_gc_percent"],
    fetch: runtime.fetch,
    env: runtime.env,
  };
}

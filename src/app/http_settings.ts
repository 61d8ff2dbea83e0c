/**
 * The HTTP client's settings from the configuration, checked: `admin.httpProxyURL` and the CA file. Apart from the
 * client (`connect_http.ts`) so that a run that makes the client only if it uses it (a dry run of local files
 * downloads and uploads nothing) refuses the same settings up front without loading the client's modules.
 *
 * @module
 */
import type { Config } from "../config/schema.ts";
import type { Io } from "../output/io.ts";
import { configuredHttpProxy } from "./connection_checks.ts";
import { readCaFile } from "./read_ca.ts";

/** What the HTTP client is made with from the configuration, besides its time limits and retries. */
export interface HttpSettings {
  /** `admin.httpProxyURL`: the proxy of every call, or undefined for the environment's proxy variables. */
  proxy: string | undefined;
  /** The PEM text of `admin.caCertFilePath`, or undefined when unset. */
  caCertificates: string | undefined;
}

/**
 * The HTTP client's proxy and CA certificates, checked: the proxy first, then the CA file.
 *
 * @throws {UsageError} `admin.httpProxyURL` is not a URL, or the CA file cannot be read or holds no valid certificate
 */
export async function httpSettings(config: Config, io: Pick<Io, "readTextFile">): Promise<HttpSettings> {
  const proxy = configuredHttpProxy(config);
  const caPath = config["admin.caCertFilePath"];
  return { proxy, caCertificates: caPath ? await readCaFile(io, caPath) : undefined };
}

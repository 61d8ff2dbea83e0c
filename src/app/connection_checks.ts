/**
 * The rules of the connection settings, each written once: `connect_admin.ts` and `connect_http.ts` apply them
 * when they connect, and `fctl config validate` runs their checks ({@link CONNECTION_CHECKS}).
 *
 * @module
 */
import { type Endpoint, parseEndpoint } from "../admin/endpoint.ts";
import { type ConfigCheck, thrownProblems } from "../config/checks.ts";
import type { Config } from "../config/schema.ts";
import { quote, UsageError } from "../errors.ts";
import { proxyFor } from "../http/proxy_env.ts";
import { shownUrl } from "../log/shown_url.ts";
import { readCaFile } from "./read_ca.ts";

/** Where the admin is, and the proxy the environment names for it (`HTTPS_PROXY` unless `NO_PROXY`). */
export interface AdminRoute {
  endpoint: Endpoint;
  /** The proxy URL, or undefined for a direct connection. */
  proxy: string | undefined;
}

/**
 * `admin.endpoint` parsed, and its proxy from `env`.
 *
 * @throws {UsageError} the endpoint does not parse, or a proxy variable is not an http:// URL
 */
export function adminRoute(config: Config, env: Readonly<Record<string, string | undefined>>): AdminRoute {
  const endpoint = parseEndpoint(config["admin.endpoint"]);
  return { endpoint, proxy: proxyFor(endpoint.host, endpoint.port, env) };
}

/**
 * The proxies the HTTP client reaches through: HTTP (CONNECT for https:// calls), HTTP over TLS, and SOCKS5 with
 * names resolved here or by the proxy. Those Go's HTTP transport takes in flytectl's `httpProxyURL`; any other
 * scheme (`ftp://`, `socks4://`) is no proxy either can use.
 */
const HTTP_PROXY_SCHEMES: ReadonlySet<string> = new Set(["http:", "https:", "socks5:", "socks5h:"]);

/**
 * `admin.httpProxyURL`, the proxy of every HTTP call, or undefined when unset.
 *
 * @throws {UsageError} it is set and is not a URL with a host and one of the proxy schemes
 */
export function configuredHttpProxy(config: Config): string | undefined {
  const proxy = config["admin.httpProxyURL"];
  if (!proxy) return undefined;
  const url = URL.parse(proxy);
  if (!url) {
    throw new UsageError(`admin.httpProxyURL ${quote(proxy)} is not a URL: expected one such as http://proxy:3128`);
  }
  if (!HTTP_PROXY_SCHEMES.has(url.protocol) || url.hostname === "") {
    throw new UsageError(
      `admin.httpProxyURL ${quote(shownUrl(proxy))} is not a proxy URL: expected an http://, https://, socks5:// or ` +
        "socks5h:// URL with a host, such as http://proxy:3128",
    );
  }
  return proxy;
}

/**
 * Whether `admin.endpoint` is set. A configuration without it is valid, as flytectl's (a file of only `storage:`
 * or `logger:`): commands that call no admin run with it, and one that calls the admin refuses it (`adminRoute`).
 */
function adminEndpointSet(config: Config): boolean {
  return config["admin.endpoint"].trim() !== "";
}

/**
 * The endpoint, when set, parses, and the proxy variables for it are http:// URLs; unset, a note that commands
 * calling the admin need it.
 */
export const ENDPOINT_CHECK: ConfigCheck = {
  name: "admin endpoint and its proxy",
  keys: ["admin.endpoint"],
  problems: ({ loaded, env }) =>
    adminEndpointSet(loaded.config) ? thrownProblems(() => adminRoute(loaded.config, env)) : [],
  notes: ({ loaded }) =>
    adminEndpointSet(loaded.config) ? [] : [
      "no admin endpoint is configured: commands that call the admin need one " +
      "(--admin.endpoint, FCTL_ADMIN_ENDPOINT or admin.endpoint in the config file)",
    ],
};

/** The CA file reads, and every certificate in it parses: the same check as every command's. */
export const CA_FILE_CHECK: ConfigCheck = {
  name: "CA file",
  keys: ["admin.caCertFilePath"],
  problems: ({ loaded, readTextFile }) => {
    const path = loaded.config["admin.caCertFilePath"];
    return path ? thrownProblems(() => readCaFile({ readTextFile }, path)) : [];
  },
};

/** `admin.httpProxyURL` is a proxy's URL (see {@link configuredHttpProxy}). */
export const HTTP_PROXY_CHECK: ConfigCheck = {
  name: "HTTP proxy",
  keys: ["admin.httpProxyURL"],
  problems: ({ loaded }) => thrownProblems(() => configuredHttpProxy(loaded.config)),
};

/**
 * `admin.insecureSkipVerify` is about TLS: with `admin.insecure` it says nothing. Harmless when connecting (the
 * connection is plaintext), so only `config validate` reports it: it is a sign of a configuration misread.
 */
export const SKIP_VERIFY_CHECK: ConfigCheck = {
  name: "skip-verify without TLS",
  keys: ["admin.insecure", "admin.insecureSkipVerify"],
  problems: ({ loaded: { config } }) =>
    config["admin.insecure"] && config["admin.insecureSkipVerify"]
      ? ["admin.insecure and admin.insecureSkipVerify are both set: skip-verify only applies to TLS"]
      : [],
};

/** The connection's checks, in the order `config validate` lists their problems. */
export const CONNECTION_CHECKS: readonly ConfigCheck[] = [
  ENDPOINT_CHECK,
  CA_FILE_CHECK,
  HTTP_PROXY_CHECK,
  SKIP_VERIFY_CHECK,
];

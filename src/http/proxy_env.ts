/**
 * Which proxy, if any, a connection uses: `HTTPS_PROXY` (or `https_proxy`) for the gRPC connection and
 * `https://` URLs, `HTTP_PROXY` (or `http_proxy`) for `http://` URLs, unless `NO_PROXY` (or `no_proxy`)
 * excludes the host, as gRPC and curl read them.
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";

function noProxyMatches(entry: string, host: string, port: number): boolean {
  let pattern = entry.trim().toLowerCase();
  if (pattern === "") return false;
  if (pattern === "*") return true;
  const withPort = /^(.*):(\d+)$/.exec(pattern);
  if (withPort && !pattern.endsWith("]") && !/^[0-9a-f:]+$/.test(pattern)) {
    if (Number(withPort[2]) !== port) return false;
    pattern = withPort[1];
  }
  pattern = pattern.replace(/^\[|\]$/g, "").replace(/^\*?\./, ".");
  const name = host.toLowerCase();
  if (pattern.startsWith(".")) return name.endsWith(pattern) || name === pattern.slice(1);
  return name === pattern || name.endsWith(`.${pattern}`);
}

/** The proxy URL for a gRPC connection to `host:port`, or undefined for a direct connection. */
export function proxyFor(
  host: string,
  port: number,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return proxyFromEnv("HTTPS_PROXY", host, port, env);
}

/** The proxy URL for a plain HTTP call to `url`, or undefined for a direct connection. */
export function httpProxyFor(url: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const target = new URL(url);
  const https = target.protocol === "https:";
  const port = target.port ? Number(target.port) : https ? 443 : 80;
  return proxyFromEnv(https ? "HTTPS_PROXY" : "HTTP_PROXY", target.hostname.replace(/^\[|\]$/g, ""), port, env);
}

function proxyFromEnv(
  variable: "HTTPS_PROXY" | "HTTP_PROXY",
  host: string,
  port: number,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const raw = env[variable] || env[variable.toLowerCase()];
  if (!raw) return undefined;
  const noProxy = env["NO_PROXY"] ?? env["no_proxy"] ?? "";
  if (noProxy.split(",").some((entry) => noProxyMatches(entry, host, port))) return undefined;
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid ${variable} ${quote(raw)}: expected http://host:port`);
  }
  if (url.protocol !== "http:") {
    throw new UsageError(`unsupported ${variable} scheme ${quote(url.protocol)}: only http:// proxies are supported`);
  }
  return url.href;
}

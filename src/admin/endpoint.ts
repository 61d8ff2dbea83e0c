/**
 * Parsing of `admin.endpoint` in every form found in real flytectl configs.
 *
 * @module
 */
import type { LoadedConfig } from "../config/load.ts";
import { quote, UsageError } from "../errors.ts";

/**
 * A parsed admin endpoint.
 *
 * ```ts
 * import { type Endpoint, parseEndpoint } from "@fctl/fctl";
 *
 * const endpoint: Endpoint = parseEndpoint("http://localhost:30080");
 * console.log(endpoint.host, endpoint.port, endpoint.schemeInsecure); // localhost 30080 true
 * ```
 */
export interface Endpoint {
  /** Host name or IP address (IPv6 without brackets). */
  host: string;
  /** TCP port (the scheme's default when none was given). */
  port: number;
  /** Whether the URL scheme asked for plaintext (`http://`) or TLS (`https://`); undefined when none was given. */
  schemeInsecure?: boolean;
}

const FORMS = "host:port, dns:///host:port, [::1]:port, http://host:port or https://host";

/**
 * Parses `dns:///host:port` (or `dns:host:port`), `host:port`, `1.2.3.4:port`, `[::1]:port`, `http://…`, `https://…`,
 * with surrounding whitespace and trailing slashes. Without a port: 80 for `http://`, else 443.
 *
 * ```ts
 * import { parseEndpoint } from "@fctl/fctl";
 *
 * const { host, port } = parseEndpoint("dns:///flyte.example.com"); // "flyte.example.com", 443
 * parseEndpoint("http://localhost:30080").schemeInsecure; // true
 * ```
 */
export function parseEndpoint(raw: string): Endpoint {
  let text = raw.trim().replace(/\/+$/, "");
  if (text === "") {
    throw new UsageError(
      "no admin endpoint is configured; set --admin.endpoint, FCTL_ADMIN_ENDPOINT or admin.endpoint in the config file",
    );
  }
  let schemeInsecure: boolean | undefined;
  // gRPC's resolver syntax also allows `dns:host:port` without slashes.
  if (/^dns:(?!\/)/i.test(text)) text = text.slice(4);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/\/?/i.exec(text);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (name === "http") schemeInsecure = true;
    else if (name === "https") schemeInsecure = false;
    else if (name !== "dns") {
      throw new UsageError(`invalid admin endpoint ${quote(raw)}: unknown scheme ${quote(name)}; use ${FORMS}`);
    }
    text = text.slice(scheme[0].length);
  }
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:/\s[\]]+))(?::(\d{1,5}))?$/.exec(text);
  if (!match) throw new UsageError(`invalid admin endpoint ${quote(raw)}; use ${FORMS}`);
  const host = match[1] ?? match[2];
  const port = match[3] === undefined ? (schemeInsecure ? 80 : 443) : Number(match[3]);
  if (port < 1 || port > 65535) {
    throw new UsageError(`invalid admin endpoint ${quote(raw)}: port ${port} is outside 1-65535`);
  }
  if (!isDialableHost(host)) {
    throw new UsageError(`invalid admin endpoint ${quote(raw)}: ${quote(host)} is not a valid host name or IP address`);
  }
  return { host, port, schemeInsecure };
}

/**
 * Whether a URL can carry `host` as written: `999.999.999.999`, `%00` or a NUL byte cannot, and `a@b`, `a?b`
 * or `a\b` would be read as another host. Checked here so a bad value is a usage error naming it, not an
 * "Invalid URL" from the transport later.
 */
function isDialableHost(host: string): boolean {
  // Percent-escapes would be decoded to another name; the rest would end the host part of a URL.
  if (/[%@?#\\]/.test(host)) return false;
  if ([...host].some((char) => char <= " " || char === "\x7f")) return false;
  let url: URL;
  try {
    url = new URL(endpointUrl({ host, port: 1 }, true));
  } catch {
    return false;
  }
  return url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "";
}

/**
 * Whether the admin at `endpoint` is reached over plaintext: as `admin.insecure` says when it was set, else as the
 * endpoint's scheme does (`http://`), else not: TLS.
 */
export function reachedInsecurely(endpoint: Endpoint, loaded: Pick<LoadedConfig, "config" | "sources">): boolean {
  if (loaded.sources["admin.insecure"] !== "default") return loaded.config["admin.insecure"];
  return endpoint.schemeInsecure ?? false;
}

/** The base URL Connect dials for an endpoint. */
export function endpointUrl(endpoint: Endpoint, insecure: boolean): string {
  const host = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host;
  return `${insecure ? "http" : "https"}://${host}:${endpoint.port}`;
}

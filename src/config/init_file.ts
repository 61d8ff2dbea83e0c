/**
 * The text `fctl config init` writes: flytectl's `config init` file (admin endpoint, auth type, insecure,
 * console endpoint, logger), so the same file serves fctl and flytectl. Pure: no file is touched here.
 *
 * @module
 */
import { parseEndpoint } from "../admin/endpoint.ts";
import { quote, UsageError } from "../errors.ts";

/** What `config init` asks for. */
export interface InitFileOptions {
  /** The admin's host (`flyte.example.com`, `host:port`, `dns:///host:port`, `https://host`); absent: the local sandbox. */
  host?: string;
  /** Plaintext gRPC; also implied by an `http://` host and by the sandbox. */
  insecure?: boolean;
  /** The Flyte console's URL. */
  console?: string;
}

/** flytectl's sandbox endpoints, which `config init` without `--host` writes, as flytectl does. */
export const SANDBOX_ENDPOINT = "dns:///localhost:30080";
/** The sandbox's console. */
export const SANDBOX_CONSOLE = "http://localhost:30080";

/** The endpoint and insecure setting `host` stands for, in the `dns:///host:port` form both CLIs read. */
export function initEndpoint(host: string): { endpoint: string; insecure: boolean } {
  const endpoint = parseEndpoint(host);
  const address = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host;
  const explicitPort = /:\d+\/*\s*$/.test(host.trim());
  const port = endpoint.schemeInsecure === undefined && !explicitPort ? "" : `:${endpoint.port}`;
  return { endpoint: `dns:///${address}${port}`, insecure: endpoint.schemeInsecure === true };
}

/** `text` as a YAML scalar: as written when plain YAML reads it back unchanged, else double-quoted. */
function scalar(text: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9:/._\-[\]@%+~]*$/.test(text) && !/: |:$/.test(text) ? text : JSON.stringify(text);
}

/**
 * The config file for `options`.
 *
 * @throws {UsageError} the host or console URL is not one fctl can use
 */
export function initFileText(options: InitFileOptions): string {
  const sandbox = options.host === undefined;
  const { endpoint, insecure } = sandbox ? { endpoint: SANDBOX_ENDPOINT, insecure: true } : initEndpoint(options.host!);
  const console = options.console ?? (sandbox ? SANDBOX_CONSOLE : undefined);
  if (console !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(console);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new UsageError(`invalid value ${quote(console)} for --console: expected an http(s) URL`);
    }
  }
  return [
    "admin:",
    "  # For gRPC endpoints you might want to use dns:///flyte.myexample.com",
    `  endpoint: ${scalar(endpoint)}`,
    "  authType: Pkce",
    `  insecure: ${insecure || options.insecure === true}`,
    ...(console === undefined ? [] : ["console:", `  endpoint: ${scalar(console)}`]),
    "logger:",
    "  show-source: true",
    // flytectl writes 0 (panic only), which would hide every warning (an unknown key, a retry's trouble); 3
    // is warn, the default of both CLIs.
    "  level: 3",
    "",
  ].join("\n");
}

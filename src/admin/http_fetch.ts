/**
 * `fetch` for fctl's plain HTTP calls (OAuth discovery and tokens, downloads): through
 * `admin.httpProxyURL` when set, trusting `admin.caCertFilePath` in addition to the system roots.
 *
 * @module
 */

/** How HTTP calls are made. */
export interface HttpFetchOptions {
  /** `admin.httpProxyURL`: every HTTP call goes through this proxy. */
  proxy?: string;
  /** PEM CA certificates trusted in addition to the system roots. */
  caCertificates?: string;
}

/** A `fetch` with the proxy and CA applied, and a `close` that releases its connections. */
export function createHttpFetch(options: HttpFetchOptions): { fetch: typeof fetch; close: () => void } {
  if (!options.proxy && !options.caCertificates) return { fetch: globalThis.fetch, close: () => {} };
  const client = Deno.createHttpClient({
    proxy: options.proxy ? { url: options.proxy } : undefined,
    caCerts: options.caCertificates ? [options.caCertificates] : undefined,
  });
  const proxied: typeof fetch = (input, init) => fetch(input, { ...init, client });
  return { fetch: proxied, close: () => client.close() };
}

/**
 * Where `GITHUB_TOKEN` may go: GitHub's API and the hosts GitHub serves release assets from, never
 * anywhere else (a release's asset URLs are data from the API and could name any host).
 *
 * - the API's own host (`GITHUB_API_URL`; GitHub Enterprise serves assets there too);
 * - with the public API, `github.com`, the host of `browser_download_url`. Its answer redirects to a
 *   signed URL on another host, and `fetch` drops `Authorization` on a redirect to another origin.
 *
 * @module
 */
import type { HttpClient } from "../http/http_client.ts";
import { DEFAULT_GITHUB_API_URL } from "./release.ts";

/** Hosts (`host[:port]`) `GITHUB_TOKEN` is sent to, for the API at `apiUrl`. */
export function githubTokenHosts(apiUrl: string | undefined): Set<string> {
  const api = new URL(apiUrl || DEFAULT_GITHUB_API_URL);
  const hosts = new Set([api.host]);
  if (api.host === new URL(DEFAULT_GITHUB_API_URL).host) hosts.add("github.com");
  return hosts;
}

/**
 * The HTTP client with `GITHUB_TOKEN` as a bearer token on every request to one of {@link githubTokenHosts}, and on
 * no other (downloads started ahead included); `put` and `close` are the client's own (uploads go to the admin's
 * signed URLs, never with the token). Without a token, the client itself.
 */
export function withGitHubToken(http: HttpClient, apiUrl: string | undefined, token: string | undefined): HttpClient {
  if (!token) return http;
  const hosts = githubTokenHosts(apiUrl);
  const authorized = (input: RequestInfo | URL, init: RequestInit | undefined): RequestInit | undefined => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!hosts.has(url.host)) return init;
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set("Authorization", `Bearer ${token}`);
    return { ...init, headers };
  };
  return {
    fetch: (input, init) => http.fetch(input, authorized(input, init)),
    put: (url, body, init) => http.put(url, body, init),
    prefetch: (url, init) => http.prefetch(url, authorized(url, init)),
    close: () => http.close(),
  };
}

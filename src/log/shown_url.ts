/**
 * URLs as messages and logs show them: a signed URL's query is a credential, and user information may hold a
 * password. A module of its own, with no import, so that code which only names a URL (a registration's dry run
 * naming its archive) does not load the HTTP client's modules.
 *
 * @module
 */

/** The URL without query or fragment, for messages: a signed URL's query is a credential. */
export function redactUrl(url: URL | string): string {
  const parsed = typeof url === "string" ? URL.parse(url) : url;
  if (!parsed) return String(url).replace(/[?#].*$/, "");
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * `url` as messages and logs show it: without its query, fragment and user information (they may carry secrets),
 * else as written. A value that is no URL loses what follows a `?` or `#`.
 */
export function shownUrl(url: string): string {
  const parsed = URL.parse(url);
  if (parsed && !parsed.search && !parsed.hash && !parsed.username && !parsed.password) return url;
  // An opaque origin ("null": no host) would lose the whole value: only its tail is cut then.
  return parsed && parsed.origin !== "null" ? redactUrl(parsed) : url.replace(/[?#].*$/, "");
}

/**
 * Debug records of every HTTP call that goes on the wire (token requests, the GitHub API, archive downloads, uploads
 * to signed URLs), as the admin's calls have theirs: the method, the URL, how it ended and how long its answer took.
 * Never a query string (a signed URL's signature is one), a header or a body: they carry tokens and secrets.
 *
 * @module
 */
import { describeFetchFailure } from "./fetch_error.ts";
import { redactUrl } from "../log/shown_url.ts";

/**
 * Where the records go: the command's logger at debug level.
 *
 * ```ts
 * import type { HttpCallLog, HttpClientOptions } from "@fctl/fctl";
 *
 * const debug: HttpCallLog = (message, fields) => console.debug(message, fields);
 * const options: HttpClientOptions = { debug };
 * console.log(options);
 * ```
 */
export type HttpCallLog = (message: string, fields: Record<string, string | number>) => void;

/**
 * `fetch` that writes one record per call once its answer's headers are in (a body is then still to be read), or
 * once it has failed. A redirect that was followed names where it ended.
 */
export function loggedFetch(inner: typeof fetch, log: HttpCallLog): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const url = redactUrl(request ? request.url : String(input));
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (err) {
      log("http call failed", { method, url, error: describeFetchFailure(err), ms: ms() });
      throw err;
    }
    const fields: Record<string, string | number> = { method, url };
    if (response.redirected) fields.to = redactUrl(response.url);
    log("http call", { ...fields, status: response.status, ms: ms() });
    return response;
  };
}

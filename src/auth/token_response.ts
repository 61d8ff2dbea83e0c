/**
 * The token endpoint's answer as fctl reads it: an OAuth 2 token response (RFC 6749 §5.1), which oauth4webapi
 * still validates (status, JSON, `access_token`, `token_type`, `expires_in`, `refresh_token`, error bodies),
 * without the OpenID Connect `id_token` that providers add when the scope asks for it. fctl sends the access
 * token and keeps the refresh token; it never reads an id_token. oauth4webapi validates any id_token it is
 * given, its signing algorithm against the client's or the server's announced one (else RS256), which
 * Flyte's AuthMetadataService does not relay: a provider signing with HS256, ES256 or PS256, or answering a
 * malformed id_token, would fail every sign-in over a token fctl throws away. The library has no option to
 * skip that check, so the id_token is taken out before the library sees the answer. A device authorization
 * answer is likewise put in RFC 8628's words (Google's and Azure AD v1's are not) before the library reads it.
 *
 * @module
 */

/**
 * `response` without the `id_token` of its JSON body (another Response with the same status and headers), or
 * `response` itself when there is none to take out: an error answer, a body that is not a JSON object, or no
 * `id_token` member. The library then reports what is wrong with the rest as it would have.
 */
export async function withoutIdToken(response: Response): Promise<Response> {
  const body = await jsonObjectBody(response);
  if (!body || !Object.hasOwn(body, "id_token")) return response;
  const { id_token: _unused, ...rest } = body;
  return await withBody(response, rest);
}

/** A decimal number of seconds, as some providers write them in strings (`"900"`). */
const SECONDS_TEXT = /^\d+$/;

/**
 * `response`, a device authorization answer (RFC 8628 §3.2), in RFC 8628's words for oauth4webapi, which knows only
 * those: Google names the verification URI `verification_url`, and Azure AD's v1.0 endpoint does too, with
 * `expires_in` and `interval` as strings of digits (flytectl's HTTP library takes both). `response` itself when there
 * is nothing to reword: an error answer, a body that is not a JSON object, or one already in RFC 8628's words.
 */
export async function asRfc8628DeviceAuthorization(response: Response): Promise<Response> {
  const body = await jsonObjectBody(response);
  if (!body) return response;
  const reworded: Record<string, unknown> = { ...body };
  if (reworded.verification_uri === undefined && typeof reworded.verification_url === "string") {
    reworded.verification_uri = reworded.verification_url;
  }
  for (const name of ["expires_in", "interval"]) {
    const value = reworded[name];
    if (typeof value === "string" && SECONDS_TEXT.test(value)) reworded[name] = Number(value);
  }
  if (Object.keys(reworded).every((key) => reworded[key] === body[key])) return response;
  return await withBody(response, reworded);
}

/**
 * The JSON object a successful answer holds, read from a copy (`response` stays unread); `undefined` for an error
 * answer, a body already read, or one that is not a JSON object.
 */
async function jsonObjectBody(response: Response): Promise<Record<string, unknown> | undefined> {
  if (response.status !== 200 || response.bodyUsed) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return undefined;
  }
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? body as Record<string, unknown>
    : undefined;
}

/** Another Response with `response`'s status and headers and `body` as its JSON; `response`'s own is cancelled. */
async function withBody(response: Response, body: Record<string, unknown>): Promise<Response> {
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  // The body's length changed; its length is the new Response's to say.
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
}

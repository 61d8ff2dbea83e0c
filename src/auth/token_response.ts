/**
 * The token endpoint's answer as fctl reads it: an OAuth 2 token response (RFC 6749 §5.1), which oauth4webapi
 * still validates (status, JSON, `access_token`, `token_type`, `expires_in`, `refresh_token`, error bodies),
 * without the OpenID Connect `id_token` that providers add when the scope asks for it. fctl sends the access
 * token and keeps the refresh token; it never reads an id_token. oauth4webapi validates any id_token it is
 * given, its signing algorithm against the client's or the server's announced one (else RS256), which
 * Flyte's AuthMetadataService does not relay: a provider signing with HS256, ES256 or PS256, or answering a
 * malformed id_token, would fail every sign-in over a token fctl throws away. The library has no option to
 * skip that check, so the id_token is taken out before the library sees the answer.
 *
 * @module
 */

/**
 * `response` without the `id_token` of its JSON body (another Response with the same status and headers), or
 * `response` itself when there is none to take out: an error answer, a body that is not a JSON object, or no
 * `id_token` member. The library then reports what is wrong with the rest as it would have.
 */
export async function withoutIdToken(response: Response): Promise<Response> {
  if (response.status !== 200 || response.bodyUsed) return response;
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return response;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !Object.hasOwn(body, "id_token")) {
    return response;
  }
  await response.body?.cancel();
  const { id_token: _unused, ...rest } = body as Record<string, unknown>;
  const headers = new Headers(response.headers);
  // The body is shorter now; its length is the new Response's to say.
  headers.delete("content-length");
  return new Response(JSON.stringify(rest), { status: response.status, statusText: response.statusText, headers });
}

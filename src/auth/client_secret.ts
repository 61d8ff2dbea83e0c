/**
 * ClientSecret: the OAuth 2 client credentials grant (RFC 6749 §4.4) with `admin.clientId` and its secret,
 * authenticated by HTTP Basic (in the form when Basic is refused: client_secret_post), through the run's HTTP
 * client (CA, proxy) with oauth4webapi. A previous token's refresh token is used first when there is one.
 *
 * @module
 */
import * as oauth from "oauth4webapi";
import { isNotFound, OperationError, quote, UsageError } from "../errors.ts";
import { describeFetchFailure } from "../http/fetch_error.ts";
import { shownUrl } from "../log/shown_url.ts";
import { basicCredentials } from "../log/redact.ts";
import { excerpt } from "../output/printable.ts";
import { REPEATABLE } from "../http/retry.ts";
import { causeOf, type Discovery } from "./discovery.ts";
import { describeOAuthProblem, isOAuthProblem } from "./oauth_problem.ts";
import type { AuthSettings } from "./settings.ts";
import type { Token, TokenSource } from "./tokens.ts";
import { withoutIdToken } from "./token_response.ts";

/** What the flow uses besides the settings. */
export interface ClientSecretDeps {
  settings: AuthSettings;
  discovery: Discovery;
  /** The run's environment, where `admin.clientSecretEnvVar` is looked up. */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads `admin.clientSecretLocation`. */
  readTextFile: (path: string) => Promise<string>;
  /** The run's HTTP client's fetch. */
  fetch: typeof fetch;
  /** The secret is registered here as soon as it is read. */
  secrets: { add(secret: string | undefined): void };
  /** Milliseconds since the epoch. */
  now: () => number;
}

/**
 * The client secret: the variable named by `admin.clientSecretEnvVar` when set, else the file
 * `admin.clientSecretLocation`, trimmed. A missing or empty one is a usage error naming it.
 */
export async function readClientSecret(
  deps: Pick<ClientSecretDeps, "settings" | "env" | "readTextFile">,
): Promise<string> {
  const { clientSecretEnvVar: variable, clientSecretLocation: file } = deps.settings;
  if (variable) {
    const value = deps.env[variable]?.trim();
    if (value === undefined) {
      throw new UsageError(`the environment variable ${quote(variable)} named by admin.clientSecretEnvVar is not set`);
    }
    if (!value) throw new UsageError(`the environment variable ${quote(variable)} (admin.clientSecretEnvVar) is empty`);
    return value;
  }
  let text: string;
  try {
    text = await deps.readTextFile(file);
  } catch (err) {
    const reason = isNotFound(err) ? "no such file" : causeOf(err);
    throw new UsageError(`cannot read the client secret file ${quote(file)} (admin.clientSecretLocation): ${reason}`);
  }
  if (!text.trim()) throw new UsageError(`the client secret file ${quote(file)} (admin.clientSecretLocation) is empty`);
  return text.trim();
}

/**
 * The scope and audience of every token request: configured, else advertised by the admin. The advertised audience
 * is asked for with `admin.useAudienceFromAdmin`, or when none is configured and `advertisedAudience` (DeviceFlow:
 * flytectl's device flow always asks for the admin's, and a provider with no default audience, Auth0's say, answers
 * a token for its own use without it, which the admin refuses).
 */
export async function shapeParameters(
  settings: AuthSettings,
  discovery: Discovery,
  advertisedAudience = false,
): Promise<URLSearchParams> {
  const params = new URLSearchParams();
  let scopes = settings.scopes;
  let audience = settings.audience;
  const audienceFromAdmin = settings.useAudienceFromAdmin || (advertisedAudience && !audience);
  if (scopes.length === 0 || audienceFromAdmin) {
    const advertised = await discovery.publicClientConfig();
    if (scopes.length === 0) scopes = advertised.scopes;
    if (audienceFromAdmin && advertised.audience) audience = advertised.audience;
  }
  if (scopes.length > 0) params.set("scope", scopes.join(" "));
  if (audience) params.set("audience", audience);
  return params;
}

/**
 * What a refused or failed token request says, without anything secret (the server's error and description, as
 * {@link excerpt} quotes a server: it may echo the request, credentials included, with escapes or megabytes).
 */
export async function refusal(err: unknown): Promise<string> {
  if (err instanceof oauth.ResponseBodyError) {
    return excerpt([err.error, err.error_description].filter(Boolean).join(": ")) + ` (HTTP ${err.status})`;
  }
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    // A 401 with a challenge: the JSON body still says why.
    const body = await err.response.json().catch(() => ({})) as { error?: string; error_description?: string };
    const reason = [body.error, body.error_description].filter((part) => typeof part === "string" && part).join(": ");
    return `${excerpt(reason) || "unauthorized"} (HTTP ${err.status})`;
  }
  if (err instanceof oauth.OperationProcessingError && err.cause instanceof Response && !err.cause.ok) {
    // An answer outside OAuth's error statuses (a 503 from a busy server, a proxy's 502): its status, and what its
    // body says. A successful answer's body is never quoted: it may hold a token.
    return `${await answerReason(err.cause) || "unexpected answer"} (HTTP ${err.cause.status})`;
  }
  // The answer came but is not what OAuth says (not JSON, no access_token, an unknown token_type): what was found.
  if (isOAuthProblem(err)) return describeOAuthProblem(err);
  // The token endpoint was not reached (DNS, connection, TLS), or its answer could not be read.
  return describeFetchFailure(err);
}

/** Longest piece of a non-OAuth error body quoted in a message. */
const MAX_BODY_QUOTE = 200;

/**
 * The members that say what went wrong in JSON error bodies that are not OAuth's, in order: Okta's rate limit and API
 * errors (`errorSummary`), RFC 9457 problem details (`detail`, `title`), and the common `message`.
 */
const JSON_REASONS = ["errorSummary", "error_message", "detail", "message", "title"] as const;

/**
 * What an answer's body says: OAuth's `error: error_description` when it is JSON (else another service's description
 * of the error, see {@link JSON_REASONS}); an HTML page (the proxy in front of the server answered) by its title or
 * its text; else its first words.
 */
async function answerReason(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const parts = [body.error, body.error_description].filter((part) => typeof part === "string" && part);
    if (parts.length > 0) return excerpt(parts.join(": "));
    const reason = JSON_REASONS.map((name) => body[name]).find((value) => typeof value === "string" && value.trim());
    if (typeof reason === "string") return excerpt(reason.replace(/\s+/g, " ").trim());
  } catch {
    // Not JSON: quoted as text below.
  }
  if (/html/i.test(response.headers.get("content-type") ?? "") || /^\s*<(!doctype\s+html|html)\b/i.test(text)) {
    return htmlReason(text);
  }
  return excerpt(text.replace(/\s+/g, " "), MAX_BODY_QUOTE);
}

/** How much of an HTML page is read for what it says: its title and first words are at its top. */
const MAX_HTML = 16 * 1024;

/**
 * What an HTML page says: its title, else its text without markup (and without its scripts and styles). Found by
 * plain scans of the page's first {@link MAX_HTML} characters: a page of unclosed tags costs no more than its length.
 */
function htmlReason(page: string): string {
  const head = page.slice(0, MAX_HTML);
  const lower = head.toLowerCase();
  const words = (html: string) => {
    // A tag the cut at MAX_HTML left open is no text.
    const open = html.lastIndexOf("<");
    const whole = open > html.lastIndexOf(">") ? html.slice(0, open) : html;
    return whole.replace(/<[^<>]*>/g, " ")
      .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => HTML_ENTITIES[name])
      .replace(/\s+/g, " ").trim();
  };
  const open = lower.indexOf("<title");
  const start = open < 0 ? -1 : lower.indexOf(">", open);
  const end = start < 0 ? -1 : lower.indexOf("</title", start);
  const title = end < 0 ? "" : words(head.slice(start + 1, end));
  if (title) return `an HTML page titled ${quote(excerpt(title, MAX_BODY_QUOTE))}`;
  const bodyAt = lower.indexOf("<body");
  const text = words(withoutElements(head, lower, bodyAt < 0 ? 0 : bodyAt, ["script", "style"]));
  return text ? `an HTML page: ${excerpt(text, MAX_BODY_QUOTE)}` : "an HTML page";
}

/** `html` from `from` on, without the elements named (an unclosed one runs to the end); `lower`: it in lower case. */
function withoutElements(html: string, lower: string, from: number, names: readonly string[]): string {
  let kept = "";
  let at = from;
  for (;;) {
    const next = names.map((name) => ({ name, open: lower.indexOf(`<${name}`, at) })).filter((e) => e.open >= 0)
      .sort((a, b) => a.open - b.open)[0];
    if (!next) return kept + html.slice(at);
    kept += html.slice(at, next.open) + " ";
    const close = lower.indexOf(`</${next.name}`, next.open);
    if (close < 0) return kept;
    at = close + next.name.length + 2;
  }
}

/** The entities of an error page's text worth reading as characters. */
const HTML_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  nbsp: " ",
};

/** The ClientSecret token source. */
export function clientSecretSource(deps: ClientSecretDeps): TokenSource {
  const { settings, discovery } = deps;
  // Whether the token endpoint took the secret in the form after refusing it by HTTP Basic: then, for this process,
  // the form it is.
  let inForm = false;
  return {
    async fetch(previous: Token | undefined, renewedElsewhere?: () => Promise<Token | undefined>): Promise<Token> {
      const secret = await readClientSecret(deps);
      deps.secrets.add(secret);
      for (const credential of basicCredentials(settings.clientId, secret)) deps.secrets.add(credential);
      const server = await discovery.authorizationServer();
      const as: oauth.AuthorizationServer = {
        issuer: server.issuer ?? new URL(server.tokenEndpoint).origin,
        token_endpoint: server.tokenEndpoint,
      };
      const client: oauth.Client = { client_id: settings.clientId };
      const auth = inForm ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret);
      const options: oauth.TokenEndpointRequestOptions = {
        // fetch accepts what oauth4webapi passes (a URL string and a RequestInit-shaped object).
        [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<"POST", URLSearchParams>) =>
          deps.fetch(url, init),
        // A plain-HTTP token endpoint is the user's choice (a local sandbox), as flytectl allows it.
        [oauth.allowInsecureRequests]: server.tokenEndpoint.startsWith("http:"),
      };
      const where = shownUrl(server.tokenEndpoint);
      const otherAuth = inForm ? undefined : () => {
        inForm = true;
        return oauth.ClientSecretPost(secret);
      };
      const refreshed = await refreshGrant(
        { as, client, auth, options, otherAuth },
        previous,
        deps.now,
        renewedElsewhere,
      );
      if (refreshed) return refreshed;
      const params = await shapeParameters(settings, discovery);
      // A client-credentials grant spends nothing: an authorization server failing in passing is asked again, as the
      // admin is (a refresh above is not: a rotating refresh token works once).
      const repeatable: oauth.TokenEndpointRequestOptions = {
        ...options,
        [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<"POST", URLSearchParams>) =>
          deps.fetch(url, { ...init, [REPEATABLE]: true } as RequestInit),
      };
      const grant = async (auth: oauth.ClientAuth) => {
        const response = await oauth.clientCredentialsGrantRequest(as, client, auth, params, repeatable);
        return toToken(
          await oauth.processClientCredentialsResponse(as, client, await withoutIdToken(response)),
          deps.now(),
        );
      };
      try {
        try {
          return await grant(auth);
        } catch (err) {
          if (inForm || !refusedClient(err)) throw err;
          // An application set up for client_secret_post (Okta's and Auth0's can be) refuses Basic as it would a
          // wrong secret; flytectl's HTTP library then sends the secret in the form, and so does fctl.
          const token = await grant(oauth.ClientSecretPost(secret));
          inForm = true;
          return token;
        }
      } catch (err) {
        throw new OperationError(
          `token request to ${where} for client ${quote(settings.clientId)} failed: ${await refusal(err)}`,
          { cause: err },
        );
      }
    },
  };
}

/** Whether the token endpoint refused the client's authentication (`invalid_client`, or a 401 with a challenge). */
function refusedClient(err: unknown): boolean {
  return (err instanceof oauth.ResponseBodyError && err.error === "invalid_client") ||
    (err instanceof oauth.WWWAuthenticateChallengeError && err.status === 401);
}

/**
 * A new token by `previous`'s refresh token (the refresh grant, with the client's `auth`); when the server
 * refuses it, the token another process sharing the token cache stored meanwhile (`renewedElsewhere`: a refresh
 * token the server rotates works once, so the process that used it first holds the new one); undefined when
 * there is neither, and the flow gets a token its own way.
 */
export async function refreshGrant(
  grant: {
    as: oauth.AuthorizationServer;
    client: oauth.Client;
    auth: oauth.ClientAuth;
    options: oauth.TokenEndpointRequestOptions;
    /**
     * The client's other way to authenticate, tried once when `auth` is refused `invalid_client` (a refusal of the
     * client spends no refresh token): ClientSecret's secret in the form.
     */
    otherAuth?: () => oauth.ClientAuth;
  },
  previous: Token | undefined,
  now: () => number,
  renewedElsewhere?: () => Promise<Token | undefined>,
): Promise<Token | undefined> {
  if (!previous?.refreshToken) return undefined;
  const { as, client, auth, options } = grant;
  const refresh = async (auth: oauth.ClientAuth) => {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, previous.refreshToken!, options);
    const refreshed = toToken(
      await oauth.processRefreshTokenResponse(as, client, await withoutIdToken(response)),
      now(),
    );
    // A server that does not rotate refresh tokens leaves the old one valid.
    return { ...refreshed, refreshToken: refreshed.refreshToken ?? previous.refreshToken };
  };
  try {
    try {
      return await refresh(auth);
    } catch (err) {
      if (!grant.otherAuth || !refusedClient(err)) throw err;
      return await refresh(grant.otherAuth());
    }
  } catch {
    // Refused: unless another process renewed the token with it, the flow's own way reports its own failure.
    return await renewedElsewhere?.();
  }
}

/** The token of a token endpoint answer received at `now`. */
export function toToken(response: oauth.TokenEndpointResponse, now: number): Token {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt: typeof response.expires_in === "number" ? now + response.expires_in * 1000 : undefined,
    ...(typeof response.expires_in === "number" ? { receivedAt: now } : {}),
  };
}

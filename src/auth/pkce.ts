/**
 * Pkce: the authorization code grant with PKCE S256 (RFC 6749 §4.1, RFC 7636) for the admin's public client.
 * The sign-in URL (its `state` and code challenge are not secret) is always printed to stderr, and opened in
 * a browser when stderr is a terminal and the platform has an opener; the browser comes back to a loopback
 * server on the redirect URI's port, within `admin.pkceConfig.timeout`, and its page tells how the sign-in
 * ended once the code has been exchanged for tokens. A refresh token, when there is one, spares the sign-in.
 *
 * @module
 */
import * as oauth from "oauth4webapi";
import { OperationError, quote } from "../errors.ts";
import { excerpt, printable } from "../output/printable.ts";
import { formatDuration } from "../config/duration.ts";
import type { Logger } from "../log/logger.ts";
import { browserCommand, type Platform } from "./browser.ts";
import { refusal, shapeParameters, toToken } from "./client_secret.ts";
import type { CommandRunner } from "./external_command.ts";
import { listenLoopback, loopbackRedirect } from "./loopback.ts";
import { describeOAuthProblem, isOAuthProblem } from "./oauth_problem.ts";
import {
  type InteractiveFlowDeps,
  type PublicClientSession,
  publicClientSession,
  refreshPublic,
} from "./public_client.ts";
import type { Token, TokenSource } from "./tokens.ts";
import { withoutIdToken } from "./token_response.ts";

/** The redirect URI when the admin advertises none (flytectl's). */
export const DEFAULT_REDIRECT_URI = "http://localhost:53593/callback";

/** What Pkce uses besides the interactive flows' common needs. */
export interface PkceDeps extends InteractiveFlowDeps {
  /** Whether stderr is a terminal: only then is a browser opened. */
  terminal: boolean;
  /** Runs the browser opener (an argument vector, no shell). */
  runCommand: CommandRunner;
  /** Decides which opener exists. */
  platform: Platform;
  logger: Logger;
}

/** Longest sign-in URL printed (the server's authorization endpoint with fctl's parameters); the browser gets it whole. */
const MAX_PROMPT_URL = 8192;

/** What a refused authorization response says (nothing secret: the server's error and description). */
function authorizationRefusal(err: unknown): Error {
  if (err instanceof oauth.AuthorizationResponseError) {
    const reason = excerpt([err.error, err.error_description].filter(Boolean).join(": "));
    return new OperationError(`the authorization server refused the sign-in: ${reason}`);
  }
  const reason = isOAuthProblem(err) ? describeOAuthProblem(err) : err instanceof Error ? err.message : String(err);
  return new OperationError(`the sign-in answer is invalid: ${reason}`);
}

/** The Pkce token source. */
export function pkceSource(deps: PkceDeps): TokenSource {
  const { settings } = deps;
  return {
    async fetch(previous: Token | undefined, renewedElsewhere?: () => Promise<Token | undefined>): Promise<Token> {
      const session = await publicClientSession(deps, "Pkce", "authorizationEndpoint");
      const refreshed = await refreshPublic(session, previous, deps.now, renewedElsewhere);
      if (refreshed) return refreshed;
      const { as, client } = session;
      const redirectUri = session.redirectUri || DEFAULT_REDIRECT_URI;
      const redirect = loopbackRedirect(redirectUri);
      const verifier = oauth.generateRandomCodeVerifier();
      deps.secrets.add(verifier);
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      for (const [key, value] of await shapeParameters(settings, deps.discovery)) url.searchParams.set(key, value);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", client.client_id);
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
      url.searchParams.set("code_challenge_method", "S256");
      url.searchParams.set("state", state);

      const loopback = listenLoopback(redirect, (params) => {
        deps.secrets.add(params.get("code") ?? undefined);
        if (params.get("state") !== state) {
          return new OperationError(
            "the sign-in answer does not carry the state fctl sent (a stale or forged redirect)",
          );
        }
        try {
          return oauth.validateAuthResponse(as, client, params, state);
        } catch (err) {
          return authorizationRefusal(err);
        }
      });
      const timeoutMs = settings.pkceTimeoutMs;
      const stop = new AbortController();
      try {
        deps.prompt.write(`Sign in to continue: open this URL in a browser (waiting ${formatDuration(timeoutMs)}):\n`);
        deps.prompt.write(`  ${printable(url.href, MAX_PROMPT_URL)}\n`);
        if (deps.terminal) openBrowser(url.href, deps);
        const timedOut = deps.sleep(timeoutMs, AbortSignal.any([deps.signal, stop.signal])).then(() => {
          throw new OperationError(
            `no sign-in reached ${redirect.origin}${redirect.pathname} within ${
              formatDuration(timeoutMs)
            } (admin.pkceConfig.timeout)`,
          );
        });
        timedOut.catch(() => {});
        const params = await Promise.race([loopback.response, timedOut]);
        stop.abort();
        const token = await redeemCode(session, params, redirectUri, verifier, deps.now);
        // Only now does the browser's page say so.
        loopback.finish();
        return token;
      } catch (err) {
        loopback.finish(err instanceof Error ? err : new OperationError(String(err)));
        throw err;
      } finally {
        stop.abort();
        await loopback.close();
      }
    },
  };
}

/** The authorization code grant: the code and verifier for the tokens. */
async function redeemCode(
  session: PublicClientSession,
  params: URLSearchParams,
  redirectUri: string,
  verifier: string,
  now: () => number,
): Promise<Token> {
  const { as, client, options } = session;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      options,
    );
    return toToken(await oauth.processAuthorizationCodeResponse(as, client, await withoutIdToken(response)), now());
  } catch (err) {
    throw new OperationError(
      `token request to ${session.where} for client ${quote(client.client_id)} failed: ${await refusal(err)}`,
      { cause: err },
    );
  }
}

/** Opens `url` with the platform's opener, when it has one; a failure only costs the convenience. */
function openBrowser(url: string, deps: PkceDeps): void {
  const argv = browserCommand(url, deps.platform);
  if (!argv) return;
  deps.runCommand(argv).then(
    (output) => {
      if (output.code !== 0) deps.logger.debug("the browser opener failed", { program: argv[0], code: output.code });
    },
    (err) => deps.logger.debug("the browser opener could not be run", { program: argv[0], error: String(err) }),
  );
}

/**
 * DeviceFlow: the device authorization grant (RFC 8628) for the admin's public client. The verification URI
 * and user code (and the complete URI when the server gives one) are printed to stderr; the token endpoint
 * is polled at the server's interval (a second to a minute), else `admin.deviceFlowConfig.pollInterval`, 5 s slower
 * after each `slow_down`, until approval, denial, expiry or `admin.deviceFlowConfig.timeout`; a poll answered as a busy
 * server answers (429, 503…) is made again after its `Retry-After`. The device code is a
 * secret; the user code is meant to be shown. A refresh token, when there is one, spares the sign-in.
 *
 * @module
 */
import * as oauth from "oauth4webapi";
import { formatDuration } from "../config/duration.ts";
import { OperationError, quote } from "../errors.ts";
import { excerpt, printable } from "../output/printable.ts";
import { REPEATABLE, RETRYABLE_STATUSES, retryAfterMs } from "../http/retry.ts";
import { refusal, shapeParameters, toToken } from "./client_secret.ts";
import { type InteractiveFlowDeps, publicClientSession, refreshPublic } from "./public_client.ts";
import type { Token, TokenSource } from "./tokens.ts";
import { asRfc8628DeviceAuthorization, withoutIdToken } from "./token_response.ts";

/** How much slower polling gets after each `slow_down` (RFC 8628 §3.5). */
const SLOW_DOWN_MS = 5_000;

/**
 * The shortest wait between polls a server's `interval` can ask for. RFC 8628 counts it in whole seconds (flytectl
 * reads it as an integer, 5 when absent); a fraction such as 0.001, which the OAuth library lets through, would
 * have fctl poll a thousand times a second until the sign-in's timeout: hundreds of thousands of requests.
 */
const MIN_SERVER_INTERVAL_MS = 1_000;

/**
 * The longest wait between polls a server's `interval` can ask for: providers ask for 5 seconds. A huge one (a
 * billion seconds) had fctl sleep through the whole sign-in timeout without one poll, then say the sign-in was not
 * approved although the user may have approved it at once; one that polls too soon is answered `slow_down`.
 */
const MAX_SERVER_INTERVAL_MS = 60_000;

/** Longest user code accepted: RFC 8628 §6.1 asks for codes short enough to type (8 characters, say). */
const MAX_USER_CODE = 64;

/** Longest verification URI accepted: a URL to open, not a page. */
const MAX_VERIFICATION_URI = 2048;

/** What the prompt shows of a device authorization answer. */
interface ShownAnswer {
  /** The user code, control characters shown as escapes. */
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
}

/**
 * What the user is shown of the server's answer, checked: the user code at most {@link MAX_USER_CODE} characters
 * (its control characters shown as escapes, as it is meant to be typed), the verification URIs http(s) URLs of
 * at most {@link MAX_VERIFICATION_URI} characters, written as parsed (URL syntax has no place for a control
 * character: an escape sequence, such as a terminal hyperlink to another host, is no URL). Anything else is an
 * invalid answer, refused without printing more of it than a short excerpt.
 */
function shownAnswer(authorization: oauth.DeviceAuthorizationResponse, endpoint: string): ShownAnswer {
  const invalid = (why: string) =>
    new OperationError(`the device authorization answer from ${endpoint} is invalid: ${why}`);
  if (authorization.user_code.length > MAX_USER_CODE) {
    throw invalid(`its user_code is ${authorization.user_code.length} characters long (at most ${MAX_USER_CODE})`);
  }
  const url = (field: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    const text = String(value);
    if (text.length > MAX_VERIFICATION_URI) {
      throw invalid(`its ${field} is ${text.length} characters long (at most ${MAX_VERIFICATION_URI})`);
    }
    // The parser drops leading C0 controls and any line break or tab: a value with a control character is no URL.
    const parsed = /\p{Cc}/u.test(text) || !URL.canParse(text) ? undefined : new URL(text);
    if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") {
      throw invalid(`its ${field} is not an http(s) URL: ${excerpt(text, 100)}`);
    }
    return printable(parsed.href);
  };
  return {
    userCode: printable(authorization.user_code),
    verificationUri: url("verification_uri", authorization.verification_uri)!,
    verificationUriComplete: url("verification_uri_complete", authorization.verification_uri_complete),
  };
}

/** The DeviceFlow token source. */
export function deviceFlowSource(deps: InteractiveFlowDeps): TokenSource {
  const { settings } = deps;
  return {
    async fetch(previous: Token | undefined, renewedElsewhere?: () => Promise<Token | undefined>): Promise<Token> {
      const session = await publicClientSession(deps, "DeviceFlow", "deviceAuthorizationEndpoint");
      const refreshed = await refreshPublic(session, previous, deps.now, renewedElsewhere);
      if (refreshed) return refreshed;
      const { as, client, options } = session;
      const endpoint = as.device_authorization_endpoint!.replace(/[?#].*$/, "");
      let authorization: oauth.DeviceAuthorizationResponse;
      try {
        const params = await shapeParameters(settings, deps.discovery, true);
        // Asking again spends nothing (an unused device code expires), so a busy server is asked again.
        const repeatable: oauth.TokenEndpointRequestOptions = {
          ...options,
          [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<"POST", URLSearchParams>) =>
            deps.fetch(url, { ...init, [REPEATABLE]: true } as RequestInit),
        };
        const response = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), params, repeatable);
        authorization = await oauth.processDeviceAuthorizationResponse(
          as,
          client,
          await asRfc8628DeviceAuthorization(response),
        );
      } catch (err) {
        throw new OperationError(
          `device authorization request to ${endpoint} for client ${quote(client.client_id)} failed: ${await refusal(
            err,
          )}`,
          { cause: err },
        );
      }
      deps.secrets.add(authorization.device_code);
      const timeoutMs = settings.deviceTimeoutMs;
      const { userCode, verificationUri, verificationUriComplete } = shownAnswer(authorization, endpoint);
      deps.prompt.write(
        `Sign in to continue: visit ${verificationUri} and enter the code ${userCode}` +
          ` (waiting ${formatDuration(timeoutMs)})\n`,
      );
      if (verificationUriComplete) deps.prompt.write(`  or open ${verificationUriComplete}\n`);
      let intervalMs = typeof authorization.interval === "number" && authorization.interval > 0
        ? Math.min(Math.max(authorization.interval * 1000, MIN_SERVER_INTERVAL_MS), MAX_SERVER_INTERVAL_MS)
        : settings.devicePollIntervalMs;
      const deadline = deps.now() + timeoutMs;
      // The wait before the next poll: the interval, or what a busy server asked for.
      let waitMs = intervalMs;
      // The status of the last poll when a busy server answered it: then the wait was its, not the user's.
      let busyStatus: number | undefined;
      for (;;) {
        const left = deadline - deps.now();
        await deps.sleep(Math.max(0, Math.min(waitMs, left)), deps.signal);
        if (waitMs > left) {
          const busy = busyStatus === undefined
            ? ""
            : `; the token endpoint ${session.where} answered the last poll HTTP ${busyStatus} (busy)`;
          throw new OperationError(
            `the sign-in with code ${userCode} was not approved within ${
              formatDuration(timeoutMs)
            } (admin.deviceFlowConfig.timeout)${busy}`,
          );
        }
        try {
          const response = await oauth.deviceCodeGrantRequest(
            as,
            client,
            oauth.None(),
            authorization.device_code,
            options,
          );
          return toToken(await oauth.processDeviceCodeResponse(as, client, await withoutIdToken(response)), deps.now());
        } catch (err) {
          const error = err instanceof oauth.ResponseBodyError ? err.error : undefined;
          waitMs = intervalMs;
          busyStatus = undefined;
          if (error === "authorization_pending") continue;
          if (error === "slow_down") {
            waitMs = intervalMs += SLOW_DOWN_MS;
            continue;
          }
          const busy = busyAnswer(err);
          if (busy) {
            // The user may be approving the code right now: a provider's rate limit or a passing failure of the
            // proxy in front of it is no reason to make them start again.
            waitMs = Math.max(intervalMs, retryAfterMs(busy.headers.get("retry-after")) ?? 0);
            busyStatus = busy.status;
            await busy.body?.cancel().catch(() => {});
            continue;
          }
          if (error === "expired_token") {
            throw new OperationError(`the code ${userCode} expired before the sign-in was approved; sign in again`);
          }
          if (error === "access_denied") {
            throw new OperationError(`the sign-in with code ${userCode} was denied (access_denied)`);
          }
          throw new OperationError(
            `token request to ${session.where} for client ${quote(client.client_id)} failed: ${await refusal(err)}`,
            { cause: err },
          );
        }
      }
    },
  };
}

/**
 * The answer of a poll that failed as a busy server's or its proxy's do (a status of {@link RETRYABLE_STATUSES}: a
 * rate limit, a gateway's failure), whatever its body; undefined for any other failure.
 */
function busyAnswer(err: unknown): Response | undefined {
  const response = err instanceof oauth.ResponseBodyError
    ? err.response
    : err instanceof oauth.OperationProcessingError && err.cause instanceof Response
    ? err.cause
    : undefined;
  return response && RETRYABLE_STATUSES.has(response.status) ? response : undefined;
}

/**
 * DeviceFlow: the device authorization grant (RFC 8628) for the admin's public client. The verification URI
 * and user code (and the complete URI when the server gives one) are printed to stderr; the token endpoint
 * is polled at the server's interval, else `admin.deviceFlowConfig.pollInterval`, 5 s slower after each
 * `slow_down`, until approval, denial, expiry or `admin.deviceFlowConfig.timeout`. The device code is a
 * secret; the user code is meant to be shown. A refresh token, when there is one, spares the sign-in.
 *
 * @module
 */
import * as oauth from "oauth4webapi";
import { formatDuration } from "../config/duration.ts";
import { OperationError, quote } from "../errors.ts";
import { refusal, shapeParameters, toToken } from "./client_secret.ts";
import { type InteractiveFlowDeps, publicClientSession, refreshPublic } from "./public_client.ts";
import type { Token, TokenSource } from "./tokens.ts";
import { withoutIdToken } from "./token_response.ts";

/** How much slower polling gets after each `slow_down` (RFC 8628 §3.5). */
const SLOW_DOWN_MS = 5_000;

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
        const params = await shapeParameters(settings, deps.discovery);
        const response = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), params, options);
        authorization = await oauth.processDeviceAuthorizationResponse(as, client, response);
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
      const userCode = authorization.user_code;
      deps.prompt.write(
        `Sign in to continue: visit ${authorization.verification_uri} and enter the code ${userCode}` +
          ` (waiting ${formatDuration(timeoutMs)})\n`,
      );
      if (authorization.verification_uri_complete) {
        deps.prompt.write(`  or open ${authorization.verification_uri_complete}\n`);
      }
      let intervalMs = typeof authorization.interval === "number" && authorization.interval > 0
        ? authorization.interval * 1000
        : settings.devicePollIntervalMs;
      const deadline = deps.now() + timeoutMs;
      for (;;) {
        const left = deadline - deps.now();
        await deps.sleep(Math.max(0, Math.min(intervalMs, left)), deps.signal);
        if (intervalMs > left) {
          throw new OperationError(
            `the sign-in with code ${userCode} was not approved within ${
              formatDuration(timeoutMs)
            } (admin.deviceFlowConfig.timeout)`,
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
          if (error === "authorization_pending") continue;
          if (error === "slow_down") {
            intervalMs += SLOW_DOWN_MS;
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

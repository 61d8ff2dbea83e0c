/**
 * `fctl auth login`: runs the configured flow now, whatever the admin says, and caches its token.
 *
 * @module
 */
import { flowClientId } from "../../auth/flow_client_id.ts";
import { printLine } from "../../output/print.ts";
import { leafCommand } from "../command.ts";

/** What `auth login` takes: nothing but the configuration, which its run step reads through the context. */
export type AuthLoginOptions = Record<string, never>;

/** `auth login`. */
export const AUTH_LOGIN_COMMAND = leafCommand({
  name: "login",
  description: "sign in now with the configured flow (admin.authType) and cache the token for later commands",
  arguments: [],
  flags: [],
  globals: ["config", "admin.endpoint", "admin.authType"],
  examples: [
    "fctl auth login",
    "fctl auth login --admin.clientSecretEnvVar FLYTE_SECRET",
    "fctl auth login --admin.authType DeviceFlow -c prod.yaml",
  ],
  options: (): AuthLoginOptions => ({}),
  async run(ctx) {
    const { auth } = await ctx.adminWithAuth();
    const token = await auth.session.login();
    const stored = await auth.store.load();
    const expiry = token.expiresAt === undefined ? "" : ` until ${new Date(token.expiresAt).toISOString()}`;
    const cache = stored?.accessToken === token.accessToken
      ? `token cached${expiry}`
      : auth.settings.authType === "ExternalCommand"
      ? "token not cached: admin.command is run again when needed"
      : `token kept for this run only${expiry}`;
    // ExternalCommand signs in with no client id: naming admin.clientId's default would say otherwise.
    const clientId = flowClientId(auth.settings);
    const flow = `${auth.settings.authType}${clientId === undefined ? "" : ` (client ${clientId})`}`;
    printLine(ctx.io, `logged in to ${auth.endpoint} with ${flow}: ${cache}`);
  },
});

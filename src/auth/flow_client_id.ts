/**
 * Which client id a flow signs in with, for what `auth login` and `auth status` show.
 *
 * @module
 */
import type { AuthSettings } from "./settings.ts";

/**
 * The client id `settings`' flow signs in with: `admin.clientId` for ClientSecret, Pkce and DeviceFlow; undefined
 * for ExternalCommand, which has none (its program gives the token), so that no output names the option's default.
 */
export function flowClientId(settings: Pick<AuthSettings, "authType" | "clientId">): string | undefined {
  return settings.authType === "ExternalCommand" ? undefined : settings.clientId;
}

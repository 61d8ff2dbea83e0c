/**
 * The rule for plain-HTTP authorization servers, applied by discovery to every endpoint a flow sends credentials
 * to (a client secret, a refresh token, an authorization or device code) and to the metadata that names them:
 * when the admin is reached over TLS, none of them may be `http://`, where anyone on the path reads the
 * credentials or rewrites where they go, unless `admin.allowInsecureTokenEndpoint` says so. An admin reached over
 * plaintext (`admin.insecure`: a local sandbox) allows them, as flytectl does. Loopback is not exempt: a port on
 * this machine may be anyone's, and a TLS admin says the deployment meant TLS.
 *
 * @module
 */
import { OperationError, UsageError } from "../errors.ts";
import { shownUrl } from "../log/shown_url.ts";
import type { AuthSettings } from "./settings.ts";

/** The option that allows plain HTTP, as refusals name it. */
export const ALLOW_OPTION = "admin.allowInsecureTokenEndpoint";

/** An endpoint of the authorization server and who named it. */
export interface NamedEndpoint {
  url: string;
  /** What fctl would do with it: `send credentials to the token endpoint`, `read the … metadata at`. */
  action: string;
  /** The option that names it (a configuration error), or who advertised it (the server's). */
  from: { option: string } | { advertisedBy: string };
}

/**
 * Throws when `endpoint` is plain HTTP and the settings do not allow it: a {@link UsageError} for an endpoint the
 * configuration names, an {@link OperationError} for an advertised one. The message is one line naming the
 * endpoint without its query or user information, and the option that allows it.
 */
export function refusePlainHttp(
  endpoint: NamedEndpoint,
  settings: Pick<AuthSettings, "adminInsecure" | "allowInsecureTokenEndpoint">,
): void {
  if (URL.parse(endpoint.url)?.protocol !== "http:") return;
  if (settings.adminInsecure || settings.allowInsecureTokenEndpoint) return;
  const { from } = endpoint;
  const source = "option" in from ? from.option : `advertised by ${from.advertisedBy}`;
  const message = `refusing to ${endpoint.action} ${shownUrl(endpoint.url)} (${source}) over plain HTTP while ` +
    `the admin is reached over TLS; set ${ALLOW_OPTION} to allow it`;
  throw "option" in from ? new UsageError(message) : new OperationError(message);
}

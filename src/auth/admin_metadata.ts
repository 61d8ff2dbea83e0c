/**
 * The admin's `AuthMetadataService` over the admin client's own transport (same connection, TLS, proxy and
 * retries), with failures mapped to fctl errors. Loaded only when the admin asks for a token: its generated
 * descriptors are not needed otherwise.
 *
 * @module
 */
import { createClient, type Transport } from "@connectrpc/connect";
import { AuthMetadataService } from "../../proto/gen/flyteidl/service/auth_pb.ts";
import { AdminError, type ConnectionDescription, mapAdminError } from "../admin/errors.ts";
import { OperationError } from "../errors.ts";
import type { AuthMetadataCalls } from "./discovery.ts";

/** The statuses of a call refused for its credentials. */
const REFUSALS: ReadonlySet<string> = new Set(["Unauthenticated", "PermissionDenied"]);

/**
 * The AuthMetadataService calls discovery makes; a failure says discovery failed and why (refused for credentials:
 * by something in front of the admin). `signal` (the run's: Ctrl-C) ends them, retries included.
 */
export function authMetadataCalls(
  transport: Transport,
  connection: ConnectionDescription,
  signal?: AbortSignal,
): AuthMetadataCalls {
  const client = createClient(AuthMetadataService, transport);
  const mapped = async <T>(rpc: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      const mappedErr = mapAdminError(err, rpc, connection);
      let message = mappedErr.message;
      if (mappedErr instanceof AdminError && REFUSALS.has(mappedErr.status)) {
        // Not the admin's refusal: FlyteAdmin serves AuthMetadataService to anyone, so no admin.authType can help.
        const hint = `(FlyteAdmin answers ${rpc} without credentials: something in front of it, such as an ` +
          "identity-aware proxy, asks for its own; see admin.proxyCommand)";
        message = `${message.replace(/ \(check admin\.authType and its credentials\)$/, "")} ${hint}`;
      }
      throw new OperationError(`cannot discover the admin service's auth settings: ${message}`, { cause: err });
    }
  };
  return {
    getPublicClientConfig: () => mapped("GetPublicClientConfig", () => client.getPublicClientConfig({}, { signal })),
    getOAuth2Metadata: () => mapped("GetOAuth2Metadata", () => client.getOAuth2Metadata({}, { signal })),
  };
}

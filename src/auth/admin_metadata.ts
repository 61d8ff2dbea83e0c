/**
 * The admin's `AuthMetadataService` over the admin client's own transport (same connection, TLS, proxy and
 * retries), with failures mapped to fctl errors. Loaded only when the admin asks for a token: its generated
 * descriptors are not needed otherwise.
 *
 * @module
 */
import { createClient, type Transport } from "@connectrpc/connect";
import { AuthMetadataService } from "../../proto/gen/flyteidl/service/auth_pb.ts";
import { type ConnectionDescription, mapAdminError } from "../admin/errors.ts";
import { OperationError } from "../errors.ts";
import type { AuthMetadataCalls } from "./discovery.ts";

/**
 * The AuthMetadataService calls discovery makes; a failure says discovery failed and why. `signal` (the run's:
 * Ctrl-C) ends them, retries included.
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
      throw new OperationError(`cannot discover the admin service's auth settings: ${mappedErr.message}`, {
        cause: err,
      });
    }
  };
  return {
    getPublicClientConfig: () => mapped("GetPublicClientConfig", () => client.getPublicClientConfig({}, { signal })),
    getOAuth2Metadata: () => mapped("GetOAuth2Metadata", () => client.getOAuth2Metadata({}, { signal })),
  };
}

/**
 * Typed admin-service clients over Connect's gRPC transport for Node (HTTP/2).
 *
 * This module loads Connect and the generated service descriptors, so only commands that
 * talk to the admin service import it (lazily), keeping `fctl --help` light.
 *
 * @module
 */
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { transportStatusInterceptor } from "./transport_status.ts";
import { type ConnectionDescription, mapAdminError } from "./errors.ts";
import { retryInterceptor, type RetryOptions } from "./retry.ts";
import { type AdminSessions, adminSessions } from "./sessions.ts";

/** How to reach the admin service. */
export interface AdminClientOptions {
  /** `admin.endpoint` in any accepted form (see {@link parseEndpoint}). */
  endpoint: string;
  /** Plaintext HTTP/2 (h2c). Defaults to what the endpoint's scheme implies, else TLS. */
  insecure?: boolean;
  /** Extra interceptors (auth, logging), outermost first; they run outside the retries. */
  interceptors?: Interceptor[];
  /** PEM CA certificates trusted in addition to the system roots. */
  caCertificates?: string;
  /** TLS without verifying the server certificate. */
  insecureSkipVerify?: boolean;
  /** Retry policy; without it every call is attempted once. */
  retry?: RetryOptions;
  /** An HTTP proxy URL to tunnel the connection through with CONNECT (see {@link proxyFor}). */
  proxy?: string;
  /** Auth type, for error messages. */
  authType?: string;
}

/** Clients of the services fctl uses, sharing one HTTP/2 connection. */
export interface AdminClient {
  /** flyteidl's `AdminService`, the methods fctl calls (see `proto/client/fctl/admin_calls.proto`): tasks, workflows, launch plans. */
  admin: Client<typeof AdminService>;
  /** The flyteidl `DataProxyService`: upload locations for fast registration. */
  dataProxy: Client<typeof DataProxyService>;
  /** Where the connection goes, for messages. */
  connection: ConnectionDescription;
  /**
   * Opens the HTTP/2 connection ahead of the first call (TCP, TLS and HTTP/2 handshakes), so that
   * work done meanwhile overlaps it. Never rejects: a failure is left for the first call to report.
   */
  connect(): Promise<void>;
  /** Closes the underlying HTTP/2 session; a later call opens a new one. */
  close(): void;
}

/**
 * Turns every failure of a call into an fctl error, naming the RPC and the connection.
 * (Not an interceptor: Connect re-wraps whatever an interceptor throws into a ConnectError.)
 */
function withErrorMapping<T extends object>(client: T, connection: ConnectionDescription): T {
  // One wrapper per method, made on first use: registration calls the same few methods hundreds of times.
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const rpc = String(property).replace(/^./, (c) => c.toUpperCase());
        wrapper = async (...args: unknown[]) => {
          try {
            return await value.apply(target, args);
          } catch (err) {
            throw mapAdminError(err, rpc, connection);
          }
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

/**
 * Creates admin clients; no connection is made until the first call. `sessions` are the ones made from the
 * same `options` by {@link adminSessions}, when the caller opened the connection while this module loaded.
 */
export function createAdminClient(
  options: AdminClientOptions,
  sessions: AdminSessions = adminSessions(options),
): AdminClient {
  const { baseUrl, connection, manager } = sessions;
  const interceptors = [...(options.interceptors ?? [])];
  if (options.retry) interceptors.push(retryInterceptor(options.retry));
  interceptors.push(transportStatusInterceptor);
  // No compression is offered (no `grpc-accept-encoding`), as fctl never did: FlyteAdmin answers uncompressed.
  const transport = createGrpcTransport({ baseUrl, sessionManager: manager, interceptors, acceptCompression: [] });
  return {
    admin: withErrorMapping(createClient(AdminService, transport), connection),
    dataProxy: withErrorMapping(createClient(DataProxyService, transport), connection),
    connection,
    connect: () => manager.connect(),
    close: () => manager.close(),
  };
}

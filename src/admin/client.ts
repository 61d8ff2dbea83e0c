/**
 * Typed admin-service clients over Connect's gRPC transport for Node (HTTP/2).
 *
 * This module loads Connect and the generated service descriptors, so only commands that
 * talk to the admin service import it (lazily), keeping `fctl --help` light.
 *
 * @module
 */
import { type Client, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { SecureClientSessionOptions } from "node:http2";
import { AdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { endpointUrl, parseEndpoint } from "./endpoint.ts";
import { transportStatusInterceptor } from "./transport_status.ts";
import { GuardedSessionManager } from "./session_guard.ts";
import { type ConnectionDescription, mapAdminError } from "./errors.ts";
import { retryInterceptor, type RetryOptions } from "./retry.ts";
import { tunnelConnection } from "./proxy_tunnel.ts";

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
  /** The transport under both clients (with every interceptor), for the services fctl calls rarely (auth discovery). */
  transport: Transport;
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

/** Creates admin clients; no connection is made until the first call. */
export function createAdminClient(options: AdminClientOptions): AdminClient {
  const endpoint = parseEndpoint(options.endpoint);
  const insecure = options.insecure ?? endpoint.schemeInsecure ?? false;
  const baseUrl = endpointUrl(endpoint, insecure);
  const connection: ConnectionDescription = { endpoint: baseUrl, insecure, authType: options.authType };
  const sessionOptions: SecureClientSessionOptions = {};
  if (!insecure) {
    // Under Deno, `ca` is handed to Deno.connectTls's `caCerts`, which trusts them in addition to the
    // system roots (Node would replace them; reading Node's root list needs --allow-sys).
    if (options.caCertificates) sessionOptions.ca = [options.caCertificates];
    if (options.insecureSkipVerify) sessionOptions.rejectUnauthorized = false;
  }
  if (options.proxy) {
    sessionOptions.createConnection = tunnelConnection({
      proxy: options.proxy,
      host: endpoint.host,
      port: endpoint.port,
      tls: insecure ? undefined : {
        ca: sessionOptions.ca,
        rejectUnauthorized: sessionOptions.rejectUnauthorized ?? true,
      },
    });
  }
  const sessions = new GuardedSessionManager(baseUrl, sessionOptions);
  const interceptors = [...(options.interceptors ?? [])];
  if (options.retry) interceptors.push(retryInterceptor(options.retry));
  interceptors.push(transportStatusInterceptor);
  // No compression is offered (no `grpc-accept-encoding`), as fctl never did: FlyteAdmin answers uncompressed.
  const transport = createGrpcTransport({ baseUrl, sessionManager: sessions, interceptors, acceptCompression: [] });
  return {
    admin: withErrorMapping(createClient(AdminService, transport), connection),
    dataProxy: withErrorMapping(createClient(DataProxyService, transport), connection),
    connection,
    transport,
    connect: () => sessions.connect(),
    close: () => sessions.close(),
  };
}

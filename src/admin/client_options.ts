/**
 * The options of an admin client, apart from the client so that its sessions (`sessions.ts`), which open the
 * connection before Connect has loaded, take them without importing the client.
 *
 * @module
 */
import type { RetryOptions } from "./retry.ts";

/**
 * How to reach the admin service.
 *
 * ```ts
 * import type { AdminClientOptions } from "@fctl/fctl";
 *
 * const options: AdminClientOptions = {
 *   endpoint: "dns:///flyte.example.com",
 *   retry: { maxAttempts: 4, perAttemptTimeoutMs: 10_000, maxBackoffMs: 5_000 },
 *   caCertificates: "-----BEGIN CERTIFICATE-----\n…",
 * };
 * console.log(options.endpoint);
 * ```
 */
export interface AdminClientOptions {
  /** `admin.endpoint` in any accepted form (see {@link parseEndpoint}). */
  endpoint: string;
  /** Plaintext HTTP/2 (h2c). Defaults to what the endpoint's scheme implies, else TLS. */
  insecure?: boolean;
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
  /**
   * `admin.maxMessageSizeBytes`: the largest answer read, in bytes (default {@link DEFAULT_MAX_MESSAGE_SIZE});
   * a larger one fails the call without being read, naming the limit and the option.
   */
  maxMessageSizeBytes?: number;
}

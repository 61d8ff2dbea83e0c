/**
 * The one place where gRPC status codes become fctl errors.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { FctlError, OperationError } from "../errors.ts";

/**
 * gRPC status names, as flyteidl and grpc-go spell them.
 *
 * ```ts
 * import type { GrpcStatus } from "@fctl/fctl";
 *
 * const retryable: GrpcStatus[] = ["Unavailable", "ResourceExhausted"];
 * console.log(retryable.includes("NotFound")); // false
 * ```
 */
export type GrpcStatus = keyof typeof Code;

/**
 * What the admin connection was, for errors that need it (flytectl prints the same).
 *
 * ```ts
 * import { createAdminClient } from "@fctl/fctl";
 *
 * const client = createAdminClient({ endpoint: "dns:///flyte.example.com" });
 * const { endpoint, insecure, authType } = client.connection;
 * console.log(endpoint, insecure, authType); // https://flyte.example.com false undefined
 * client.close();
 * ```
 */
export interface ConnectionDescription {
  /** The endpoint as a URL (`http://host:port`, `https://host`). */
  endpoint: string;
  /** Plaintext HTTP/2 rather than TLS. */
  insecure: boolean;
  /** The auth type in use, if any. */
  authType?: string;
  /** `admin.maxMessageSizeBytes` as configured (0 or absent: the default), for the message of an answer over it. */
  maxMessageSizeBytes?: number;
}

/** Connect's message for an answer larger than the transport's `readMaxBytes` (before any of it is read). */
const READ_LIMIT = /^message size (?:(\d+) )?is larger than configured readMaxBytes (\d+)$/;

/** Whether `err` is an answer refused for its size by the transport's limit: the same answer would come again. */
export function isReadLimitError(err: unknown): boolean {
  return err instanceof ConnectError && err.code === Code.ResourceExhausted && READ_LIMIT.test(err.rawMessage);
}

/**
 * The admin service answered a call with a non-OK status.
 *
 * ```ts
 * import { AdminError, createAdminClient } from "@fctl/fctl";
 *
 * const client = createAdminClient({ endpoint: "dns:///localhost:8089", insecure: true });
 * try {
 *   await client.admin.createTask({ id: { project: "flytesnacks", domain: "development", name: "hello", version: "v1" } });
 * } catch (err) {
 *   if (err instanceof AdminError && err.status === "AlreadyExists") console.log(`${err.rpc}: ${err.serverMessage}`);
 *   else throw err;
 * } finally {
 *   client.close();
 * }
 * ```
 */
export class AdminError extends OperationError {
  /** gRPC status name, e.g. `AlreadyExists`. */
  readonly status: GrpcStatus;
  /** The message the server sent, without our prefixes. */
  readonly serverMessage: string;
  /** The RPC that failed, e.g. `CreateTask`. */
  readonly rpc: string;
  /** An admin error: `message` is the full one-line message, `serverMessage` what the server said. */
  constructor(status: GrpcStatus, rpc: string, serverMessage: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.rpc = rpc;
    this.serverMessage = serverMessage;
  }
}

/**
 * Admin said NOT_FOUND.
 *
 * ```ts
 * import { AdminNotFoundError, createAdminClient } from "@fctl/fctl";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const client = createAdminClient({ endpoint: "dns:///localhost:8089", insecure: true });
 * const id = { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: "hello", version: "v9" };
 * const task = await client.admin.getTask({ id }).catch((err) => {
 *   if (err instanceof AdminNotFoundError) return undefined;
 *   throw err;
 * });
 * console.log(task ? "found" : "no such version");
 * client.close();
 * ```
 */
export class AdminNotFoundError extends AdminError {}

const CONNECTION_STATUSES = new Set<Code>([
  Code.Unavailable,
  Code.Unauthenticated,
  Code.Unknown,
  Code.DeadlineExceeded,
]);

/** Node's TLS verification failures, by `code` (node:tls and OpenSSL names). */
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|ERR_SSL/;

/** Node's error codes along an error's `cause` chain. */
export function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  for (let e = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}

/** Node's codes for a connection the peer broke off (an HTTP/1 server, a proxy or LB hanging up or resetting). */
export const BROKEN_CONNECTION_CODES: ReadonlySet<string> = new Set([
  "EPIPE",
  "ECONNRESET",
  "ERR_HTTP2_ERROR",
  "ERR_HTTP2_SESSION_ERROR",
]);

/**
 * Which connection failure an error is, to say so in its message: a refused certificate (which the
 * transport reports as INTERNAL, as Connect's Node client does), or a broken connection (which the
 * transport reports as UNAVAILABLE, as gRPC does: no working connection could be kept).
 */
function connectionFailure(ce: ConnectError): "tls" | "protocol" | undefined {
  const codes = errorCodes(ce);
  if (ce.code === Code.Internal && (codes.some((c) => TLS_CODES.test(c)) || /certificate/i.test(ce.rawMessage))) {
    return "tls";
  }
  if (codes.some((c) => BROKEN_CONNECTION_CODES.has(c))) return "protocol";
  return undefined;
}

/** Maps any error thrown by a Connect client call to an {@link FctlError}. */
export function mapAdminError(err: unknown, rpc: string, connection: ConnectionDescription): FctlError {
  if (err instanceof FctlError) return err;
  // An interceptor's own error (auth: a missing secret, a refused token request), which Connect wrapped.
  if (err instanceof ConnectError && err.cause instanceof FctlError) return err.cause;
  let ce = ConnectError.from(err);
  const tooLarge = READ_LIMIT.exec(ce.rawMessage);
  if (ce.code === Code.ResourceExhausted && tooLarge) {
    const size = tooLarge[1] ? `of ${tooLarge[1]} bytes ` : "";
    const serverMessage = `the answer ${size}is larger than the limit of ${tooLarge[2]} bytes ` +
      `(admin.maxMessageSizeBytes); raise --admin.maxMessageSizeBytes, or ask for less (e.g. --filter.limit)`;
    return new AdminError("ResourceExhausted", rpc, serverMessage, `${rpc} failed: ${serverMessage}`, { cause: err });
  }
  const failure = connectionFailure(ce);
  if (failure) {
    const hint = failure === "tls"
      ? "TLS: the server certificate was refused; trust its CA with admin.caCertFilePath"
      : "the connection was closed during the call";
    ce = new ConnectError(`${hint}: ${ce.rawMessage}`, Code.Unavailable, undefined, undefined, err);
  }
  const status = Code[ce.code] as GrpcStatus;
  const serverMessage = ce.rawMessage.replace(/\s+/g, " ").trim();
  let message = `${rpc} failed: ${status}: ${serverMessage}`;
  if (CONNECTION_STATUSES.has(ce.code)) {
    const where = `connection to ${connection.endpoint} (insecure: ${connection.insecure}, auth: ${
      connection.authType ?? "none"
    })`;
    message = `${where}: ${message}${hintFor(ce.code, connection)}`;
  }
  const ErrorClass = ce.code === Code.NotFound ? AdminNotFoundError : AdminError;
  return new ErrorClass(status, rpc, serverMessage, message, { cause: err });
}

function hintFor(code: Code, connection: ConnectionDescription): string {
  switch (code) {
    case Code.Unavailable:
      return ` (is the admin service running at ${connection.endpoint}? is admin.insecure right for it?)`;
    case Code.Unauthenticated:
      return " (check admin.authType and its credentials)";
    case Code.DeadlineExceeded:
      return ` (the admin service at ${connection.endpoint} did not answer in time; ` +
        "raise --admin.perRetryTimeout, or check the endpoint and the network)";
    default:
      return "";
  }
}

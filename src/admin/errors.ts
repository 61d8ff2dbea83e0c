/**
 * The one place where gRPC status codes become fctl errors.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { FctlError, OperationError } from "../errors.ts";
import { shownUrl } from "../log/shown_url.ts";

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
 * console.log(endpoint, insecure, authType); // https://flyte.example.com:443 false undefined
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
 * A call to the admin service failed: the admin answered a non-OK status, the connection failed (`status`
 * `Unavailable`, `Unauthenticated`, … with a hint in the message), or a read found nothing ({@link NotFoundError}).
 * Every failure of the library's admin operations is one, so a caller branches on {@link AdminError.status}.
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
 * What was asked for does not exist (exit 1): the admin answered NOT_FOUND (`GetTask` of a missing version),
 * or a read found nothing (`getTask` of a task name with no version, after `ListTasks`). An {@link AdminError}
 * whose `status` is always `"NotFound"`: `err instanceof NotFoundError` and `err.status === "NotFound"` agree.
 *
 * ```ts
 * import { AdminError, connect, getTask, NotFoundError } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const scope = { project: "flytesnacks", domain: "development" };
 * const result = await getTask(flyte.client, { ...scope, name: "core.basic.hello", latest: true }).catch((err) => {
 *   if (err instanceof NotFoundError) return undefined; // err.status === "NotFound", err.rpc === "ListTasks"
 *   if (err instanceof AdminError) console.error(`the admin failed: ${err.status}`);
 *   throw err;
 * });
 * console.log(result ? "found" : "no such task");
 * ```
 */
export class NotFoundError extends AdminError {
  /** Always `NotFound`. */
  declare readonly status: "NotFound";
  /** A not-found error of `rpc`; `message` is the full one-line message (default: the RPC, status and `serverMessage`). */
  constructor(
    rpc: string,
    serverMessage: string,
    message = `${rpc} failed: NotFound: ${serverMessage}`,
    options?: ErrorOptions,
  ) {
    super("NotFound", rpc, serverMessage, message, options);
  }
}

/**
 * The former name of {@link NotFoundError}, the same class.
 *
 * ```ts
 * import { AdminNotFoundError, NotFoundError } from "@fctl/fctl";
 *
 * console.log(AdminNotFoundError === NotFoundError); // true
 * ```
 *
 * @deprecated Use {@link NotFoundError}.
 */
export const AdminNotFoundError: typeof NotFoundError = NotFoundError;
/**
 * The former name of {@link NotFoundError}'s type.
 *
 * ```ts
 * import type { AdminNotFoundError } from "@fctl/fctl";
 *
 * const missing = (err: AdminNotFoundError) => err.serverMessage;
 * console.log(typeof missing); // function
 * ```
 *
 * @deprecated Use {@link NotFoundError}.
 */
export type AdminNotFoundError = NotFoundError;

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

/** Node's and rustls' words for a TLS client that read something other than TLS: a plaintext server. */
const NOT_TLS_CODES = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/;
const NOT_TLS_MESSAGES = /wrong version number|InvalidContentType|packet length too long/i;

/** Node's codes for a host name that does not resolve. */
const UNKNOWN_HOST_CODES: ReadonlySet<string> = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA"]);

/** Node's codes for a connection that could not be made at all. */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ETIMEDOUT",
  "EADDRNOTAVAIL",
]);

/**
 * What happened, for a failure whose hint depends on it (each has its own hint in {@link hintFor}):
 * - `answered`: the server sent the status itself (in gRPC headers or trailers): it is running and reachable;
 * - `httpStatus`: something at the endpoint answered an HTTP error status instead of gRPC's (a proxy, a load balancer);
 * - `redirect`: something at the endpoint answered with an HTTP redirect, which a gRPC call cannot follow (a sign-in
 *   proxy sending callers to its login page, an endpoint moved);
 * - `certificate`: TLS refused the server's certificate (the transport reports INTERNAL, as Connect's Node client does);
 * - `notTls`: TLS was spoken to a server that answered in plaintext;
 * - `unknownHost`: the endpoint's host name does not resolve;
 * - `unreachable`: no connection could be made (refused, no route);
 * - `lost`: a connection was made, then closed before the answer (a reset, an HTTP/2 session error, a stream
 *   cancelled by the peer: the transport reports them UNAVAILABLE, as gRPC does).
 */
type Happened =
  | "answered"
  | "httpStatus"
  | "redirect"
  | "certificate"
  | "notTls"
  | "unknownHost"
  | "unreachable"
  | "lost";

/** What happened in a failed call; undefined when the status alone says it. */
function whatHappened(ce: ConnectError): Happened | undefined {
  if (ce.isWireError) return "answered";
  const codes = errorCodes(ce);
  if (codes.some((c) => NOT_TLS_CODES.test(c)) || NOT_TLS_MESSAGES.test(ce.rawMessage)) return "notTls";
  if (ce.code === Code.Internal && (codes.some((c) => TLS_CODES.test(c)) || /certificate/i.test(ce.rawMessage))) {
    return "certificate";
  }
  if (codes.some((c) => UNKNOWN_HOST_CODES.has(c))) return "unknownHost";
  if (codes.some((c) => UNREACHABLE_CODES.has(c))) return "unreachable";
  if (codes.some((c) => BROKEN_CONNECTION_CODES.has(c))) return "lost";
  // Connect's error for an HTTP status other than 200 (UNKNOWN for a redirect), with the answer's headers.
  if (/^HTTP 3\d\d$/.test(ce.rawMessage)) return "redirect";
  if (ce.code !== Code.Unavailable) return undefined;
  // Connect's error for an HTTP status other than 200, with the answer's headers.
  if (/^HTTP \d{3}$/.test(ce.rawMessage)) return "httpStatus";
  // Neither sent by the server nor a connection that could not be made: the transport's own UNAVAILABLE for a
  // connection lost before the answer (see transport_status.ts and session_guard.ts).
  return "lost";
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
  const happened = whatHappened(ce);
  const prefix = happened === "certificate"
    ? "TLS: the server certificate was refused: "
    : happened === "notTls"
    ? "TLS: "
    : happened === "lost" && errorCodes(ce).some((c) => BROKEN_CONNECTION_CODES.has(c))
    ? "the connection was closed during the call: "
    : undefined;
  if (prefix !== undefined) {
    ce = new ConnectError(`${prefix}${ce.rawMessage}`, Code.Unavailable, undefined, undefined, err);
  }
  const status = Code[ce.code] as GrpcStatus;
  let serverMessage = ce.rawMessage.replace(/\s+/g, " ").trim();
  const location = happened === "redirect" ? ce.metadata.get("location") : null;
  // Where it sends the call, without the query (a sign-in page's state or token).
  if (location) serverMessage = `${serverMessage}, a redirect to ${shownUrl(location.replace(/\s+/g, " ").trim())}`;
  let message = `${rpc} failed: ${status}: ${serverMessage}`;
  // An UNKNOWN the admin sent itself is its own failure (FlyteAdmin's database refusing a query: a sort key its
  // query cannot sort on), not the connection's: the connection's description and hints would point the wrong way.
  const adminsOwn = ce.code === Code.Unknown && happened === "answered";
  if (CONNECTION_STATUSES.has(ce.code) && !adminsOwn) {
    const where = `connection to ${connection.endpoint} (insecure: ${connection.insecure}, auth: ${
      connection.authType ?? "none"
    })`;
    message = `${where}: ${message}${hintFor(ce.code, happened, connection)}`;
  }
  if (ce.code === Code.NotFound) return new NotFoundError(rpc, serverMessage, message, { cause: err });
  return new AdminError(status, rpc, serverMessage, message, { cause: err });
}

/** The hint that ends the message of a connection status: what to check, given what happened. */
function hintFor(code: Code, happened: Happened | undefined, connection: ConnectionDescription): string {
  switch (happened) {
    case "certificate":
      return " (trust its CA with admin.caCertFilePath)";
    case "notTls":
      return " (the server does not speak TLS; is admin.insecure right for it?)";
    case "unknownHost":
      return " (the host name does not resolve; is admin.endpoint right?)";
    case "unreachable":
    case "httpStatus":
      return ` (is the admin service running at ${connection.endpoint}?)`;
    case "redirect":
      return " (something in front of the admin sends callers elsewhere, a sign-in page perhaps, and a gRPC call " +
        "cannot follow it: is admin.endpoint the admin's gRPC endpoint? An identity-aware proxy's credentials go in " +
        "admin.proxyCommand)";
    case "lost":
      // Not "is it running?": something accepted the connection.
      return " (a server is there, but closed the connection: is admin.insecure right for it, and is this its " +
        "gRPC endpoint?)";
  }
  switch (code) {
    case Code.Unavailable:
      // The server said so itself: it runs, and a check of the endpoint or of admin.insecure would not help.
      return " (the admin answered UNAVAILABLE itself: it is running, but could not serve the call)";
    case Code.Unauthenticated:
      return " (check admin.authType and its credentials)";
    case Code.DeadlineExceeded:
      return ` (the admin service at ${connection.endpoint} did not answer in time; ` +
        "raise --admin.perRetryTimeout, or check the endpoint and the network)";
    default:
      return "";
  }
}

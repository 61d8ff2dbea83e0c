/**
 * The Connect interceptor behind the sandbox's test controls: it records every call, then applies the
 * artificial latency and the injected failures before the implementation touches any state.
 *
 * @module
 */
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { FaultInjector } from "./faults.ts";

/**
 * One gRPC request the sandbox received.
 *
 * ```ts
 * import { createAdminClient } from "@fctl/fctl";
 * import { type RecordedRequest, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
 * try {
 *   await client.admin.listTasks({ id: { project: "flytesnacks", domain: "development" }, limit: 5 });
 *   const [list]: RecordedRequest[] = sandbox.requests;
 *   console.log(list.service, list.method, list.userAgent); // AdminService ListTasks fctl/…
 * } finally {
 *   client.close();
 *   await sandbox.close();
 * }
 * ```
 */
export interface RecordedRequest {
  /** The service's short name. */
  service: "AdminService" | "DataProxyService" | "AuthMetadataService" | "IdentityService";
  /** Method name as in the proto, e.g. `ListTasks`. */
  method: string;
  /** The decoded request message. */
  request: unknown;
  /** The call's `User-Agent` header, as the client sent it. */
  userAgent: string | null;
  /** Milliseconds since the epoch, from the sandbox clock. */
  at: number;
}

/** Where the interceptor records and what it injects. */
export interface RecordAndInjectOptions {
  /** Every decoded call is appended here, in the order the calls arrive. */
  requests: RecordedRequest[];
  /** Latency and failure rules, read on every call. */
  faults: FaultInjector;
  /** The sandbox clock, for {@link RecordedRequest.at}. */
  now: () => Date;
}

/**
 * Records each call, then waits the latency and throws an injected failure, if any, before calling the
 * implementation. The wait ends early with the call's abort reason when the client cancels, its deadline
 * passes or the server shuts down; a call arriving after any of these is answered with that reason at once.
 */
export function recordAndInject({ requests, faults, now }: RecordAndInjectOptions): Interceptor {
  return (next) => async (request) => {
    const method = request.method.name;
    requests.push({
      service: request.service.name as RecordedRequest["service"],
      method,
      request: request.stream ? undefined : request.message,
      userAgent: request.header.get("User-Agent"),
      at: now().getTime(),
    });
    const { signal } = request;
    if (signal.aborted) throw ConnectError.from(signal.reason);
    if (faults.latencyMs > 0) await sleep(faults.latencyMs, signal);
    const injected = faults.check(method);
    if (injected) throw injected;
    return await next(request);
  };
}

/** Resolves after `ms`, or rejects with the signal's reason (as a ConnectError) as soon as it is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(ConnectError.from(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Retries of unary admin calls, as an interceptor: at most `maxAttempts` attempts for UNAVAILABLE and
 * RESOURCE_EXHAUSTED (and, on reads, an attempt that ran out of its own time), each attempt limited to
 * `perAttemptTimeoutMs`, waiting an exponential backoff with jitter capped at `maxBackoffMs` between
 * them. A gRPC service config's method timeout (a deadline for the whole call) and retry policy win
 * where they apply.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { methodConfigFor, type ServiceConfig } from "../config/service_config.ts";
import { isReadLimitError } from "./errors.ts";
import { backoffDelay, type BackoffOptions, DEFAULT_INITIAL_BACKOFF_MS, sleep } from "../backoff.ts";
import { AttemptDeadlines } from "./attempt_deadlines.ts";

/**
 * How calls are retried.
 *
 * ```ts
 * import { createAdminClient, type RetryOptions } from "@fctl/fctl";
 *
 * const retry: RetryOptions = {
 *   maxAttempts: 4,
 *   perAttemptTimeoutMs: 10_000,
 *   maxBackoffMs: 5_000,
 *   onRetry: (info) => console.warn(`${info.rpc}: ${info.status}, retrying in ${info.delayMs} ms`),
 * };
 * const client = createAdminClient({ endpoint: "dns:///flyte.example.com", retry });
 * client.close();
 * ```
 */
export interface RetryOptions extends BackoffOptions {
  /** Time limit of one attempt (`admin.perRetryTimeout`); 0 for none. */
  perAttemptTimeoutMs: number;
  /** `admin.defaultServiceConfig`, parsed. */
  serviceConfig?: ServiceConfig;
  /** Told about every failed attempt that will be retried (for logs). */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * A retry about to happen.
 *
 * ```ts
 * import { createAdminClient, type RetryInfo } from "@fctl/fctl";
 *
 * const retries: RetryInfo[] = [];
 * const retry = { maxAttempts: 3, perAttemptTimeoutMs: 0, maxBackoffMs: 1_000, onRetry: (info: RetryInfo) => retries.push(info) };
 * const client = createAdminClient({ endpoint: "dns:///localhost:8089", insecure: true, retry });
 * await client.admin.getVersion({}).catch(() => {});
 * console.log(retries.map((info) => `attempt ${info.attempt}/${info.maxAttempts}: ${info.status}`));
 * client.close();
 * ```
 */
export interface RetryInfo {
  /** The RPC, e.g. `ListTasks`. */
  rpc: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Attempts allowed in total. */
  maxAttempts: number;
  /** The failed attempt's status, e.g. `Unavailable`. */
  status: string;
  /** The wait before the next attempt. */
  delayMs: number;
}

const DEFAULT_RETRYABLE = [Code.Unavailable, Code.ResourceExhausted];

/** Reads have no effect, so one that ran out of time may be repeated. */
function isRead(method: string): boolean {
  return /^(Get|List)/.test(method);
}

function isCreate(method: string): boolean {
  return /^Create/.test(method);
}

interface Policy {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  multiplier: number;
  retryable: ReadonlySet<Code>;
  callTimeoutMs?: number;
}

function policyFor(options: RetryOptions, service: string, method: string): Policy {
  const config = options.serviceConfig ? methodConfigFor(options.serviceConfig, service, method) : undefined;
  const fromConfig = config?.retryPolicy;
  if (fromConfig) {
    return {
      maxAttempts: fromConfig.maxAttempts,
      initialBackoffMs: fromConfig.initialBackoffMs,
      maxBackoffMs: fromConfig.maxBackoffMs,
      multiplier: fromConfig.backoffMultiplier,
      retryable: new Set(fromConfig.retryableStatusCodes as Code[]),
      callTimeoutMs: config?.timeoutMs,
    };
  }
  const retryable = new Set(DEFAULT_RETRYABLE);
  if (isRead(method)) retryable.add(Code.DeadlineExceeded);
  return {
    maxAttempts: Math.max(1, options.maxAttempts),
    initialBackoffMs: options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS,
    maxBackoffMs: options.maxBackoffMs,
    multiplier: 2,
    retryable,
    callTimeoutMs: config?.timeoutMs,
  };
}

/** gRPC's `grpc-timeout` header value for a number of milliseconds. */
function grpcTimeout(ms: number): string {
  return `${Math.max(1, Math.ceil(ms))}m`;
}

/**
 * A signal that aborts when `parent` does (with its reason) or, after `ms` if finite, with DEADLINE_EXCEEDED;
 * `clear` stops its timer and unhooks it from `parent`. One controller and one listener: this runs for every
 * attempt of every call, and `AbortSignal.any` costs several times as much (showed in registration profiles).
 */
function deadline(parent: AbortSignal, ms: number, what: string): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, clear: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  const timer = Number.isFinite(ms) && ms > 0 ? setTimeout(() => controller.abort(timedOut(what, ms)), ms) : undefined;
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}

/** The error of `what` (a call, one attempt of it) that ran out of its `ms`. */
function timedOut(what: string, ms: number): ConnectError {
  return new ConnectError(`${what} timed out after ${ms} ms`, Code.DeadlineExceeded);
}

/** A time limit in ms, if there is one. */
function hasLimit(ms: number | undefined): ms is number {
  return ms !== undefined && ms > 0 && Number.isFinite(ms);
}

/** The retry interceptor. Streaming calls pass through untouched. */
export function retryInterceptor(options: RetryOptions): Interceptor {
  const random = options.random ?? Math.random;
  // Per method, worked out on its first call: the service config lookup, sets and patterns cost more than the
  // rest of the interceptor at registration's call rates.
  const policies = new Map<string, Policy>();
  const policyOf = (service: string, method: string): Policy => {
    const key = `${service}/${method}`;
    let policy = policies.get(key);
    if (!policy) policies.set(key, policy = policyFor(options, service, method));
    return policy;
  };
  // Attempts of the configured length share one timer (see attempt_deadlines.ts); one cut short by a service
  // config's call timeout has its own.
  const attempts = AttemptDeadlines.fits(options.perAttemptTimeoutMs)
    ? new AttemptDeadlines(options.perAttemptTimeoutMs)
    : undefined;
  return (next) => async (req) => {
    if (req.stream) return await next(req);
    const rpc = req.method.name;
    const policy = policyOf(req.service.typeName, rpc);
    const call = hasLimit(policy.callTimeoutMs)
      ? deadline(req.signal, policy.callTimeoutMs, `${rpc} (service config timeout)`)
      : undefined;
    const callSignal = call?.signal ?? req.signal;
    const callEnds = policy.callTimeoutMs ? Date.now() + policy.callTimeoutMs : Infinity;
    try {
      let failedBefore = false;
      for (let attempt = 1;; attempt++) {
        const remaining = callEnds - Date.now();
        const limit = Math.min(options.perAttemptTimeoutMs > 0 ? options.perAttemptTimeoutMs : Infinity, remaining);
        const own = !hasLimit(limit)
          ? undefined
          : limit === attempts?.ms
          ? attempts.start(callSignal, () => timedOut(`one attempt of ${rpc}`, limit))
          : deadline(callSignal, limit, `one attempt of ${rpc}`);
        // The call's own headers (Connect makes them per call): each attempt sets its own time limit.
        if (Number.isFinite(limit)) req.header.set("grpc-timeout", grpcTimeout(limit));
        try {
          return await next(own ? { ...req, signal: own.signal } : req);
        } catch (err) {
          // The user's cancel and the whole call's deadline end everything.
          if (req.signal.aborted) throw req.signal.reason ?? err;
          if (call?.signal.aborted) throw call.signal.reason;
          const error = own?.signal.aborted ? (own.signal.reason as ConnectError) : ConnectError.from(err);
          // A create whose earlier attempt may have landed: its ALREADY_EXISTS is our own success.
          if (failedBefore && isCreate(rpc) && error.code === Code.AlreadyExists) {
            return createdResponse(req);
          }
          // An answer over the size limit would be as large the next time.
          if (!policy.retryable.has(error.code) || attempt >= policy.maxAttempts || isReadLimitError(error)) {
            throw error;
          }
          failedBefore = true;
          const delayMs = backoffDelay(
            attempt,
            { initialMs: policy.initialBackoffMs, maxMs: policy.maxBackoffMs, multiplier: policy.multiplier },
            random,
          );
          options.onRetry?.({ rpc, attempt, maxAttempts: policy.maxAttempts, status: Code[error.code], delayMs });
          await sleep(delayMs, callSignal);
        } finally {
          own?.clear();
        }
      }
    } finally {
      call?.clear();
    }
  };
}

/** The answer of a create that succeeded on an earlier, seemingly failed attempt (creates return empty messages). */
function createdResponse(req: UnaryRequest): UnaryResponse {
  return {
    stream: false,
    service: req.service,
    method: req.method,
    header: new Headers(),
    message: create(req.method.output),
    trailer: new Headers(),
  } as UnaryResponse;
}

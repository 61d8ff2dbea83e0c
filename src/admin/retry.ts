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

/** How calls are retried. */
export interface RetryOptions {
  /** Attempts in total (`admin.maxRetries`); at least 1. */
  maxAttempts: number;
  /** Time limit of one attempt (`admin.perRetryTimeout`); 0 for none. */
  perAttemptTimeoutMs: number;
  /** Longest wait between attempts (`admin.maxBackoffDelay`). */
  maxBackoffMs: number;
  /** First wait; doubled after each attempt. Default 100 ms. */
  initialBackoffMs?: number;
  /** `admin.defaultServiceConfig`, parsed. */
  serviceConfig?: ServiceConfig;
  /** Told about every failed attempt that will be retried (for logs). */
  onRetry?: (info: RetryInfo) => void;
  /** Random number in [0, 1), for jitter; injectable for tests. */
  random?: () => number;
}

/** A retry about to happen. */
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
    initialBackoffMs: options.initialBackoffMs ?? 100,
    maxBackoffMs: options.maxBackoffMs,
    multiplier: 2,
    retryable,
    callTimeoutMs: config?.timeoutMs,
  };
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** gRPC's `grpc-timeout` header value for a number of milliseconds. */
function grpcTimeout(ms: number): string {
  return `${Math.max(1, Math.ceil(ms))}m`;
}

/** A signal that aborts with DEADLINE_EXCEEDED after `ms`, and a way to stop its timer. */
function deadline(ms: number | undefined, what: string): { signal?: AbortSignal; clear: () => void } {
  if (ms === undefined || ms <= 0 || !Number.isFinite(ms)) return { clear: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new ConnectError(`${what} timed out after ${ms} ms`, Code.DeadlineExceeded)),
    ms,
  );
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** The retry interceptor. Streaming calls pass through untouched. */
export function retryInterceptor(options: RetryOptions): Interceptor {
  const random = options.random ?? Math.random;
  return (next) => async (req) => {
    if (req.stream) return await next(req);
    const rpc = req.method.name;
    const policy = policyFor(options, req.service.typeName, rpc);
    const call = deadline(policy.callTimeoutMs, `${rpc} (service config timeout)`);
    const callSignal = call.signal ? AbortSignal.any([req.signal, call.signal]) : req.signal;
    const callEnds = policy.callTimeoutMs ? Date.now() + policy.callTimeoutMs : Infinity;
    try {
      let failedBefore = false;
      for (let attempt = 1;; attempt++) {
        const remaining = callEnds - Date.now();
        const limit = Math.min(options.perAttemptTimeoutMs > 0 ? options.perAttemptTimeoutMs : Infinity, remaining);
        const own = deadline(limit, `one attempt of ${rpc}`);
        const signal = own.signal ? AbortSignal.any([callSignal, own.signal]) : callSignal;
        const header = new Headers(req.header);
        if (Number.isFinite(limit)) header.set("grpc-timeout", grpcTimeout(limit));
        try {
          return await next({ ...req, signal, header } as UnaryRequest);
        } catch (err) {
          // The user's cancel and the whole call's deadline end everything.
          if (req.signal.aborted) throw req.signal.reason ?? err;
          if (call.signal?.aborted) throw call.signal.reason;
          const error = own.signal?.aborted ? (own.signal.reason as ConnectError) : ConnectError.from(err);
          // A create whose earlier attempt may have landed: its ALREADY_EXISTS is our own success.
          if (failedBefore && isCreate(rpc) && error.code === Code.AlreadyExists) {
            return createdResponse(req);
          }
          if (!policy.retryable.has(error.code) || attempt >= policy.maxAttempts) throw error;
          failedBefore = true;
          const cap = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * policy.multiplier ** (attempt - 1));
          const delayMs = Math.round(cap * (0.5 + random() / 2));
          options.onRetry?.({ rpc, attempt, maxAttempts: policy.maxAttempts, status: Code[error.code], delayMs });
          await sleep(delayMs, callSignal);
        } finally {
          own.clear();
        }
      }
    } finally {
      call.clear();
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

/**
 * gRPC service config JSON (`admin.defaultServiceConfig`): the parts a client honours are per-method
 * timeouts and retry policies (see grpc/doc/service_config.md). Load-balancing settings are accepted and
 * ignored: there is one connection.
 *
 * Pure and light, so the config loader can reject a bad value before anything is attempted.
 *
 * @module
 */

import { MAX_DURATION_MS } from "./duration.ts";

/** gRPC status names by number, as service configs spell them. */
export const GRPC_STATUS_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

/**
 * A retry policy of one method config.
 *
 * ```ts
 * import type { RetryPolicy } from "@fctl/fctl";
 *
 * const policy: RetryPolicy = {
 *   maxAttempts: 5,
 *   initialBackoffMs: 100,
 *   maxBackoffMs: 2_000,
 *   backoffMultiplier: 2,
 *   retryableStatusCodes: [14], // UNAVAILABLE
 * };
 * console.log(policy.maxAttempts);
 * ```
 */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** Wait before the first retry (jittered). */
  initialBackoffMs: number;
  /** Longest wait between attempts. */
  maxBackoffMs: number;
  /** Growth of the wait per attempt. */
  backoffMultiplier: number;
  /** Status numbers (Connect's `Code` values equal gRPC's). */
  retryableStatusCodes: readonly number[];
}

/**
 * One entry of `methodConfig`.
 *
 * ```ts
 * import type { MethodConfig } from "@fctl/fctl";
 *
 * const listCalls: MethodConfig = { names: [{ service: "flyteidl.service.AdminService", method: "ListTasks" }], timeoutMs: 30_000 };
 * console.log(listCalls.names[0].method);
 * ```
 */
export interface MethodConfig {
  /** `{service, method}` selectors; an empty selector matches every method. */
  names: readonly { service?: string; method?: string }[];
  /** Time limit of the whole call, retries included. */
  timeoutMs?: number;
  /** How failed attempts are retried. */
  retryPolicy?: RetryPolicy;
}

/**
 * The honoured part of a service config.
 *
 * ```ts
 * import { createAdminClient, type ServiceConfig } from "@fctl/fctl";
 *
 * const serviceConfig: ServiceConfig = {
 *   methodConfig: [{
 *     names: [{ service: "flyteidl.service.AdminService" }],
 *     retryPolicy: {
 *       maxAttempts: 4,
 *       initialBackoffMs: 200,
 *       maxBackoffMs: 5_000,
 *       backoffMultiplier: 2,
 *       retryableStatusCodes: [14],
 *     },
 *   }],
 * };
 * const retry = { maxAttempts: 4, perAttemptTimeoutMs: 0, maxBackoffMs: 5_000, serviceConfig };
 * createAdminClient({ endpoint: "dns:///flyte.example.com", retry }).close();
 * ```
 */
export interface ServiceConfig {
  /** Per-method timeouts and retry policies: an exact method match wins over a service-wide one, then the default. */
  methodConfig: readonly MethodConfig[];
}

/** Why a service config is invalid. */
export class ServiceConfigError extends Error {}

function fail(message: string): never {
  throw new ServiceConfigError(message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A protobuf JSON duration: decimal seconds with an `s` suffix (`"1.5s"`). */
function protoDuration(value: unknown, where: string): number {
  const match = typeof value === "string" ? /^(\d+(?:\.\d{1,9})?)s$/.exec(value.trim()) : null;
  if (!match) fail(`${where} must be a duration like "1.5s", got ${JSON.stringify(value)}`);
  const ms = Number(match[1]) * 1000;
  // A timer cannot hold more (it would fire at once): the same bound as every other duration.
  if (!(ms <= MAX_DURATION_MS)) {
    fail(`${where} must be from 0s to ${MAX_DURATION_MS / 1000}s, got ${JSON.stringify(value)}`);
  }
  return ms;
}

function statusCode(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0 && value < GRPC_STATUS_NAMES.length) {
    return value;
  }
  const index = typeof value === "string" ? GRPC_STATUS_NAMES.indexOf(value.toUpperCase() as "OK") : -1;
  if (index <= 0) fail(`${where} has an unknown status code ${JSON.stringify(value)}`);
  return index;
}

function retryPolicy(raw: unknown, where: string): RetryPolicy {
  if (!isObject(raw)) fail(`${where} must be an object`);
  const maxAttempts = raw.maxAttempts;
  if (typeof maxAttempts !== "number" || !Number.isInteger(maxAttempts) || maxAttempts < 2) {
    fail(`${where}.maxAttempts must be a whole number of at least 2`);
  }
  const backoffMultiplier = raw.backoffMultiplier;
  if (typeof backoffMultiplier !== "number" || !(backoffMultiplier > 0)) {
    fail(`${where}.backoffMultiplier must be a number above 0`);
  }
  const codes = raw.retryableStatusCodes;
  if (!Array.isArray(codes) || codes.length === 0) fail(`${where}.retryableStatusCodes must be a non-empty list`);
  const initialBackoffMs = protoDuration(raw.initialBackoff, `${where}.initialBackoff`);
  const maxBackoffMs = protoDuration(raw.maxBackoff, `${where}.maxBackoff`);
  if (initialBackoffMs <= 0 || maxBackoffMs <= 0) fail(`${where} backoffs must be above 0s`);
  return {
    // gRPC caps attempts at 5 whatever the config says.
    maxAttempts: Math.min(maxAttempts, 5),
    initialBackoffMs,
    maxBackoffMs,
    backoffMultiplier,
    retryableStatusCodes: codes.map((c, i) => statusCode(c, `${where}.retryableStatusCodes[${i}]`)),
  };
}

function methodConfig(raw: unknown, where: string): MethodConfig {
  if (!isObject(raw)) fail(`${where} must be an object`);
  const names = raw.name ?? [];
  if (!Array.isArray(names)) fail(`${where}.name must be a list`);
  const selectors = names.map((n, i) => {
    if (!isObject(n)) fail(`${where}.name[${i}] must be an object`);
    const { service, method } = n;
    if (service !== undefined && typeof service !== "string") fail(`${where}.name[${i}].service must be text`);
    if (method !== undefined && typeof method !== "string") fail(`${where}.name[${i}].method must be text`);
    if (method && !service) fail(`${where}.name[${i}] names a method without its service`);
    return { service: service || undefined, method: method || undefined };
  });
  return {
    names: selectors,
    timeoutMs: raw.timeout === undefined ? undefined : protoDuration(raw.timeout, `${where}.timeout`),
    retryPolicy: raw.retryPolicy === undefined ? undefined : retryPolicy(raw.retryPolicy, `${where}.retryPolicy`),
  };
}

/** Parses a service config JSON text; throws {@link ServiceConfigError} naming the bad part. */
export function parseServiceConfig(text: string): ServiceConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    fail(`not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(raw)) fail("must be a JSON object");
  const list = raw.methodConfig ?? [];
  if (!Array.isArray(list)) fail("methodConfig must be a list");
  return { methodConfig: list.map((m, i) => methodConfig(m, `methodConfig[${i}]`)) };
}

/**
 * The method config that applies to `service`/`method` (full service name, e.g.
 * `flyteidl.service.AdminService`): an exact method match, else a service-wide one, else the default.
 */
export function methodConfigFor(config: ServiceConfig, service: string, method: string): MethodConfig | undefined {
  const find = (test: (n: { service?: string; method?: string }) => boolean) =>
    config.methodConfig.find((m) => m.names.some(test));
  return find((n) => n.service === service && n.method === method) ??
    find((n) => n.service === service && n.method === undefined) ??
    find((n) => n.service === undefined && n.method === undefined);
}

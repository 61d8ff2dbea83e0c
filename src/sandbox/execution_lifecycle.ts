/**
 * The simulated lifecycle of a sandbox execution, on the sandbox's clock (`SandboxOptions.now`): QUEUED from its
 * creation, RUNNING from `startAfter`, and its planned outcome at `after` (SUCCEEDED, FAILED with a message, or
 * never). A termination makes it ABORTING, then ABORTED `abortAfter` later. Phases are computed from these times
 * whenever the execution is read, so a test that moves its clock sees every transition, each dated when it was due.
 *
 * @module
 */
import type { LiteralMap } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { MessageInit } from "../admin/message_init.ts";

/**
 * How a planned execution ends: `SUCCEEDED`, `FAILED` (with {@link ExecutionPlan.message}), or `never` (it runs
 * until it is terminated).
 *
 * ```ts
 * import type { ExecutionOutcome } from "@fctl/fctl/testing";
 *
 * const hangs: ExecutionOutcome = "never";
 * console.log(hangs);
 * ```
 */
export type ExecutionOutcome = "SUCCEEDED" | "FAILED" | "never";

/**
 * What a sandbox execution does, in milliseconds of the sandbox's clock from its creation. Every field has a default.
 *
 * ```ts
 * import { type ExecutionPlan, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const oom: ExecutionPlan = { outcome: "FAILED", after: 50, message: "OOMKilled", attempts: 2 };
 * sandbox.store.executions.plan({ launchPlan: "train" }, oom); // executions of launch plan "train" fail
 * sandbox.store.executions.plan({ execution: "stuck" }, { outcome: "never" }); // "stuck" runs until terminated
 * await sandbox.close();
 * ```
 */
export interface ExecutionPlan {
  /** How it ends; default `SUCCEEDED`. */
  outcome?: ExecutionOutcome;
  /** Milliseconds QUEUED before RUNNING; default 0. */
  startAfter?: number;
  /** Milliseconds from creation to the outcome (at least `startAfter`); default 1000. */
  after?: number;
  /** The error message of a FAILED execution (and of its failing node and task); default `task failed`. */
  message?: string;
  /** The error kind of a FAILED execution; default `USER`. */
  errorKind?: "USER" | "SYSTEM";
  /** Milliseconds ABORTING before ABORTED once terminated; default 0. */
  abortAfter?: number;
  /** Attempts of every task node (the earlier ones fail and are retried); default 1. */
  attempts?: number;
  /** The outputs of a SUCCEEDED execution; default a value of each declared output's type. */
  outputs?: MessageInit<LiteralMap>;
}

/** A plan with every default applied, its times in nanoseconds. */
export interface ResolvedPlan {
  outcome: ExecutionOutcome;
  startAfterNs: bigint;
  afterNs: bigint;
  message: string;
  errorKind: "USER" | "SYSTEM";
  abortAfterNs: bigint;
  attempts: number;
  outputs?: MessageInit<LiteralMap>;
}

const NS_PER_MS = 1_000_000n;

function milliseconds(value: number | undefined, fallback: number, field: string): bigint {
  const ms = value ?? fallback;
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`ExecutionPlan.${field} must be ≥ 0 ms, got ${value}`);
  return BigInt(Math.round(ms)) * NS_PER_MS;
}

/** Applies the defaults; throws RangeError naming a negative or non-finite time or a bad attempt count. */
export function resolvePlan(plan: ExecutionPlan = {}): ResolvedPlan {
  const startAfterNs = milliseconds(plan.startAfter, 0, "startAfter");
  const afterNs = milliseconds(plan.after, 1000, "after");
  const attempts = plan.attempts ?? 1;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new RangeError(`ExecutionPlan.attempts must be a whole number ≥ 1, got ${plan.attempts}`);
  }
  return {
    outcome: plan.outcome ?? "SUCCEEDED",
    startAfterNs,
    afterNs: afterNs < startAfterNs ? startAfterNs : afterNs,
    message: plan.message ?? "task failed",
    errorKind: plan.errorKind ?? "USER",
    abortAfterNs: milliseconds(plan.abortAfter, 0, "abortAfter"),
    attempts,
    outputs: plan.outputs,
  };
}

/** When an execution was terminated, and when its abort completes. */
export interface Termination {
  atNs: bigint;
  abortedNs: bigint;
}

/**
 * A phase of the sandbox's lifecycle, named as flyteidl's phases are (nodes and task attempts never abort slowly,
 * so they skip `ABORTING`).
 *
 * ```ts
 * import type { SimPhase } from "@fctl/fctl/testing";
 *
 * const done: SimPhase[] = ["SUCCEEDED", "FAILED", "ABORTED"];
 * console.log(done);
 * ```
 */
export type SimPhase = "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "ABORTING" | "ABORTED";

/** Where something is at a moment: its phase and the times its closure shows. */
export interface PhaseAt {
  phase: SimPhase;
  /** When it started RUNNING, once it has. */
  startedNs?: bigint;
  /** When its phase last changed. */
  updatedNs: bigint;
  /** When it reached a terminal phase, once it has. */
  endedNs?: bigint;
}

/** Something that runs over `[startNs, endNs)` (`endNs` null: forever) and then ends as `result`. */
export interface Span {
  startNs: bigint;
  endNs: bigint | null;
  result: "SUCCEEDED" | "FAILED";
}

/** The execution's own span: RUNNING from `startAfter`, ending at `after` unless it never ends. */
export function executionSpan(createdNs: bigint, plan: ResolvedPlan): Span {
  return {
    startNs: createdNs + plan.startAfterNs,
    endNs: plan.outcome === "never" ? null : createdNs + plan.afterNs,
    result: plan.outcome === "FAILED" ? "FAILED" : "SUCCEEDED",
  };
}

const TERMINAL = new Set<SimPhase>(["SUCCEEDED", "FAILED", "ABORTED"]);

/** Whether a phase is final. */
export function isTerminal(phase: SimPhase): boolean {
  return TERMINAL.has(phase);
}

/**
 * The phase of an execution at `nowNs`: QUEUED from creation, then its span's phases; a termination that came
 * before the end makes it ABORTING, then ABORTED.
 */
export function executionPhaseAt(
  createdNs: bigint,
  span: Span,
  termination: Termination | undefined,
  nowNs: bigint,
): PhaseAt {
  const transitions: [bigint, SimPhase][] = [[createdNs, "QUEUED"]];
  if (termination) {
    if (span.startNs <= termination.atNs) transitions.push([span.startNs, "RUNNING"]);
    transitions.push([termination.atNs, "ABORTING"], [termination.abortedNs, "ABORTED"]);
  } else {
    transitions.push([span.startNs, "RUNNING"]);
    if (span.endNs !== null) transitions.push([span.endNs, span.result]);
  }
  return phaseFrom(transitions, nowNs) ?? { phase: "QUEUED", updatedNs: createdNs };
}

/**
 * The phase of a node or task attempt at `nowNs`, or undefined when it has not started (or never will: it was due
 * after the execution was terminated). One running when the execution is terminated is ABORTED with it.
 */
export function spanPhaseAt(span: Span, termination: Termination | undefined, nowNs: bigint): PhaseAt | undefined {
  if (termination && span.startNs > termination.atNs) return undefined;
  const transitions: [bigint, SimPhase][] = [[span.startNs, "RUNNING"]];
  const endsFirst = span.endNs !== null && (!termination || span.endNs <= termination.atNs);
  if (endsFirst) transitions.push([span.endNs!, span.result]);
  else if (termination) transitions.push([termination.abortedNs, "ABORTED"]);
  return phaseFrom(transitions, nowNs);
}

function phaseFrom(transitions: [bigint, SimPhase][], nowNs: bigint): PhaseAt | undefined {
  let current: PhaseAt | undefined;
  for (const [atNs, phase] of transitions) {
    if (atNs > nowNs) break;
    current = { ...current, phase, updatedNs: atNs };
    if (phase === "RUNNING") current.startedNs = atNs;
    if (isTerminal(phase)) current.endedNs = atNs;
  }
  return current;
}

/**
 * Splits a span into `count` consecutive equal parts. A span that never ends has one part that never ends (the
 * first); the parts after it never start, so they are left out.
 */
export function splitSpan(span: Span, count: number): { startNs: bigint; endNs: bigint | null }[] {
  if (span.endNs === null) return count > 0 ? [{ startNs: span.startNs, endNs: null }] : [];
  const total = span.endNs - span.startNs;
  const parts = BigInt(Math.max(count, 1));
  return Array.from({ length: count }, (_, i) => ({
    startNs: span.startNs + (total * BigInt(i)) / parts,
    endNs: span.startNs + (total * BigInt(i + 1)) / parts,
  }));
}

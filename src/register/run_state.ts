/**
 * The state of one registration, passed explicitly from step to step (check → plan → execute →
 * report): each step reads what it needs from it and records what it did in it.
 *
 * @module
 */
import type { CheckedOptions, RegisterDeps } from "./options.ts";
import type { RegisteredSource, RegisterEntry, RegisterTimings } from "./entries.ts";

/** One registration in progress. */
export interface RegisterRun {
  readonly options: CheckedOptions;
  readonly deps: RegisterDeps;
  /** Aborting stops starting creates; see `registerFiles`. */
  readonly signal: AbortSignal | undefined;
  /** Milliseconds on a monotonic clock. */
  readonly now: () => number;
  /** When the registration began, on {@link now}'s clock. */
  readonly startedMs: number;
  /** The rows so far: members that cannot be registered first, then the entities in creation order. */
  readonly entries: RegisterEntry[];
  /** Filled in as each phase ends. */
  readonly timings: RegisterTimings;
  /** The package's fast-registration source, once found; where it went, once uploaded. */
  source?: RegisteredSource;
  /** What stopped the registration as a whole once it had started sending (unreachable admin, failed upload). */
  error?: Error;
  /** The signal aborted while entities were being created. */
  interrupted: boolean;
}

/** A run that starts now. */
export function startRun(options: CheckedOptions, signal: AbortSignal | undefined, deps: RegisterDeps): RegisterRun {
  const now = deps.now ?? (() => performance.now());
  return {
    options,
    deps,
    signal,
    now,
    startedMs: now(),
    entries: [],
    timings: { prepareMs: 0, uploadMs: 0, registerMs: 0, totalMs: 0 },
    interrupted: false,
  };
}

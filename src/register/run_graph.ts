/**
 * Running jobs that depend on each other with bounded concurrency.
 *
 * A job starts as soon as every job it depends on has succeeded and a slot is free, so a slow
 * task does not hold back workflows that do not use it (strict stage barriers would). Among ready
 * jobs, the one with the longest chain of jobs waiting on it starts first (the critical path: a
 * task three levels under a launch plan before a task nothing uses), then the one earliest in the
 * given order, which keeps runs reproducible.
 *
 * @module
 */

/** How one job ended, or why it never started. */
export type JobOutcome<T, R> =
  /** It ran; `failed` says whether its result counts as a failure. */
  | { state: "finished"; result: R; failed: boolean; startedMs: number; durationMs: number }
  /** A job it depends on failed or was itself blocked; `on` is that direct dependency. */
  | { state: "blocked"; on: T }
  /** Scheduling stopped (a failure without continue-on-error, an exception, or the signal) before it started. */
  | { state: "notStarted" };

/** What {@link runGraph} needs. */
export interface RunGraphOptions<T, R> {
  /** The jobs, in preferred start order among jobs with equally long chains of dependents. */
  jobs: readonly T[];
  /** The jobs each job needs to have succeeded first; jobs not in {@link jobs} are ignored. */
  dependencies: ReadonlyMap<T, ReadonlySet<T>>;
  /** Most jobs running at once; at least 1. */
  concurrency: number;
  /** Runs one job. A thrown error stops scheduling and is rethrown once running jobs have settled. */
  run: (job: T) => Promise<R>;
  /** Whether a result is a failure (its dependents are then blocked). */
  isFailure: (result: R) => boolean;
  /** Start nothing new after the first failure. */
  stopOnFailure: boolean;
  /** Aborting stops scheduling; running jobs are awaited, not cancelled. */
  signal?: AbortSignal;
  /** Milliseconds on some monotonic clock; default `performance.now`. */
  now?: () => number;
}

/**
 * Runs every job whose dependencies succeed, at most `concurrency` at a time, and returns the
 * outcome of each job.
 *
 * If references form a cycle, the first job of the cycle (in job order) starts when nothing else
 * can, so a cycle is left to whatever the jobs themselves report.
 *
 * @throws the first error a job threw, after every running job has settled
 */
export function runGraph<T, R>(options: RunGraphOptions<T, R>): Promise<Map<T, JobOutcome<T, R>>> {
  const { jobs, concurrency, signal } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const now = options.now ?? (() => performance.now());
  const known = new Set(jobs);
  const dependsOn = new Map<T, T[]>();
  const dependents = new Map<T, T[]>();
  for (const job of jobs) {
    const deps = [...(options.dependencies.get(job) ?? [])].filter((d) => known.has(d) && d !== job);
    dependsOn.set(job, deps);
    for (const dep of deps) {
      // Appended in place: a job many others wait for (the source upload) would otherwise be copied per dependent.
      const list = dependents.get(dep);
      if (list) list.push(job);
      else dependents.set(dep, [job]);
    }
  }
  const rank = new Map(criticalPathOrder(jobs, dependents).map((job, i) => [job, i]));
  // Jobs whose dependencies have all succeeded, in start order; a job is picked in constant time
  // instead of rescanning every job, which showed in profiles at registration's call rates.
  const ready = new ReadyQueue<T>(rank);
  const unmet = new Map<T, number>();
  for (const job of jobs) {
    const count = dependsOn.get(job)!.length;
    unmet.set(job, count);
    if (count === 0) ready.add(job);
  }
  const outcomes = new Map<T, JobOutcome<T, R>>();
  const running = new Set<T>();
  let stopped = false;
  let error: { value: unknown } | undefined;

  const block = (job: T, on: T) => {
    if (outcomes.has(job) || running.has(job)) return;
    outcomes.set(job, { state: "blocked", on });
    for (const dependent of dependents.get(job) ?? []) block(dependent, job);
  };
  const isWaiting = (job: T) => !outcomes.has(job) && !running.has(job);
  const nextJob = (): T | undefined => {
    for (let job = ready.take(); job !== undefined; job = ready.take()) {
      if (isWaiting(job)) return job;
    }
    // Nothing ready and nothing running that could make something ready: only a cycle remains.
    return running.size === 0 ? jobs.find(isWaiting) : undefined;
  };

  return new Promise((resolve, reject) => {
    const finish = () => {
      for (const job of jobs) if (!outcomes.has(job)) outcomes.set(job, { state: "notStarted" });
      if (error) reject(error.value);
      else resolve(outcomes);
    };
    const pump = () => {
      if (signal?.aborted) stopped = true;
      while (!stopped && running.size < concurrency) {
        const job = nextJob();
        if (job === undefined) break;
        start(job);
      }
      if (running.size === 0) finish();
    };
    const start = (job: T) => {
      running.add(job);
      const startedMs = now();
      options.run(job).then(
        (result) => {
          const failed = options.isFailure(result);
          outcomes.set(job, { state: "finished", result, failed, startedMs, durationMs: now() - startedMs });
          if (failed) {
            if (options.stopOnFailure) stopped = true;
            for (const dependent of dependents.get(job) ?? []) block(dependent, job);
          } else {
            for (const dependent of dependents.get(job) ?? []) {
              const left = unmet.get(dependent)! - 1;
              unmet.set(dependent, left);
              if (left === 0) ready.add(dependent);
            }
          }
        },
        (err: unknown) => {
          error ??= { value: err };
          stopped = true;
        },
      ).finally(() => {
        running.delete(job);
        pump();
      });
    };
    // No abort listener needed: every pump, which follows each job's end, looks at the signal.
    pump();
  });
}

/**
 * `jobs` ordered by the length of the longest chain of dependents each one starts (longest first),
 * then by their given order. Starting those first keeps the slots full up to the last level of
 * dependents instead of leaving a long chain to run alone at the end.
 */
function criticalPathOrder<T>(jobs: readonly T[], dependents: ReadonlyMap<T, readonly T[]>): T[] {
  const chain = new Map<T, number>();
  const onPath = new Set<T>();
  const length = (job: T): number => {
    const known = chain.get(job);
    if (known !== undefined) return known;
    // A cycle (no valid package has one) ends the chain where it closes.
    if (onPath.has(job)) return 0;
    onPath.add(job);
    let longest = 0;
    for (const dependent of dependents.get(job) ?? []) longest = Math.max(longest, length(dependent));
    onPath.delete(job);
    chain.set(job, longest + 1);
    return longest + 1;
  };
  // Keyed once, not looked up in every comparison: this runs before the first create.
  const keyed = jobs.map((job, index) => ({ job, index, chain: length(job) }));
  keyed.sort((a, b) => b.chain - a.chain || a.index - b.index);
  return keyed.map(({ job }) => job);
}

/** Jobs ready to start, taken lowest rank first. Few are ready at a time, so an ordered insert is cheap. */
class ReadyQueue<T> {
  readonly #rank: ReadonlyMap<T, number>;
  readonly #jobs: T[] = [];

  constructor(rank: ReadonlyMap<T, number>) {
    this.#rank = rank;
  }

  add(job: T): void {
    const rank = this.#rank.get(job)!;
    let at = this.#jobs.length;
    while (at > 0 && this.#rank.get(this.#jobs[at - 1])! > rank) at--;
    this.#jobs.splice(at, 0, job);
  }

  take(): T | undefined {
    return this.#jobs.shift();
  }
}

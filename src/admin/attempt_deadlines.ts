/**
 * The time limits of a client's call attempts that all last the same time (`admin.perRetryTimeout`), kept under
 * one timer instead of one per attempt.
 *
 * A timer per attempt (set when it starts, cleared when it ends) was the largest cost of fctl's own per call
 * (about 30 µs of CPU under Deno at registration's call rates, as much as the rest of fctl's interceptors).
 * Attempts of equal length end in the order they started, so their deadlines form a queue: one timer, armed for
 * the earliest deadline still running, serves them all. An attempt that ends is only marked; the timer skips it
 * when it fires and re-arms for the next one still running. When none is running the timer is cleared, so, as
 * before, a finished call leaves no timer keeping the process alive.
 *
 * @module
 */

/** One attempt's limit. */
interface Deadline {
  /** When it runs out, in `performance.now()` ms. */
  at: number;
  /** Aborts the attempt's signal when it runs out; undefined once it is done (ended, ran out, parent aborted). */
  expire: (() => void) | undefined;
  /** Unhooks it from the parent's signal. */
  unhook: (() => void) | undefined;
}

/** The signal of one attempt, and how to end it. */
export interface AttemptDeadline {
  /** Aborts when the attempt runs out of time (with the reason given) or when the parent does (with its reason). */
  signal: AbortSignal;
  /** The attempt is over: its time limit and its link to the parent end. */
  clear: () => void;
}

/** Longest delay a timer takes; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Deadlines `ms` after each attempt starts, under one timer. */
export class AttemptDeadlines {
  /** How long every attempt may take. */
  readonly ms: number;
  /** Deadlines in the order they run out (the order attempts started); the first {@link #head} have gone. */
  #queue: Deadline[] = [];
  #head = 0;
  /** Deadlines not yet done. */
  #running = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Attempts of `ms`, which must {@link fits}. */
  constructor(ms: number) {
    if (!AttemptDeadlines.fits(ms)) throw new RangeError(`attempt time limit out of range: ${ms} ms`);
    this.ms = ms;
  }

  /** Whether attempts of `ms` can be kept here: positive, and no longer than a timer can wait. */
  static fits(ms: number): boolean {
    return ms > 0 && ms <= MAX_TIMER_MS;
  }

  /** Starts an attempt's limit; `reason` makes the error it aborts with when it runs out. */
  start(parent: AbortSignal, reason: () => unknown): AttemptDeadline {
    const controller = new AbortController();
    if (parent.aborted) {
      controller.abort(parent.reason);
      return { signal: controller.signal, clear: () => {} };
    }
    const onParentAbort = () => {
      this.#end(deadline);
      controller.abort(parent.reason);
    };
    const deadline: Deadline = {
      at: performance.now() + this.ms,
      expire: () => controller.abort(reason()),
      unhook: () => parent.removeEventListener("abort", onParentAbort),
    };
    parent.addEventListener("abort", onParentAbort, { once: true });
    this.#queue.push(deadline);
    this.#running++;
    this.#timer ??= setTimeout(this.#fire, this.ms);
    return { signal: controller.signal, clear: () => this.#end(deadline) };
  }

  /** Marks `deadline` done and lets go of what is done at the queue's head; with nothing left running, the timer goes. */
  #end(deadline: Deadline): void {
    if (!deadline.expire) return;
    deadline.unhook!();
    // Done: what the attempt held (its signal, its parent's) is let go even while the entry is queued.
    deadline.expire = deadline.unhook = undefined;
    if (--this.#running === 0) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#queue = [];
      this.#head = 0;
      return;
    }
    // Attempts end about in the order they started: the head moves on as they do, and what it passed is
    // dropped in halves, so that a long run of calls does not keep every ended attempt's signal alive.
    const queue = this.#queue;
    while (this.#head < queue.length && !queue[this.#head].expire) queue[this.#head++] = undefined!;
    if (this.#head > 64 && this.#head > queue.length / 2) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The timer: aborts every deadline that has run out, then re-arms for the next one running. */
  #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    const expired: (() => void)[] = [];
    while (this.#head < this.#queue.length) {
      const deadline = this.#queue[this.#head];
      if (deadline.expire && deadline.at > now) break;
      this.#queue[this.#head++] = undefined!;
      if (deadline.expire) {
        expired.push(deadline.expire);
        this.#end(deadline);
      }
    }
    // The loops stopped at the first deadline still running. Armed before the aborts, so that an attempt they
    // set off finds the queue as it is.
    if (this.#running > 0) this.#timer ??= setTimeout(this.#fire, Math.max(0, this.#queue[this.#head].at - now));
    for (const expire of expired) expire();
  };
}

/**
 * Fresh fctl processes run with a guard: killed past a time limit or a memory limit (the process's peak RSS, polled
 * while it runs), for the tests of servers that misbehave, which must never hang fctl nor fill its memory.
 *
 * @module
 */
import { equal, match, ok } from "node:assert/strict";
import { fctlProcess, SUBPROCESS_HOME } from "./helpers.ts";

/** Far above what any of these runs needs (about 150 MiB), far below what an unbounded read reaches in seconds. */
export const MEMORY_LIMIT_MIB = 600;

/** How a guarded run ended. */
export interface GuardedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
  /** The process's peak resident memory (VmHWM) as last seen while it ran, in MiB. */
  peakMib: number;
  /** Why the guard killed it, if it did. */
  killed?: "time" | "memory";
}

/**
 * The peak resident memory (VmHWM, in MiB) of each process watched, read from `/proc` every 200 ms while any is
 * watched, by one `cat` for all (the tests run without the permission to read `/proc` themselves).
 */
class MemoryWatch {
  readonly #peaks = new Map<number, number>();
  readonly #listeners = new Map<number, (peakMib: number) => void>();
  #timer?: ReturnType<typeof setInterval>;
  #reading?: Promise<void>;
  /** Each process's first reading, made when it is watched. */
  readonly #first = new Map<number, Promise<void>>();

  /**
   * Calls `onPeak` with the process's peak as it is read, until {@link unwatch}: once at once, so that a run shorter
   * than the interval (a refusal takes about 200 ms) is seen too, then every 200 ms.
   */
  watch(pid: number, onPeak: (peakMib: number) => void): void {
    this.#peaks.set(pid, 0);
    this.#listeners.set(pid, onPeak);
    this.#first.set(pid, this.#read());
    this.#timer ??= setInterval(() => {
      this.#reading ??= this.#read().finally(() => this.#reading = undefined);
    }, 200);
  }

  /**
   * Stops watching `pid`; its peak seen, once its first reading has ended. The last one also waits for the read in
   * progress, if any, to end.
   */
  async unwatch(pid: number): Promise<number> {
    await this.#first.get(pid);
    this.#first.delete(pid);
    const peak = this.#peaks.get(pid) ?? 0;
    this.#peaks.delete(pid);
    this.#listeners.delete(pid);
    if (this.#listeners.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      await this.#reading;
    }
    return peak;
  }

  async #read(): Promise<void> {
    const pids = [...this.#listeners.keys()];
    // A process that exited meanwhile makes cat fail for its file only.
    const out = await new Deno.Command("cat", { args: pids.map((pid) => `/proc/${pid}/status`), stderr: "null" })
      .output();
    for (const status of new TextDecoder().decode(out.stdout).split(/^(?=Name:)/m)) {
      const pid = Number(/^Pid:\s+(\d+)$/m.exec(status)?.[1]);
      const kb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
      if (!this.#listeners.has(pid) || !kb) continue;
      const peak = Math.max(this.#peaks.get(pid) ?? 0, kb / 1024);
      this.#peaks.set(pid, peak);
      this.#listeners.get(pid)!(peak);
    }
  }
}

const memory = new MemoryWatch();

/** What else a guarded run does. */
export interface GuardedOptions {
  /** Sends SIGINT (Ctrl-C) once this settles (a server saw the request that is to be interrupted). */
  interruptWhen?: Promise<unknown>;
}

/**
 * Runs fctl (what ships) as a fresh process under the declared permissions with `args` and `env` (and nothing else
 * of this process's environment), killed past `timeLimitMs` or {@link MEMORY_LIMIT_MIB}.
 */
export async function guardedFctl(
  args: string[],
  env: Record<string, string>,
  timeLimitMs: number,
  options: GuardedOptions = {},
): Promise<GuardedRun> {
  const started = performance.now();
  // The code cache of the test processes' home, whatever HOME the run is given.
  const child = (await fctlProcess(args, { DENO_DIR: `${SUBPROCESS_HOME}/.cache/deno`, ...env })).spawn();
  const stdout = new Response(child.stdout).text();
  const stderr = new Response(child.stderr).text();
  let killed: GuardedRun["killed"];
  const kill = (why: GuardedRun["killed"]) => {
    killed ??= why;
    try {
      child.kill("SIGKILL");
    } catch {
      // Exited meanwhile.
    }
  };
  memory.watch(child.pid, (peakMib) => {
    if (peakMib > MEMORY_LIMIT_MIB) kill("memory");
  });
  const deadline = setTimeout(() => kill("time"), timeLimitMs);
  options.interruptWhen?.finally(() => {
    try {
      child.kill("SIGINT");
    } catch {
      // Exited meanwhile.
    }
  }).catch(() => {});
  const { code } = await child.status;
  const peakMib = await memory.unwatch(child.pid);
  clearTimeout(deadline);
  return {
    code,
    stdout: await stdout,
    stderr: await stderr,
    ms: Math.round(performance.now() - started),
    peakMib: Math.round(peakMib),
    killed,
  };
}

/** The guard's verdict and what was printed, for assertion messages. */
export const described = (run: GuardedRun) =>
  `exit ${run.code} after ${run.ms} ms, peak ${run.peakMib} MiB${run.killed ? `, killed (${run.killed})` : ""}: ` +
  JSON.stringify(run.stderr);

/** Exit 1 with one line matching `line`, within the guard's time and memory. */
export function assertFailedWith(run: GuardedRun, line: RegExp): void {
  equal(run.killed, undefined, described(run));
  equal(run.code, 1, described(run));
  match(run.stderr, line, described(run));
  ok(run.peakMib > 0 && run.peakMib < MEMORY_LIMIT_MIB, described(run));
}

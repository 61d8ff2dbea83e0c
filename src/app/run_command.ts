/**
 * Runs a program for the auth flows (`admin.command`, `admin.proxyCommand`, a browser opener): an argument
 * vector, never a shell, stdin closed, with the run's environment; output collected.
 *
 * Off Windows the program leads a process group (and session) of its own, so that ending it ends whatever it
 * started too, and a Ctrl-C at the terminal reaches fctl, which ends it, rather than the program directly.
 * Its output is taken when it exits: a background child that keeps stdout open does not hold the run.
 *
 * @module
 */
import type { CommandLimits, CommandOutput, CommandRunner } from "../auth/external_command.ts";

/** Most bytes of stderr kept (the last ones): errors show only its tail. */
const STDERR_KEPT_BYTES = 64 * 1024;
/**
 * After the program exits, its output still in the pipes is read until they close, or until nothing has come
 * for this long (a background child holds them open), or at most {@link DRAIN_MAX_MS}.
 */
const DRAIN_QUIET_MS = 100;
const DRAIN_MAX_MS = 1_000;
/** How long an ended program has after SIGTERM before its group gets SIGKILL. */
const KILL_GRACE_MS = 1_000;

const ISOLATE = Deno.build.os !== "windows";

/** A runner whose programs see `env` (the run's environment) and nothing else. */
export function commandRunner(env: Readonly<Record<string, string | undefined>>): CommandRunner {
  const childEnv = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return (argv, limits = {}) => runProgram(argv, childEnv, limits);
}

async function runProgram(
  argv: readonly string[],
  env: Record<string, string>,
  limits: CommandLimits,
): Promise<CommandOutput> {
  limits.signal?.throwIfAborted();
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: ISOLATE,
  }).spawn();
  const stdout = new Collector(child.stdout, limits.maxStdoutBytes ?? Infinity, false);
  const stderr = new Collector(child.stderr, STDERR_KEPT_BYTES, true);
  const aborted = new Promise<"aborted">((resolve) => {
    if (limits.signal) limits.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  const exited = child.status.then((status) => status.code);
  const outcome = await Promise.race([exited, aborted, stdout.overflowed.then(() => "overflow" as const)]);
  if (typeof outcome === "number") {
    await drain([stdout, stderr]);
    if (!stdout.overflow) return { code: outcome, stdout: stdout.text(), stderr: stderr.text() };
  } else {
    await endProgram(child, exited);
    stdout.cancel();
    stderr.cancel();
    if (outcome === "aborted") throw limits.signal!.reason;
  }
  return { code: await exited, stdout: "", stderr: stderr.text(), stdoutOverflow: true };
}

/** Reads what is left in the pipes of an exited program, then closes them. */
async function drain(streams: Collector[]): Promise<void> {
  const deadline = Date.now() + DRAIN_MAX_MS;
  const received = () => streams.reduce((sum, stream) => sum + stream.received, 0);
  while (Date.now() < deadline) {
    const before = received();
    if (await settlesWithin(Promise.all(streams.map((stream) => stream.done)), DRAIN_QUIET_MS)) return;
    if (received() === before) break;
  }
  for (const stream of streams) stream.cancel();
}

/**
 * Ends the program and every process of its group: SIGTERM, then SIGKILL once it has exited or had
 * {@link KILL_GRACE_MS} (children that ignore SIGTERM are ended too).
 */
async function endProgram(child: Deno.ChildProcess, exited: Promise<number>): Promise<void> {
  signalGroup(child, "SIGTERM");
  await settlesWithin(exited, KILL_GRACE_MS);
  signalGroup(child, "SIGKILL");
}

/** Waits for `promise` at most `ms`: whether it settled by then. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

function signalGroup(child: Deno.ChildProcess, signal: Deno.Signal): void {
  if (ISOLATE) {
    try {
      // A negative pid names the process group the program leads.
      Deno.kill(-child.pid, signal);
      return;
    } catch {
      // The group is gone, or signalling a group is not allowed (an `--allow-run` narrowed to named programs):
      // the program itself can still be ended.
    }
  }
  try {
    child.kill(signal);
  } catch {
    // It has exited already.
  }
}

/** Reads a pipe to its end into memory, keeping at most `maxBytes` (the first, or with `keepEnd` the last). */
class Collector {
  readonly done: Promise<void>;
  readonly overflowed: Promise<void>;
  received = 0;
  /** More than `maxBytes` came (without `keepEnd`): reading stopped there. */
  overflow = false;
  #chunks: Uint8Array[] = [];
  #kept = 0;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #overflow!: () => void;

  constructor(stream: ReadableStream<Uint8Array>, readonly maxBytes: number, readonly keepEnd: boolean) {
    this.#reader = stream.getReader();
    this.overflowed = new Promise((resolve) => this.#overflow = resolve);
    this.done = this.#read();
  }

  async #read(): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (done) return;
        this.received += value.length;
        this.#chunks.push(value);
        this.#kept += value.length;
        if (this.#kept <= this.maxBytes) continue;
        if (!this.keepEnd) {
          this.overflow = true;
          return this.#overflow();
        }
        while (this.#kept - this.#chunks[0].length >= this.maxBytes) this.#kept -= this.#chunks.shift()!.length;
      }
    } catch {
      // Cancelled, or the pipe failed: what was read stands.
    }
  }

  /** Stops reading and closes fctl's end of the pipe. */
  cancel(): void {
    this.#reader.cancel().catch(() => {});
  }

  /** What was kept, decoded (a cut through a character shows as U+FFFD). */
  text(): string {
    const bytes = new Uint8Array(this.#kept);
    let at = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    const start = this.keepEnd ? Math.max(0, this.#kept - this.maxBytes) : 0;
    return new TextDecoder().decode(bytes.subarray(start, start + Math.min(this.#kept, this.maxBytes)));
  }
}

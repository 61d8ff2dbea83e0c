/**
 * What the cold-process benchmarks share: the command line `deno task fctl` runs (read from `deno.json` each
 * time, so the benchmarks follow its flags), an admin in a process of its own (scripts/bench_admin.ts), and
 * wall times of fresh processes, run alternately and summarised as medians.
 *
 * Everything a benchmark starts or creates belongs to one {@link Bench}: {@link withBench} ends the servers it
 * started and removes its temp dir however the benchmark ends, including on SIGINT or SIGTERM (which also
 * end the process being timed).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { SeedCounts } from "./bench_seed.ts";
import { BUNDLE_MAIN, ensureBundle } from "./bundle.ts";
import { eagerCompileSource } from "./eager_compile.ts";

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** `deno run` and its flags as `deno task fctl` runs fctl, plus the path of what it runs (the bundle of main.ts). */
export interface FctlCommand {
  /** `run` followed by every flag of the task (permissions, V8 flags, …), without the script. */
  runFlags: string[];
  /** Absolute path of the program: `dist/bundle/main.js`, built from the tree as it is. */
  main: string;
}

/**
 * Reads the `fctl` task of `deno.json`: its last command must be `deno run [flags…] dist/bundle/main.js`, which
 * is built first when the tree changed since its build (as the task does). Throws one line naming the task if it has
 * another shape.
 */
export async function fctlCommand(): Promise<FctlCommand> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  // A task is a command line, or an object whose `command` is one.
  const task: unknown = config.tasks?.fctl?.command ?? config.tasks?.fctl;
  if (typeof task !== "string") throw new Error('deno.json has no "fctl" task');
  // The task runs in the user's directory, naming the clone's files through `$root` (the clone, set before it
  // changes directory): here they are the clone's, unquoted.
  const root = ROOT.replace(/\/$/, "");
  const words = task.split("&&").at(-1)!.trim().split(/\s+/).map((word) =>
    word.replaceAll('"', "").replaceAll("$root", root)
  );
  const script = words.findIndex((word) => word.endsWith(BUNDLE_MAIN));
  if (words[0] !== "deno" || words[1] !== "run" || script !== words.length - 1) {
    throw new Error(`the fctl task of deno.json is not "… && deno run [flags] ${BUNDLE_MAIN}": "${task}"`);
  }
  await ensureBundle(new URL(ROOT, "file:"), { quiet: true });
  const main = words[script].startsWith("/") ? words[script] : `${ROOT}${words[script]}`;
  return { runFlags: words.slice(1, script), main };
}

/**
 * Bundles a floor script (`scripts/bench_*.ts`) into one file in `dir`, rewritten for eager compilation as fctl's
 * bundle is, and returns its path: fctl runs bundled, so its floors do too. Run from source, a floor would load its modules one by one (npm packages resolved and each file
 * read), which fctl does not pay, and the line "fctl above its floor" would hide part of fctl's own cost.
 */
export async function bundledFloor(script: string, dir: string): Promise<string> {
  const out = `${dir}/${script.replace(/^.*\//, "").replace(/\.ts$/, ".js")}`;
  const built = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--config",
      `${ROOT}deno.json`,
      "--platform",
      "deno",
      "--format",
      "esm",
      "-o",
      out,
      script,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!built.success) throw new Error(`bundling ${script} failed: ${new TextDecoder().decode(built.stderr).trim()}`);
  // Its functions compiled with the module and kept in Deno's code cache, as fctl's are (scripts/eager_compile.ts).
  await Deno.writeTextFile(out, eagerCompileSource(await Deno.readTextFile(out)));
  return out;
}

/**
 * One process to time: arguments of `deno`, and where its stdout goes. Every timed process runs with `HOME`
 * set to an empty directory of the benchmark's (so no `~/.flyte/config.yaml` or token cache of the user's is
 * read, nor written) and without `FLYTECTL_CONFIG`, in Deno's own cache directory; `env` adds to that.
 */
export interface Run {
  args: string[];
  /** `piped`: read to the end by the benchmark, as a pipe to another program; `null`: /dev/null. */
  stdout: "piped" | "null";
  /** Variables set for this process on top of the benchmark's (e.g. its own `HOME`). */
  env?: Record<string, string>;
}

/** A running bench admin. */
export interface Admin {
  /** `http://127.0.0.1:PORT`, or `https://127.0.0.1:PORT` for a production admin. */
  endpoint: string;
  /** A production admin's CA certificate file, which clients trust (`admin.caCertFilePath`). */
  caFile?: string;
  /** CPU time (user + system) the admin's process has used so far, in milliseconds (Linux /proc). */
  cpuMs(): Promise<number>;
}

/** How to start a bench admin. */
export interface AdminOptions {
  /** Delay before every RPC is handled. */
  latencyMs: number;
  /** Tasks seeded into flytesnacks/development. */
  tasks?: number;
  /** Projects, workflows, launch plans and executions seeded as scripts/bench_seed.ts says; default none. */
  seed?: Partial<SeedCounts>;
  /** Serve as production Flyte does: TLS from a CA of its own and OAuth 2 (the sandbox's production profile). */
  production?: boolean;
  /** A network round trip between clients and the admin (scripts/bench_rtt_relay.ts); default none. */
  rttMs?: number;
}

/** The resources and signal of one benchmark run. */
export interface Bench {
  /** A private directory, removed at the end. */
  tempDir: string;
  /** The `HOME` every timed process gets unless its {@link Run.env} names another: empty, inside `tempDir`. */
  home: string;
  /** Starts scripts/bench_admin.ts in its own process; it is ended at the end. */
  startAdmin(options: AdminOptions): Promise<Admin>;
  /**
   * Starts scripts/bench_github.ts in its own process: a release of `assets` (fixture file names), a new tag per
   * run, behind `rttMs`; resolves to its API URL (`GITHUB_API_URL`). It is ended at the end.
   */
  startGitHub(options: { assets: string[]; rttMs: number }): Promise<string>;
  /**
   * Times each command `runs` times, in rounds, each round starting one command later than the one before,
   * after one unmeasured round (the first start of a changed module fills Deno's caches, which a user's
   * first run pays once, not on every command). `commands` get the round's index, so a command can differ
   * from run to run (a fresh version). Returns every command's times in milliseconds; when `cpu` is given,
   * it receives every measured run's CPU time (user + system of the timed process) in milliseconds, and
   * `serverCpu.ms` the CPU time a server (`serverCpu.read`, e.g. {@link Admin.cpuMs}) spent during each.
   */
  time(
    commands: Record<string, (round: number) => Run>,
    runs: number,
    cpu?: Record<string, number[]>,
    serverCpu?: ServerCpu,
  ): Promise<Record<string, number[]>>;
}

/** Where {@link Bench.time} records a server's CPU time during each measured run, by command. */
export interface ServerCpu {
  /** The server's CPU time so far (user + system) in milliseconds. */
  read: () => Promise<number>;
  ms: Record<string, number[]>;
}

/** Runs `fn` with a {@link Bench}, then ends its servers and removes its temp dir, whatever happens. */
export async function withBench<T>(fn: (bench: Bench) => Promise<T>): Promise<T> {
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new Error("interrupted"));
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  // Each server's process (admins, the fake GitHub), and how it ended once it has (a crash makes the next run
  // fail: that run's error then names it).
  const servers: { child: Deno.ChildProcess; ended?: Deno.CommandStatus }[] = [];
  const tempDir = await Deno.makeTempDir({ prefix: "fctl_bench_" });
  try {
    const home = `${tempDir}/home`;
    await Deno.mkdir(home);
    // HOME also names Deno's cache directory unless DENO_DIR does: the timed processes keep this one's.
    const env = { HOME: home, FLYTECTL_CONFIG: "", DENO_DIR: await denoDir() };
    /** Starts a server script in its own process (`deno run <args>`); resolves to the first line it prints. */
    const startServer = async (args: string[]): Promise<{ endpoint: string; pid: number }> => {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", ...args],
        cwd: ROOT,
        stdin: "piped",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const server: (typeof servers)[number] = { child };
      servers.push(server);
      void child.status.then((status) => server.ended = status);
      return { endpoint: await firstLine(child.stdout), pid: child.pid };
    };
    return await fn({
      tempDir,
      home,
      startAdmin: async (options) => {
        const caFile = options.production ? `${tempDir}/admin-${servers.length}-ca.pem` : undefined;
        const { endpoint, pid } = await startServer([
          ...["--allow-net", "--allow-read", "--allow-env"],
          ...(caFile ? ["--allow-write", "--allow-run=openssl"] : []),
          `${ROOT}scripts/bench_admin.ts`,
          ...["--latency", String(options.latencyMs), "--tasks", String(options.tasks ?? 0), "--stdin"],
          ...(caFile ? ["--production", caFile] : []),
          ...(options.rttMs ? ["--rtt", String(options.rttMs)] : []),
          ...Object.entries(options.seed ?? {}).flatMap(([kind, n]) => [`--${kind.toLowerCase()}`, String(n)]),
        ]);
        return { endpoint, caFile, cpuMs: () => processCpuMs(`/proc/${pid}/stat`, 14) };
      },
      startGitHub: async (options) =>
        (await startServer([
          ...["--allow-net", "--allow-read", `${ROOT}scripts/bench_github.ts`, "--stdin"],
          ...["--rtt", String(options.rttMs), "--assets", options.assets.join(",")],
        ])).endpoint,
      time: async (commands, runs, cpu, serverCpu) => {
        try {
          return await timeAlternately(commands, runs, env, interrupt.signal, cpu, serverCpu);
        } catch (err) {
          const crashed = servers.find((server) => server.ended)?.ended;
          if (!crashed || interrupt.signal.aborted) throw err;
          const how = crashed.signal ? `signal ${crashed.signal}` : `exit code ${crashed.code}`;
          throw new Error(`a bench server ended (${how}), then ${err instanceof Error ? err.message : err}`);
        }
      },
    });
  } finally {
    for (const { child } of servers) {
      try {
        child.kill("SIGTERM");
      } catch {
        // already ended
      }
      await child.stdin.close().catch(() => {});
      await child.status;
    }
    await Deno.remove(tempDir, { recursive: true });
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
  }
}

/** Deno's cache directory (`DENO_DIR`, else under `HOME`), where its compiled modules and code cache are. */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped", stderr: "null" })
    .output();
  const dir = out.success ? JSON.parse(new TextDecoder().decode(out.stdout)).denoDir : undefined;
  if (typeof dir !== "string") throw new Error("`deno info --json` did not name Deno's cache directory");
  return dir;
}

/** The first line of `stream`; the rest is read and dropped, so the writer never blocks. */
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`a bench server ended before printing its address: "${text}"`);
    text += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drop */ }
  })().catch(() => {});
  return text.slice(0, text.indexOf("\n"));
}

async function timeAlternately(
  commands: Record<string, (round: number) => Run>,
  runs: number,
  env: Record<string, string>,
  signal: AbortSignal,
  cpu?: Record<string, number[]>,
  serverCpu?: ServerCpu,
): Promise<Record<string, number[]>> {
  const names = Object.keys(commands);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) if (cpu) cpu[name] = [];
  for (const name of names) if (serverCpu) serverCpu.ms[name] = [];
  for (let round = -1; round < runs; round++) {
    const first = (round + names.length) % names.length;
    for (const name of [...names.slice(first), ...names.slice(0, first)]) {
      // A waited-for child's CPU time is added to this process's children's CPU time when it ends.
      const cpuBefore = await processCpuMs(`/proc/${Deno.pid}/stat`, 16);
      const serverBefore = await serverCpu?.read();
      const ms = await timeOnce(commands[name](round), env, signal);
      const cpuMs = await processCpuMs(`/proc/${Deno.pid}/stat`, 16) - cpuBefore;
      const serverMs = serverCpu && await serverCpu.read() - serverBefore!;
      if (round >= 0) {
        times[name].push(ms);
        cpu?.[name].push(cpuMs);
        if (serverMs !== undefined) serverCpu?.ms[name].push(serverMs);
      }
    }
  }
  return times;
}

/**
 * User + system CPU time in milliseconds from a /proc stat file, whose user time is field `userField` as
 * proc(5) numbers them (14: the process's own, 16: its waited-for children's) and system time the next one;
 * both in clock ticks of 10 ms. Read through `cat`, since Deno asks for every permission to read /proc; the
 * `cat` itself adds at most a tick to the children's time.
 */
async function processCpuMs(statFile: string, userField: 14 | 16): Promise<number> {
  const out = await new Deno.Command("cat", { args: [statFile], stdout: "piped", stderr: "null" }).output();
  if (!out.success) throw new Error(`cannot read ${statFile}`);
  const stat = new TextDecoder().decode(out.stdout);
  // What follows the name (which may hold spaces) starts at field 3, so field n is at index n - 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[userField - 3]) + Number(fields[userField - 2])) * 10;
}

async function timeOnce(run: Run, env: Record<string, string>, signal: AbortSignal): Promise<number> {
  signal.throwIfAborted();
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: run.args,
    env: { ...env, ...run.env },
    cwd: ROOT, // where `deno task` runs them, so deno.json is found as it is there
    stdout: run.stdout,
    stderr: "piped",
    signal,
  })
    .output();
  const ms = performance.now() - started;
  signal.throwIfAborted();
  if (!out.success) {
    // The first line says what went wrong (a stack trace may follow), without Deno's colours.
    // deno-lint-ignore no-control-regex
    const stderr = new TextDecoder().decode(out.stderr).replace(/\x1b\[[0-9;]*m/g, "").trim().split("\n")[0];
    throw new Error(`deno ${run.args.join(" ")} exited with ${out.code}: ${stderr}`);
  }
  return ms;
}

/** Runs a benchmark's main part; a failure or an interruption ends the process with one line on stderr. */
export async function runBenchmark(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    console.error(`benchmark stopped: ${err instanceof Error ? err.message : String(err)}`);
    Deno.exit(1);
  }
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `N` from the command line's first argument (how many measured runs), else `fallback`. */
export function runsArgument(fallback: number): number {
  const arg = Deno.args[0];
  if (arg === undefined) return fallback;
  const runs = Number(arg);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`the number of runs must be a whole number >= 1, got "${arg}"`);
  }
  return runs;
}

/**
 * One result line: label, median, and how it compares with another line: against its target, or, without
 * one, as information (a comparison with a floor that has no target).
 */
export function resultLine(label: string, ms: number, comparison?: { ratio: number; of: string; target?: number }) {
  const base = `${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms`;
  if (!comparison) return base;
  const { ratio, of, target } = comparison;
  if (target === undefined) return `${base}  ${ratio.toFixed(2)}x ${of}`;
  const verdict = ratio <= target ? "within" : "over";
  return `${base}  ${ratio.toFixed(2)}x ${of}  (target <= ${target}x: ${verdict})`;
}

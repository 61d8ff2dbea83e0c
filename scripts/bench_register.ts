/**
 * Benchmark of `fctl register files` as a user runs it: fresh `fctl` processes, with the flags of
 * `deno task fctl` and fctl's default settings, against an admin in a process of its own
 * (scripts/bench_admin.ts) that waits a fixed time before every RPC. The compared commands run alternately,
 * one unmeasured round first; medians and ratios are printed next to their targets, nothing is asserted.
 *
 * Every registration creates: each run registers under a version of its own (`--version r<N>`) into one
 * long-running admin, as a user registers new versions into an admin that has been up for a while (a
 * repeated version would only meet ALREADY_EXISTS). The admin is not restarted between runs, so its JIT is
 * as warm as a real admin's and a restart's cost never falls inside a measurement; its store grows by one
 * package per run, which costs its map lookups nothing measurable.
 *
 * - flytesnacks-core (84 entities, one fast-registration upload) at 50 ms per RPC. Target: <= 1.4x its
 *   dependency limit, 3 rounds (task, workflow, launch plan) x 50 ms + the same command's `--dryRun` time.
 *   Beside it, the floor of fctl's stack (scripts/bench_creates_connect.ts, bundled as fctl is): 39, 21 and 24
 *   CreateTask calls in three rounds through Connect's stock transport, with nothing read or planned. No target:
 *   with the `--dryRun` time added, it is the least any client on that stack could take.
 *   Also `--dryRun` against an empty Deno script run with the same flags. Target: <= 5x. Beside them, the
 *   libraries a dry run imports, loaded and unused (scripts/bench_dry_run_libraries.ts, bundled as fctl is). No
 *   target: it tells what of the dry run's time is fctl's own. And the same registration in production shape, beside the lab's:
 *   an admin with TLS from its own CA and OAuth 2 enforced, found through `~/.flyte/config.yaml`, the token
 *   cached by the unmeasured round, the source uploaded to an `https://` signed URL; then the same across a
 *   100 ms network round trip (bench_admin.ts --rtt), where connecting costs round trips. No target.
 * - 24 renamed copies of flytesnacks-core (2,016 entities, generated into a temp dir by
 *   scripts/bench_package.ts) at 5 ms per RPC. Target: <= 1.5x max(3, ceil(2016 / concurrency)) x 5 ms +
 *   its `--dryRun` time, with fctl's default concurrency (`DEFAULT_CONCURRENCY`, read from the code).
 *   Beside it, the floor of fctl's stack (scripts/bench_creates_connect.ts, bundled): as many CreateTask calls at the
 *   same concurrency through Connect's stock transport, with nothing read or planned. No target: with the
 *   `--dryRun` time added, it is the least any client on that stack could take, to set against the limit.
 *   Then the same at 50 ms per RPC, where waiting outweighs CPU and the limit counts how full fctl keeps
 *   its window of calls: target <= 1.25x.
 *
 * - `register examples` of a release of 6 archives (scripts/bench_github.ts), in production shape with the admin
 *   and GitHub 50 ms away. No target.
 *
 *   deno task bench:register [runs] [case...]   (default 9 measured runs of the small package, half as many of
 *                                                the large; cases: core, examples, large, large50; default all)
 *
 * @module
 */
import { DEFAULT_CONCURRENCY } from "../src/register/register_files.ts";
import { writeRenamedCopies } from "./bench_package.ts";
import {
  type Bench,
  bundledFloor,
  fctlCommand,
  median,
  resultLine,
  ROOT,
  type Run,
  runBenchmark,
  runsArgument,
  type ServerCpu,
  withBench,
} from "./bench_process.ts";
import { productionUser } from "./bench_production.ts";

const CORE = `${ROOT}../shared/fixtures/flytectl/flytesnacks-core.tgz`;
/** The floor of fctl's stack for a registration's creates (see its module doc). */
const STACK_FLOOR = `${ROOT}scripts/bench_creates_connect.ts`;
/** Rounds of creates the admin needs for a package of tasks, workflows and launch plans. */
const DEPENDENCY_ROUNDS = 3;
/** flytesnacks-core's creates in each of those rounds: 39 tasks, 21 workflows, 24 launch plans. */
const CORE_ROUNDS = [39, 21, 24];
const COPIES = 24;
const SCOPE = ["-p", "flytesnacks", "-d", "development"];
/** The network round trip of the production shape's second line: an admin in another region. */
const RTT_MS = 100;

/** Medians in ms of a register command, its `--dryRun` and the extra commands, with CPU times. */
interface RegisterTimes {
  register: number;
  dryRun: number;
  extra: Record<string, number>;
  registerCpu: number;
  adminCpu: number;
  /** The CPU time of the stack floor's process and of the admin during its run, when there is one. */
  stackCpu?: number;
  stackAdminCpu?: number;
}

/**
 * Runs of the register command, of its `--dryRun` and of `extra` commands (given the admin's endpoint),
 * alternately; medians in ms, with the CPU time of fctl and of the admin during each registration (and during
 * each run of an extra `stack` command, the stack floor).
 */
async function registerAndDryRun(
  bench: Bench,
  archive: string,
  latencyMs: number,
  runs: number,
  extra: (endpoint: string) => Record<string, (round: number) => Run> = () => ({}),
): Promise<RegisterTimes> {
  const { runFlags, main } = await fctlCommand();
  const admin = await bench.startAdmin({ latencyMs });
  const register = (round: number, more: string[] = []): Run => ({
    args: [
      ...[...runFlags, main, "register", "files", "--archive", archive, "--version", `r${round + 1}`],
      ...[...SCOPE, "--admin.endpoint", admin.endpoint, ...more],
    ],
    stdout: "piped",
  });
  const extraCommands = extra(admin.endpoint);
  const commands: Record<string, (round: number) => Run> = {
    register: (round) => register(round),
    dryRun: (round) => register(round, ["--dryRun"]),
    ...extraCommands,
  };
  const cpu: Record<string, number[]> = {};
  const adminCpu: ServerCpu = { read: admin.cpuMs, ms: {} };
  const t = await bench.time(commands, runs, cpu, adminCpu);
  return {
    register: median(t.register),
    dryRun: median(t.dryRun),
    extra: Object.fromEntries(Object.keys(extraCommands).map((name) => [name, median(t[name])])),
    registerCpu: median(cpu.register),
    adminCpu: median(adminCpu.ms.register),
    ...(t.stack ? { stackCpu: median(cpu.stack), stackAdminCpu: median(adminCpu.ms.stack) } : {}),
  };
}

async function core(bench: Bench, runs: number): Promise<void> {
  const latencyMs = 50;
  const empty = `${bench.tempDir}/empty.ts`;
  await Deno.writeTextFile(empty, "export {};\n");
  const { runFlags, main } = await fctlCommand();
  const production = await productionUser(bench, { latencyMs });
  const remote = await productionUser(bench, { latencyMs, rttMs: RTT_MS });
  // A production user's registration: the admin and its credentials come from the user's config file.
  const registerAs = (env: Record<string, string>) => (round: number): Run => ({
    args: [...runFlags, main, "register", "files", "--archive", CORE, "--version", `r${round + 1}`, ...SCOPE],
    stdout: "piped",
    env,
  });
  const libraries = await bundledFloor(`${ROOT}scripts/bench_dry_run_libraries.ts`, bench.tempDir);
  const stackFloor = await bundledFloor(STACK_FLOOR, bench.tempDir);
  const t = await registerAndDryRun(bench, CORE, latencyMs, runs, (endpoint) => ({
    empty: () => ({ args: [...runFlags, empty], stdout: "piped" }),
    libraries: () => ({ args: [...runFlags, libraries], stdout: "piped" }),
    stack: (round) => ({
      args: [...runFlags, stackFloor, endpoint, CORE_ROUNDS.join(","), String(DEFAULT_CONCURRENCY), `c${round + 1}`],
      stdout: "piped",
    }),
    production: registerAs(production),
    remote: registerAs(remote),
  }));
  const limit = DEPENDENCY_ROUNDS * latencyMs + t.dryRun;
  console.log(`flytesnacks-core.tgz (84 entities), ${latencyMs} ms per RPC, ${runs} runs:`);
  console.log(resultLine("  empty Deno script (same flags)", t.extra.empty));
  console.log(
    resultLine("  libraries floor: what --dryRun imports, unused", t.extra.libraries, {
      ratio: t.extra.libraries / t.extra.empty,
      of: "the empty script",
    }),
  );
  console.log(
    resultLine("  register files --dryRun", t.dryRun, {
      ratio: t.dryRun / t.extra.empty,
      of: "the empty script",
      target: 5,
    }),
  );
  console.log(resultLine(`  dependency limit: ${DEPENDENCY_ROUNDS} x ${latencyMs} ms + --dryRun`, limit));
  console.log(resultLine("  register files", t.register, { ratio: t.register / limit, of: "the limit", target: 1.4 }));
  cpuLines(t);
  stackLines(`${sum(CORE_ROUNDS)} CreateTask in ${CORE_ROUNDS.length} rounds`, t, limit);
  console.log(
    resultLine("  production shape: TLS, OAuth (token cached), config file", t.extra.production, {
      ratio: t.extra.production / t.register,
      of: "the same register in the lab",
    }),
  );
  console.log(resultLine(`    the same across a ${RTT_MS} ms network round trip`, t.extra.remote));
}

function sum(numbers: number[]): number {
  return numbers.reduce((total, n) => total + n, 0);
}

/**
 * The stack floor's time (`t.extra.stack`) as a limit of its own: what any client on fctl's stack would take
 * (the floor plus the same `--dryRun`), against the benchmark's limit, and the registration against it.
 */
function stackLines(creates: string, t: RegisterTimes, limit: number): void {
  const stackLimit = t.extra.stack + t.dryRun;
  console.log(resultLine(`  stack floor: ${creates}, stock Connect`, t.extra.stack));
  console.log(resultLine("    CPU of its process (user + system, median)", t.stackCpu!));
  console.log(resultLine("    CPU of the bench admin during a run of it (median)", t.stackAdminCpu!));
  console.log(
    resultLine("  stack limit: the stack floor + --dryRun", stackLimit, { ratio: stackLimit / limit, of: "the limit" }),
  );
  console.log(
    resultLine("    register files against the stack limit", t.register, {
      ratio: t.register / stackLimit,
      of: "the stack limit",
    }),
  );
}

/** Where a registration's time goes besides waiting: fctl's own CPU and the (single-threaded) admin's. */
function cpuLines(t: { registerCpu: number; adminCpu: number }): void {
  console.log(resultLine("    CPU of the fctl process (user + system, median)", t.registerCpu));
  console.log(resultLine("    CPU of the bench admin during a registration (median)", t.adminCpu));
}

/** The release `register examples` registers in the benchmark: fixture archives, as a release's assets. */
const EXAMPLE_ASSETS = ["flytesnacks-core.tgz", "valid-register.tgz"].flatMap((asset) => [asset, asset, asset]);

/**
 * `register examples` in production shape: the admin and GitHub each a network round trip away, a release of
 * several archives (each asset's download redirects, as GitHub's do). No target: where a user waits on
 * round trips, to compare across changes.
 */
async function examples(bench: Bench, runs: number): Promise<void> {
  const rttMs = 50;
  const { runFlags, main } = await fctlCommand();
  const user = await productionUser(bench, { latencyMs: 0, rttMs });
  const github = await bench.startGitHub({ assets: EXAMPLE_ASSETS, rttMs });
  const registerExamples = (more: string[]) => (): Run => ({
    args: [...runFlags, main, "register", "examples", ...SCOPE, ...more],
    stdout: "piped",
    env: { ...user, GITHUB_API_URL: github },
  });
  const t = await bench.time({ register: registerExamples([]), dryRun: registerExamples(["--dryRun"]) }, runs);
  console.log(
    `register examples, a release of ${EXAMPLE_ASSETS.length} archives, production shape, admin and GitHub ${rttMs} ms away, ${runs} runs:`,
  );
  console.log(resultLine("  register examples", median(t.register)));
  console.log(resultLine("  register examples --dryRun", median(t.dryRun)));
}

/** The 2,016-entity package, written into the benchmark's temp dir, and its number of entities. */
async function largePackage(bench: Bench): Promise<{ archive: string; entities: number }> {
  const archive = `${bench.tempDir}/flytesnacks-core-x${COPIES}.tgz`;
  return { archive, entities: await writeRenamedCopies(CORE, COPIES, archive) };
}

async function large(bench: Bench, runs: number, latencyMs: number, target: number): Promise<void> {
  const { archive, entities } = await largePackage(bench);
  const { runFlags } = await fctlCommand();
  const stackFloor = await bundledFloor(STACK_FLOOR, bench.tempDir);
  const t = await registerAndDryRun(bench, archive, latencyMs, runs, (endpoint) => ({
    stack: (round) => ({
      args: [...runFlags, stackFloor, endpoint, String(entities), String(DEFAULT_CONCURRENCY), `c${round + 1}`],
      stdout: "piped",
    }),
  }));
  const rounds = Math.max(DEPENDENCY_ROUNDS, Math.ceil(entities / DEFAULT_CONCURRENCY));
  const limit = rounds * latencyMs + t.dryRun;
  console.log(
    `${COPIES} renamed copies (${entities} entities), ${latencyMs} ms per RPC, default concurrency ${DEFAULT_CONCURRENCY}, ${runs} runs:`,
  );
  console.log(resultLine("  register files --dryRun", t.dryRun));
  console.log(resultLine(`  limit: max(${DEPENDENCY_ROUNDS}, ${rounds}) x ${latencyMs} ms + --dryRun`, limit));
  console.log(resultLine("  register files", t.register, { ratio: t.register / limit, of: "the limit", target }));
  cpuLines(t);
  stackLines(`${entities} CreateTask`, t, limit);
}

/** The benchmark's cases, in the order they run. */
const CASES = ["core", "examples", "large", "large50"];

/** The cases named after the number of runs on the command line; all of them when none is. */
function casesArgument(): Set<string> {
  const named = Deno.args.slice(1);
  const unknown = named.filter((name) => !CASES.includes(name));
  if (unknown.length > 0) throw new Error(`unknown case "${unknown[0]}": expected ${CASES.join(", ")}`);
  return new Set(named.length > 0 ? named : CASES);
}

if (import.meta.main) {
  await runBenchmark(async () => {
    const runs = runsArgument(9);
    const { runFlags, main } = await fctlCommand();
    console.log(
      `fctl = deno ${runFlags.join(" ")} ${main.slice(ROOT.length)}, default settings; admin in its own process`,
    );
    console.log("medians, the compared commands run alternately after one unmeasured round");
    const cases = casesArgument();
    await withBench(async (bench) => {
      if (cases.has("core")) await core(bench, runs);
      if (cases.has("examples")) await examples(bench, runs);
      if (cases.has("large")) await large(bench, Math.ceil(runs / 2), 5, 1.5);
      if (cases.has("large50")) await large(bench, Math.ceil(runs / 2), 50, 1.25);
    });
  });
}

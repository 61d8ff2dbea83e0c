/**
 * Benchmark of every `get` command against `get task`, as a user runs them: fresh `fctl` processes, with the
 * flags of `deno task fctl`, against an admin in a process of its own (scripts/bench_admin.ts) that holds 100
 * of each kind (scripts/bench_seed.ts) and waits 5 ms before every RPC, as `bench:get-task` does. The commands
 * run alternately, one unmeasured round first; medians and ratios are printed next to their targets, nothing
 * is asserted.
 *
 * - `fctl get project`, `get workflow -p P -d D` (names), `get workflow NAME -p P -d D` (versions),
 *   `get launchplan -p P -d D` and `get execution -p P -d D`, each a page of 100 as a table with stdout a pipe,
 *   against `fctl get task -p P -d D` of 100 tasks. Target: <= 1.1x `get task`.
 * - `fctl --help` against an empty script run with the same flags. Target: <= 1.2x.
 *
 *   deno task bench:get [runs]     (default 9 measured runs of each command)
 *
 * @module
 */
import { fctlCommand, median, resultLine, type Run, runBenchmark, runsArgument, withBench } from "./bench_process.ts";
import { seededWorkflowName } from "./bench_seed.ts";

const LATENCY_MS = 5;
const COUNT = 100;
const PROJECT = "flytesnacks";
const DOMAIN = "development";
const GET_TARGET = 1.1;
const HELP_TARGET = 1.2;

if (import.meta.main) {
  await runBenchmark(async () => {
    const runs = runsArgument(9);
    await withBench(async (bench) => {
      const { runFlags, main } = await fctlCommand();
      const empty = `${bench.tempDir}/empty.ts`;
      await Deno.writeTextFile(empty, "export {};\n");
      const admin = await bench.startAdmin({
        latencyMs: LATENCY_MS,
        tasks: COUNT,
        seed: { projects: COUNT, workflows: COUNT, launchPlans: COUNT, executions: COUNT },
      });
      const scope = ["-p", PROJECT, "-d", DOMAIN, "--admin.endpoint", admin.endpoint];
      const run = (args: string[]): () => Run => () => ({ args: [...runFlags, ...args], stdout: "piped" });
      const gets = {
        "fctl get project": run([main, "get", "project", "--admin.endpoint", admin.endpoint]),
        "fctl get workflow -p P -d D (names)": run([main, "get", "workflow", ...scope]),
        "fctl get workflow NAME -p P -d D (versions)": run([main, "get", "workflow", seededWorkflowName(0), ...scope]),
        "fctl get launchplan -p P -d D": run([main, "get", "launchplan", ...scope]),
        "fctl get execution -p P -d D": run([main, "get", "execution", ...scope]),
      };
      const t = await bench.time({
        empty: run([empty]),
        help: run([main, "--help"]),
        getTask: run([main, "get", "task", ...scope]),
        ...gets,
      }, runs);
      const [empty_, help, getTask] = [t.empty, t.help, t.getTask].map(median);
      console.log(`${COUNT} of each, ${LATENCY_MS} ms per RPC, ${runs} runs:`);
      console.log(resultLine("  empty Deno script (same flags)", empty_));
      console.log(
        resultLine("  fctl --help", help, { ratio: help / empty_, of: "the empty script", target: HELP_TARGET }),
      );
      console.log(resultLine("  fctl get task -p P -d D (table, piped)", getTask));
      for (const label of Object.keys(gets)) {
        const ms = median(t[label]);
        console.log(resultLine(`  ${label}`, ms, { ratio: ms / getTask, of: "get task", target: GET_TARGET }));
      }
    });
  });
}

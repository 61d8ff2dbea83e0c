/**
 * Benchmark of `fctl create execution` as a user runs it: fresh `fctl` processes, with the flags of `deno task fctl`,
 * against an admin in a process of its own (scripts/bench_admin.ts) that waits 50 ms before every RPC, as an admin
 * across a network answers. The compared commands run alternately, one unmeasured round first; medians and ratios
 * are printed next to their targets, nothing is asserted.
 *
 * - `fctl create execution --execFile spec.yaml` of a launch plan with 20 inputs of varied types
 *   (scripts/bench_typed_launch_plan.ts), the spec file written once beforehand by `fctl get launchplan NAME
 *   --execFile`, as a user writes it, against `fctl get task NAME` (one task) plus one round trip: creating needs
 *   the launch plan's input types and then CreateExecution, one call more than `get task` makes. Target: <= 1.2x.
 * - Beside it, no target: the same `create execution --dryRun` (every step but CreateExecution), which tells the
 *   cost of reading the file and converting the inputs from the round trips.
 *
 *   deno task bench:create-execution [runs]     (default 9 measured runs of each command)
 *
 * @module
 */
import { fctlCommand, median, resultLine, type Run, runBenchmark, runsArgument, withBench } from "./bench_process.ts";
import { typedLaunchPlanName } from "./bench_seed.ts";
import { seededTask } from "./bench_task.ts";

const LATENCY_MS = 50;
const TARGET = 1.2;
const SCOPE = ["-p", "flytesnacks", "-d", "development"];

if (import.meta.main) {
  await runBenchmark(async () => {
    const runs = runsArgument(9);
    await withBench(async (bench) => {
      const { runFlags, main } = await fctlCommand();
      const admin = await bench.startAdmin({ latencyMs: LATENCY_MS, tasks: 1, seed: { typedLaunchPlans: 1 } });
      const scope = [...SCOPE, "--admin.endpoint", admin.endpoint];
      const run = (args: string[]): () => Run => () => ({ args: [...runFlags, main, ...args], stdout: "piped" });
      const launchPlan = typedLaunchPlanName(0);
      const spec = `${bench.tempDir}/exec_spec.yaml`;
      // Written once, as a user writes it: one unmeasured run (no measured rounds) in the timed processes' environment.
      await bench.time({ write: run(["get", "launchplan", launchPlan, ...scope, "--execFile", spec]) }, 0);
      const create = ["create", "execution", "--execFile", spec, ...scope];
      const t = await bench.time({
        getTask: run(["get", "task", seededTask(0).id.name, ...scope]),
        create: run(create),
        dryRun: run([...create, "--dryRun"]),
      }, runs);
      const [getTask, create_, dryRun] = [t.getTask, t.create, t.dryRun].map(median);
      console.log(`a launch plan of 20 inputs, ${LATENCY_MS} ms per RPC, ${runs} runs:`);
      console.log(resultLine("  fctl get task NAME (one task)", getTask));
      console.log(resultLine(`  get task + one round trip (${LATENCY_MS} ms)`, getTask + LATENCY_MS));
      console.log(
        resultLine("  fctl create execution --execFile spec.yaml", create_, {
          ratio: create_ / (getTask + LATENCY_MS),
          of: "get task + 1 RPC",
          target: TARGET,
        }),
      );
      console.log(
        resultLine("    the same with --dryRun (no CreateExecution)", dryRun, {
          ratio: dryRun / getTask,
          of: "get task",
        }),
      );
    });
  });
}

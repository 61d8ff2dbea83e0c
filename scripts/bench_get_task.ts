/**
 * Benchmark of `fctl get task` as a user runs it: fresh `fctl` processes, with the flags of `deno task fctl`,
 * against an admin in a process of its own (scripts/bench_admin.ts) that waits 5 ms before every RPC. The
 * compared commands run alternately, one unmeasured round first; medians and ratios are printed next to
 * their targets, nothing is asserted.
 *
 * - `fctl get task -p P -d D` (100 tasks, table, stdout a pipe) against a floor: a minimal client making the
 *   same ListTasks call over raw `node:http2` that prints nothing (scripts/bench_get_task_floor.ts), run
 *   with the same flags. Target: <= 1.7x the floor.
 * - Beside the floor, the floor of fctl's stack (scripts/bench_get_task_connect.ts, bundled as fctl is): the same
 *   call through Connect's stock transport and protobuf-es with the descriptors fctl's table loads, printing
 *   nothing. No target: it tells what of fctl's time is fctl's own and what its libraries cost before fctl does
 *   anything.
 * - `fctl --help` against an empty script run with the same flags. Target: <= 1.2x.
 * - The same `get task` in production shape, beside the lab's: an admin with TLS from its own CA and OAuth 2
 *   enforced (scripts/bench_admin.ts --production), found through `~/.flyte/config.yaml` (endpoint, CA file,
 *   ClientSecret with the secret in a variable), with the token cached by the unmeasured round as a user's
 *   earlier run caches it. No target: it tells what TLS, the config file and auth add to every command. Then
 *   the same across a 100 ms network round trip (bench_admin.ts --rtt), where connecting costs round trips.
 * - `-o yaml` and `-o json` of 10,000 tasks (`--filter.limit 10000`, stdout to /dev/null) against the table
 *   of the same tasks, from an admin seeded with 10,000. Target: <= 1.5x the table.
 *
 *   deno task bench:get-task [runs]     (default 9 measured runs of each command, half as many of 10,000 tasks)
 *
 * @module
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { ResourceListRequestSchema, Sort_Direction } from "../proto/gen/flyteidl/admin/common_pb.ts";
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
  withBench,
} from "./bench_process.ts";
import { productionUser } from "./bench_production.ts";

const LATENCY_MS = 5;
/** The network round trip of the production shape's second line: an admin in another region. */
const RTT_MS = 100;
const PROJECT = "flytesnacks";
const DOMAIN = "development";

/** The ListTasks request `fctl get task -p P -d D` sends: the 100 newest tasks of the project and domain. */
function listTasksRequest(): Uint8Array {
  return toBinary(
    ResourceListRequestSchema,
    create(ResourceListRequestSchema, {
      id: { project: PROJECT, domain: DOMAIN },
      limit: 100,
      sortBy: { key: "created_at", direction: Sort_Direction.DESCENDING },
    }),
  );
}

async function startUp(bench: Bench, runs: number): Promise<void> {
  const { runFlags, main } = await fctlCommand();
  const empty = `${bench.tempDir}/empty.ts`;
  await Deno.writeTextFile(empty, "export {};\n");
  const admin = await bench.startAdmin({ latencyMs: LATENCY_MS, tasks: 100 });
  const scope = ["-p", PROJECT, "-d", DOMAIN, "--admin.endpoint", admin.endpoint];
  const floorRequest = btoa(String.fromCharCode(...listTasksRequest()));
  const stackFloor = await bundledFloor(`${ROOT}scripts/bench_get_task_connect.ts`, bench.tempDir);
  const run = (args: string[]): () => Run => () => ({ args: [...runFlags, ...args], stdout: "piped" });
  const production = await productionUser(bench, { latencyMs: LATENCY_MS, tasks: 100 });
  const remote = await productionUser(bench, { latencyMs: LATENCY_MS, tasks: 100, rttMs: RTT_MS });
  const t = await bench.time({
    empty: run([empty]),
    help: run([main, "--help"]),
    floor: run([`${ROOT}scripts/bench_get_task_floor.ts`, admin.endpoint, floorRequest]),
    stack: run([stackFloor, admin.endpoint, PROJECT, DOMAIN]),
    getTask: run([main, "get", "task", ...scope]),
    production: () => ({ ...run([main, "get", "task", "-p", PROJECT, "-d", DOMAIN])(), env: production }),
    remote: () => ({ ...run([main, "get", "task", "-p", PROJECT, "-d", DOMAIN])(), env: remote }),
  }, runs);
  const [empty_, help, floor, stack, getTask, production_, remote_] = [
    t.empty,
    t.help,
    t.floor,
    t.stack,
    t.getTask,
    t.production,
    t.remote,
  ].map(median);
  console.log(`100 tasks, ${runs} runs:`);
  console.log(resultLine("  empty Deno script (same flags)", empty_));
  console.log(resultLine("  fctl --help", help, { ratio: help / empty_, of: "the empty script", target: 1.2 }));
  console.log(resultLine("  floor: ListTasks of 100 over raw node:http2", floor));
  console.log(
    resultLine("  stack floor: the same call, stock Connect + protobuf-es", stack, {
      ratio: stack / floor,
      of: "the floor",
    }),
  );
  console.log(
    resultLine("  fctl get task -p P -d D (100 tasks, table, piped)", getTask, {
      ratio: getTask / floor,
      of: "the floor",
      target: 1.7,
    }),
  );
  console.log(
    resultLine("    fctl get task against the stack floor", getTask, { ratio: getTask / stack, of: "the stack floor" }),
  );
  console.log(
    resultLine("  production shape: TLS, OAuth (token cached), config file", production_, {
      ratio: production_ / getTask,
      of: "the same get task in the lab",
    }),
  );
  console.log(resultLine(`    the same across a ${RTT_MS} ms network round trip`, remote_));
}

async function formats(bench: Bench, runs: number): Promise<void> {
  const { runFlags, main } = await fctlCommand();
  const admin = await bench.startAdmin({ latencyMs: LATENCY_MS, tasks: 10_000 });
  const list = [main, "get", "task", "-p", PROJECT, "-d", DOMAIN, "--admin.endpoint", admin.endpoint];
  const run = (format: string): () => Run => () => ({
    args: [...runFlags, ...list, "--filter.limit", "10000", "-o", format],
    stdout: "null",
  });
  const t = await bench.time({ table: run("table"), yaml: run("yaml"), json: run("json") }, runs);
  const [table, yaml, json] = [t.table, t.yaml, t.json].map(median);
  console.log(`10,000 tasks, ${runs} runs:`);
  console.log(resultLine("  fctl get task --filter.limit 10000 (table, to /dev/null)", table));
  for (const [format, ms] of [["yaml", yaml], ["json", json]] as const) {
    console.log(
      resultLine(`  fctl get task --filter.limit 10000 -o ${format}`, ms, {
        ratio: ms / table,
        of: "the table",
        target: 1.5,
      }),
    );
  }
}

if (import.meta.main) {
  await runBenchmark(async () => {
    const runs = runsArgument(9);
    const { runFlags, main } = await fctlCommand();
    console.log(
      `fctl = deno ${runFlags.join(" ")} ${
        main.slice(ROOT.length)
      }; admin in its own process, ${LATENCY_MS} ms per RPC`,
    );
    console.log("medians, the compared commands run alternately after one unmeasured round");
    await withBench(async (bench) => {
      await startUp(bench, runs);
      await formats(bench, Math.ceil(runs / 2));
    });
  });
}

/**
 * Benchmarks of `fctl get task` (numbers printed, never asserted):
 *
 * - `fctl get task -p P -d D` of one 100-task page against the in-process admin on loopback, next to a floor
 *   script making the same ListTasks call with the same Connect transport (target: ≤ 1.3× the floor);
 * - `fctl --help` next to an empty `deno run` (target: ≤ 3×);
 * - rendering 1,000 and 10,000 tasks as TABLE (piped and fitted to a terminal) and JSON, per 1,000 rows
 *   (linear: the per-1,000 time stays flat).
 *
 *   deno task bench:get-task [runs]
 *
 * @module
 */
import { createAdminClient } from "../src/admin/client.ts";
import { render } from "../src/output/render.ts";
import type { Io } from "../src/output/io.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { TASK_COLUMNS, taskJson } from "../src/tasks/task_view.ts";
import type { Task } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { seedTasks, type TestTask } from "../tests/task_fixtures.ts";

const runs = Number(Deno.args[0] ?? 15);
const main = new URL("../main.ts", import.meta.url).pathname;
const floorScript = new URL("./bench_get_task_floor.ts", import.meta.url).pathname;

/** Median wall time of `deno <args>` in a fresh process; the runs of all commands are interleaved. */
async function medians(commands: Record<string, string[]>): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(commands)) {
      const started = performance.now();
      const out = await new Deno.Command(Deno.execPath(), { args, stdout: "null", stderr: "piped" }).output();
      times[name].push(performance.now() - started);
      if (!out.success) throw new Error(`${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([name, t]) => [name, t.sort((a, b) => a - b)[Math.floor(t.length / 2)]]),
  );
}

function task(i: number): TestTask {
  return {
    name: `bench.module_${i % 50}.task_${i}`,
    version: `v${i}`,
    inputs: { a: { type: SimpleType.INTEGER, description: "the first number to add together" }, b: {} },
    outputs: { o0: { type: SimpleType.STRING } },
  };
}

const sink = { write: (_text: string) => {} };
function io(terminal: boolean): Io {
  return {
    stdout: sink,
    stderr: sink,
    stdoutIsTerminal: terminal,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
    columns: terminal ? 160 : undefined,
    env: {},
    readTextFile: (path) => Deno.readTextFile(path),
  };
}

/** Milliseconds per 1,000 rows to render `tasks` (best of 5, after a warm-up). */
async function renderPer1000(tasks: Task[], format: string, terminal: boolean): Promise<number> {
  const what = { columns: TASK_COLUMNS, toJson: taskJson, value: { list: tasks } };
  await render(io(terminal), format, what);
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await render(io(terminal), format, what);
    best = Math.min(best, performance.now() - started);
  }
  return best / (tasks.length / 1000);
}

const empty = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(empty, "export {};\n");
const sandbox = await startSandbox();
const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
try {
  await seedTasks(client, Array.from({ length: 10_000 }, (_, i) => task(i)));
  const run = ["run", "--quiet", ...FCTL_RUN_FLAGS];
  const scope = ["flytesnacks", "development"];
  // The floor and fctl see the same 100 newest tasks of the 10,000.
  const t = await medians({
    empty: [...run, empty],
    help: [...run, main, "--help"],
    floor: [...run, floorScript, sandbox.endpoint, ...scope],
    getTask: [...run, main, "get", "task", "-p", scope[0], "-d", scope[1], "--admin.endpoint", sandbox.endpoint],
  });
  console.log(`median of ${runs} runs, interleaved`);
  console.log(`empty deno run             ${t.empty.toFixed(0)} ms`);
  console.log(
    `fctl --help                ${t.help.toFixed(0)} ms  (${(t.help / t.empty).toFixed(2)}x empty; target <= 3x)`,
  );
  console.log(`floor: ListTasks (100)     ${t.floor.toFixed(0)} ms`);
  console.log(
    `fctl get task (100)        ${t.getTask.toFixed(0)} ms  (${
      (t.getTask / t.floor).toFixed(2)
    }x floor; target <= 1.3x)`,
  );

  const all = (await client.admin.listTasks({
    id: { project: scope[0], domain: scope[1] },
    limit: 10_000,
    sortBy: { key: "created_at" },
  })).tasks;
  for (
    const [label, format, terminal] of [
      ["TABLE piped", "TABLE", false],
      ["TABLE terminal", "TABLE", true],
      ["JSON", "JSON", false],
    ] as const
  ) {
    const at1k = await renderPer1000(all.slice(0, 1000), format, terminal);
    const at10k = await renderPer1000(all, format, terminal);
    console.log(
      `render ${label.padEnd(15)} ${at1k.toFixed(1)} ms/1k rows at 1k, ${at10k.toFixed(1)} ms/1k rows at 10k`,
    );
  }
} finally {
  client.close();
  await sandbox.close();
  await Deno.remove(empty);
}

/**
 * Start-up and round-trip timings of the real executable (median of N runs each):
 *
 * - an empty `deno run` of a one-line script (the floor),
 * - `fctl --help`,
 * - `fctl get task -p P -d D` of one 100-task page against the in-process admin service.
 *
 *   deno task bench:cli [runs]
 *
 * @module
 */
import { createAdminClient } from "../src/admin/client.ts";
import { FCTL_PERMISSIONS } from "../src/permissions.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { seedTasks } from "../tests/task_fixtures.ts";

const runs = Number(Deno.args[0] ?? 15);
const main = new URL("../main.ts", import.meta.url).pathname;

async function median(args: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), { args, stdout: "null", stderr: "piped" }).output();
    times.push(performance.now() - started);
    if (!out.success) throw new Error(`${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const empty = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(empty, "export {};\n");
const sandbox = await startSandbox();
const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
try {
  await seedTasks(client, Array.from({ length: 100 }, (_, i) => ({ name: `bench.task_${i}`, version: "v1" })));
  const run = ["run", "--quiet", ...FCTL_PERMISSIONS];
  const floor = await median([...run, empty]);
  const help = await median([...run, main, "--help"]);
  const getTask = await median([
    ...run,
    main,
    "get",
    "task",
    "-p",
    "flytesnacks",
    "-d",
    "development",
    "--admin.endpoint",
    sandbox.endpoint,
  ]);
  console.log(`median of ${runs} runs`);
  console.log(`empty deno run          ${floor.toFixed(0)} ms`);
  console.log(`fctl --help             ${help.toFixed(0)} ms (${(help / floor).toFixed(2)}x the empty run)`);
  console.log(`fctl get task (100)     ${getTask.toFixed(0)} ms`);
} finally {
  client.close();
  await sandbox.close();
  await Deno.remove(empty);
}

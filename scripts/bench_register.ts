/**
 * Concurrency benchmark: `register files --archive flytesnacks-core.tgz` against the in-process admin
 * with 5 ms injected latency per RPC, `--concurrency 1` versus the default (8), each into a fresh
 * admin, then a check that both admins ended in the same state. Prints numbers; asserts nothing.
 * The task runs it with V8's default flags, as fctl itself runs.
 *
 * Two set-ups: the admin on its own thread (a worker, like a real admin on its own machine), and the
 * admin on the client's own thread (where the server's CPU work is added to the client's). Either way
 * the admin's code is warmed up with the client's, as a real admin has been running before a
 * registration: one worker serves every run, each run with a fresh sandbox (empty state, new port).
 * What is compared is the steady state: the measured runs follow six unmeasured pairs, after which
 * the JIT no longer speeds runs up. A fresh fctl process registers with a cold JIT, which costs the
 * default concurrency relatively more (its first runs here take about a third longer than later
 * ones, `--concurrency 1` about a tenth); that is not what this compares.
 *
 * Each run starts, as a fresh fctl process does, with an empty young generation on both threads: the
 * garbage of earlier runs and of the benchmark's own bookkeeping (comparing admin states) is collected
 * before the clock starts. Otherwise a collection of a few milliseconds falls in every other run and,
 * as the set-ups alternate, locks onto the same one for a whole invocation, swinging the ratio by
 * about 0.4x from one invocation to the next.
 *
 *   deno task bench:register [latencyMs] [runs]
 *
 * @module
 */
import { createAdminClient } from "../src/admin/client.ts";
import { registerFiles } from "../src/register/register_files.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { adminState } from "./bench_register_sandbox_worker.ts";

const latencyMs = Number(Deno.args[0] ?? 5);
const runs = Number(Deno.args[1] ?? 9);
const archive = new URL("../../shared/fixtures/flytectl/flytesnacks-core.tgz", import.meta.url).pathname;

interface Admin {
  endpoint: string;
  state(): Promise<string>;
  close(): Promise<void>;
}

/** Starts admins on one worker thread, one after the other; `terminate` ends the thread. */
function workerAdmins(): { start: () => Promise<Admin>; terminate: () => void } {
  const worker = new Worker(new URL("./bench_register_sandbox_worker.ts", import.meta.url), { type: "module" });
  const ask = <T>(message: unknown) =>
    new Promise<T>((resolve) => {
      worker.onmessage = (event: MessageEvent<T>) => resolve(event.data);
      worker.postMessage(message);
    });
  const start = async (): Promise<Admin> => {
    const { endpoint } = await ask<{ endpoint: string }>({ start: latencyMs });
    return {
      endpoint,
      state: async () => (await ask<{ state: string }>({ state: true })).state,
      close: async () => void await ask({ close: true }),
    };
  };
  return { start, terminate: () => worker.terminate() };
}

async function threadAdmin(): Promise<Admin> {
  const sandbox = await startSandbox({ latencyMs });
  return {
    endpoint: sandbox.endpoint,
    state: () => Promise.resolve(adminState(sandbox)),
    close: () => sandbox.close(),
  };
}

interface Run {
  totalMs: number;
  registerMs: number;
  state: string;
}

async function registerOnce(start: () => Promise<Admin>, concurrency: number): Promise<Run> {
  const admin = await start();
  const client = createAdminClient({ endpoint: admin.endpoint, insecure: true });
  try {
    const started = performance.now();
    const report = await registerFiles(client, {
      paths: [archive],
      archive: true,
      project: "flytesnacks",
      domain: "development",
      version: "bench",
      concurrency,
    });
    const totalMs = performance.now() - started;
    if (report.failed > 0) throw new Error(`${report.failed} files failed at concurrency ${concurrency}`);
    return { totalMs, registerMs: report.timings.registerMs, state: await admin.state() };
  } finally {
    client.close();
    await admin.close();
  }
}

/** Unmeasured pairs of runs before the measured ones (see the module doc). */
const WARM_UP_PAIRS = 6;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function compare(label: string, start: () => Promise<Admin>): Promise<void> {
  // Warm-up, not measured: module loading, then the JIT (see the module doc).
  for (let i = 0; i < WARM_UP_PAIRS; i++) {
    for (const concurrency of [1, 8]) await registerOnce(start, concurrency);
  }
  const measured: Record<number, Run[]> = { 1: [], 8: [] };
  for (let i = 0; i < runs; i++) {
    for (const concurrency of [1, 8]) measured[concurrency].push(await registerOnce(start, concurrency));
  }
  const total = (c: number) => median(measured[c].map((r) => r.totalMs));
  const creates = (c: number) => median(measured[c].map((r) => r.registerMs));
  const states = new Set([...measured[1], ...measured[8]].map((r) => r.state));
  console.log(`${label}:`);
  for (const c of [1, 8]) {
    console.log(
      `  --concurrency ${c}: ${total(c).toFixed(0)} ms whole command, ${
        creates(c).toFixed(0)
      } ms of upload and creates`,
    );
  }
  console.log(
    `  speed-up: ${(total(1) / total(8)).toFixed(1)}x whole command, ${
      (creates(1) / creates(8)).toFixed(1)
    }x upload and creates`,
  );
  console.log(`  same final admin state in all ${runs * 2} runs: ${states.size === 1 ? "yes" : "NO"}`);
}

console.log(
  `register files flytesnacks-core.tgz (84 entities, 1 upload), ${latencyMs} ms latency/RPC, median of ${runs}`,
);
const workers = workerAdmins();
try {
  await compare("admin on its own thread (worker)", workers.start);
} finally {
  workers.terminate();
}
await compare("admin on the client's thread", threadAdmin);

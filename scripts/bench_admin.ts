/**
 * The admin the benchmarks talk to, in a process of its own as a real admin runs on a machine of its own:
 * the sandbox admin service with an injected delay before every RPC, optionally seeded with tasks. It prints
 * its endpoint as the first line of stdout, then serves until SIGTERM or SIGINT (or, with `--stdin`, until its
 * stdin ends, so it cannot outlive a benchmark that was killed), and closes the sandbox on the way out.
 *
 *   deno run --allow-net --allow-read --allow-env scripts/bench_admin.ts [--port 0] [--latency 0] [--tasks 0]
 *     [--production CA_FILE] [--rtt 0]
 *
 * `--production` serves the sandbox's production profile, as production Flyte runs: TLS from a CA made at start
 * (its certificate is written to CA_FILE, which clients trust with `admin.caCertFilePath`; needs `openssl`
 * and `--allow-write`, `--allow-run=openssl`) and OAuth 2 enforced, its confidential client being the sandbox's default
 * (`SANDBOX_CLIENT`).
 *
 * `--rtt` puts a network round trip of that many ms between clients and the admin's gRPC port (see
 * scripts/bench_rtt_relay.ts), so that connecting costs round trips as across a network; the signed upload URLs
 * still reach the upload server directly.
 *
 * The seeded tasks are created straight in the store (not over gRPC, which takes seconds for 10,000), in
 * `flytesnacks`/`development`, each with two inputs and one output, so a table row has every column filled.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startSandbox } from "../src/sandbox/mod.ts";
import { startRttRelay } from "./bench_rtt_relay.ts";
import { seededTask } from "./bench_task.ts";

function count(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag} must be a whole number, got "${value}"`);
  return n;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      port: { type: "string", default: "0" },
      latency: { type: "string", default: "0" },
      tasks: { type: "string", default: "0" },
      stdin: { type: "boolean", default: false },
      production: { type: "string" },
      rtt: { type: "string", default: "0" },
    },
  });
  const sandbox = await startSandbox({
    port: count("port", values.port),
    latencyMs: count("latency", values.latency),
    production: values.production === undefined ? undefined : true,
  });
  if (values.production !== undefined) await Deno.writeTextFile(values.production, sandbox.caCertificate!);
  const tasks = count("tasks", values.tasks);
  for (let i = 0; i < tasks; i++) sandbox.store.addTask(seededTask(i));
  const rttMs = count("rtt", values.rtt);
  const relay = rttMs > 0 ? startRttRelay(sandbox.port, rttMs) : undefined;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    relay?.close();
    stopping ??= sandbox.close().then(() => Deno.exit(0));
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  console.log(relay ? sandbox.endpoint.replace(/:\d+$/, `:${relay.port}`) : sandbox.endpoint);
  if (values.stdin) {
    // Reads (and ignores) stdin until it ends: the benchmark holds the other end and closes it by dying.
    for await (const _ of Deno.stdin.readable) { /* nothing to read, only the end matters */ }
    stop();
  }
}

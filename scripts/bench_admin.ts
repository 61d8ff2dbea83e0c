/**
 * The admin the benchmarks talk to, in a process of its own as a real admin runs on a machine of its own:
 * the sandbox admin service with an injected delay before every RPC, optionally seeded with tasks. It prints
 * its endpoint as the first line of stdout, then serves until SIGTERM or SIGINT (or, with `--stdin`, until its
 * stdin ends, so it cannot outlive a benchmark that was killed), and closes the sandbox on the way out.
 *
 *   deno run --allow-net --allow-read --allow-env scripts/bench_admin.ts [--port 0] [--latency 0] [--tasks 0]
 *     [--projects 0] [--workflows 0] [--launchplans 0] [--executions 0] [--typedlaunchplans 0] [--production CA_FILE]
 *     [--rtt 0]
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
 * A bad flag or value is one line on stderr and exit status 2, before anything starts.
 *
 * The seeded tasks are created straight in the store (not over gRPC, which takes seconds for 10,000), in
 * `flytesnacks`/`development`, each with two inputs and one output, so a table row has every column filled.
 * The other counts seed what scripts/bench_seed.ts says, before the delay is set; `--projects` is refused with
 * `--production`, whose admin registers projects only for a signed-in client.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startSandbox } from "../src/sandbox/mod.ts";
import { startRttRelay } from "./bench_rtt_relay.ts";
import { seedAdmin, type SeedCounts } from "./bench_seed.ts";
import { seededTask } from "./bench_task.ts";

function count(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag} must be a whole number, got "${value}"`);
  return n;
}

/** What the command line asks for. */
interface AdminArgs {
  port: number;
  latencyMs: number;
  tasks: number;
  seed: SeedCounts;
  stdin: boolean;
  /** Where the production profile's CA certificate goes; undefined: no production profile. */
  caFile?: string;
  rttMs: number;
}

/** The command line, every value checked before anything starts; throws one line naming a bad one. */
function adminArgs(args: string[]): AdminArgs {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: "0" },
      latency: { type: "string", default: "0" },
      tasks: { type: "string", default: "0" },
      projects: { type: "string", default: "0" },
      workflows: { type: "string", default: "0" },
      launchplans: { type: "string", default: "0" },
      executions: { type: "string", default: "0" },
      typedlaunchplans: { type: "string", default: "0" },
      stdin: { type: "boolean", default: false },
      production: { type: "string" },
      rtt: { type: "string", default: "0" },
    },
  });
  const seed = {
    projects: count("projects", values.projects),
    workflows: count("workflows", values.workflows),
    launchPlans: count("launchplans", values.launchplans),
    executions: count("executions", values.executions),
    typedLaunchPlans: count("typedlaunchplans", values.typedlaunchplans),
  };
  if (seed.projects > 0 && values.production !== undefined) {
    throw new Error("--projects cannot be seeded with --production (its admin registers projects only when signed in)");
  }
  return {
    port: count("port", values.port),
    latencyMs: count("latency", values.latency),
    tasks: count("tasks", values.tasks),
    seed,
    stdin: values.stdin,
    caFile: values.production,
    rttMs: count("rtt", values.rtt),
  };
}

if (import.meta.main) {
  let args: AdminArgs;
  try {
    args = adminArgs(Deno.args);
  } catch (err) {
    console.error(`bench_admin: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`);
    Deno.exit(2);
  }
  const sandbox = await startSandbox({
    port: args.port,
    production: args.caFile === undefined ? undefined : true,
  });
  if (args.caFile !== undefined) await Deno.writeTextFile(args.caFile, sandbox.caCertificate!);
  for (let i = 0; i < args.tasks; i++) sandbox.store.addTask(seededTask(i));
  await seedAdmin(sandbox, args.seed);
  // Set after seeding, which (for projects) goes through the RPCs the delay slows down.
  sandbox.setLatency(args.latencyMs);
  const relay = args.rttMs > 0 ? startRttRelay(sandbox.port, args.rttMs) : undefined;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    relay?.close();
    stopping ??= sandbox.close().then(() => Deno.exit(0));
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  console.log(relay ? sandbox.endpoint.replace(/:\d+$/, `:${relay.port}`) : sandbox.endpoint);
  if (args.stdin) {
    // Reads (and ignores) stdin until it ends: the benchmark holds the other end and closes it by dying.
    for await (const _ of Deno.stdin.readable) { /* nothing to read, only the end matters */ }
    stop();
  }
}

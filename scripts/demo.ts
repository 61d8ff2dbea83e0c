/**
 * `deno task demo`: the whole loop, offline, in one process.
 *
 * 1. start an admin service in-process (real gRPC on a loopback port),
 * 2. build a small example package the way pyflyte lays one out,
 * 3. `fctl register files --archive` it,
 * 4. `fctl get task` to list what was registered.
 *
 * @module
 */
import { join } from "node:path";
import { runCli } from "../src/cli/run.ts";
import { denoIo } from "../src/app/deno_io.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { buildExamplePackage } from "./example_package.ts";

const io = denoIo();
const bold = io.stdoutIsTerminal && !io.env["NO_COLOR"];
const say = (text: string) => io.stdout.write(bold ? `\n\x1b[1m▸ ${text}\x1b[0m\n` : `\n▸ ${text}\n`);

async function fctl(args: string[]): Promise<void> {
  io.stdout.write(`$ fctl ${args.join(" ")}\n`);
  const code = await runCli(args, io);
  if (code !== 0) throw new Error(`fctl ${args[0]} exited with ${code}`);
}

const sandbox = await startSandbox();
const workDir = await Deno.makeTempDir({ prefix: "fctl-demo-" });
try {
  say(`Admin service running in-process at ${sandbox.endpoint}`);
  const scope = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];

  const archive = join(workDir, "example-package.tgz");
  await buildExamplePackage(archive);
  say("Built an example package (tasks, a workflow and its launch plan, as pyflyte serializes them)");

  say("Registering it");
  await fctl(["register", "files", "--archive", archive, "--version", "v1", ...scope]);

  say("Listing the registered tasks");
  await fctl(["get", "task", ...scope]);
} finally {
  await Deno.remove(workDir, { recursive: true });
  await sandbox.close();
}

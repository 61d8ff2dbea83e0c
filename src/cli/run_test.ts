/**
 * `runCli`'s hooks: the executable starts listening for Ctrl-C in `beforeRun`, which only a command that runs
 * reaches; help, the version and usage errors of the line are answered without it.
 */
import { deepEqual, equal } from "node:assert/strict";
import type { Io } from "../output/io.ts";
import { runCli } from "./run.ts";

/** An IO that keeps nothing and reads no file: what these lines print is not the point. */
function quietIo(): Io {
  return {
    stdout: { write: () => {} },
    stderr: { write: () => {} },
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
    env: { HOME: "/nonexistent-fctl-test-home" },
    readTextFile: (path) => Promise.reject(new Deno.errors.NotFound(path)),
  };
}

/** The exit status of `fctl <args>` and how many times `beforeRun` was called. */
async function run(args: string[]): Promise<{ code: number; calls: number }> {
  let calls = 0;
  const code = await runCli(args, quietIo(), undefined, {}, { beforeRun: () => void calls++ });
  return { code, calls };
}

Deno.test("beforeRun is not called for help, the version or a usage error of the command line", async () => {
  for (
    const args of [["--help"], ["get", "task", "-h"], ["help", "options"], ["get"], ["--version"], ["gte"], ["-x"]]
  ) {
    const { calls } = await run(args);
    equal(calls, 0, args.join(" "));
  }
});

Deno.test("beforeRun is called once, before the context loads, for a command that runs, even one that then fails", async () => {
  // The options step refuses the limit (a usage error after the line was parsed as a run): exit 2, one call.
  deepEqual(await run(["get", "task", "-p", "p", "-d", "d", "--filter.limit", "many"]), { code: 2, calls: 1 });
  // A bad configuration value fails while the configuration loads, after the hook.
  deepEqual(await run(["get", "task", "-p", "p", "-d", "d", "--admin.perRetryTimeout", "soon"]), { code: 2, calls: 1 });
});

Deno.test("the signal beforeRun returns is the run's: an aborted one makes the run's failure an interruption", async () => {
  const args = ["get", "task", "-p", "p", "-d", "d", "--filter.limit", "many"];
  const aborted = await runCli(args, quietIo(), undefined, {}, { beforeRun: () => AbortSignal.abort() });
  equal(aborted, 130);
  // Without one, the run has a signal nothing aborts: the usage error is what it was.
  equal(await runCli(args, quietIo(), undefined, {}, {}), 2);
});

/**
 * The fctl executable: the only place that reads `Deno.args` and calls `Deno.exit`.
 *
 * @module
 */
import { runCli } from "./src/cli/run.ts";
import { denoIo } from "./src/app/deno_io.ts";

/** The signals that interrupt a run: the first aborts it (exit 130), a second exits at once. */
const SIGNALS = Deno.build.os === "windows" ? ["SIGINT"] as const : ["SIGINT", "SIGTERM"] as const;

/**
 * Removes the temp dirs this process made for archives (`fctl-register-<pid>-*`, see
 * `src/register/package/archive.ts`) before a forced exit, which skips the run's own clean-up.
 * Synchronous: nothing asynchronous runs once `Deno.exit` is called.
 */
function removeOwnTempDirs(): void {
  // Where Deno.makeTempDir puts them by default (Rust's temp_dir); no Node built-in is loaded at start-up.
  const parent = (Deno.build.os === "windows" ? Deno.env.get("TMP") ?? Deno.env.get("TEMP") : Deno.env.get("TMPDIR")) ||
    (Deno.build.os === "windows" ? "." : "/tmp");
  const prefix = `fctl-register-${Deno.pid}-`;
  try {
    for (const entry of Deno.readDirSync(parent)) {
      if (entry.isDirectory && entry.name.startsWith(prefix)) {
        Deno.removeSync(`${parent}/${entry.name}`, { recursive: true });
      }
    }
  } catch {
    // Exiting anyway: a dir that cannot be listed or removed is left, as before.
  }
}

if (import.meta.main) {
  // Made, and listened for, when the line names a command to run: help, the version and usage errors are
  // answered before a signal could change anything, and starting Deno's signal handling (and its AbortController)
  // is a part of their time worth saving (about 0.7 ms of `fctl --help`'s few).
  let interrupt: AbortController | undefined;
  const onSignal = () => {
    if (interrupt!.signal.aborted) {
      removeOwnTempDirs();
      Deno.exit(130);
    }
    interrupt!.abort();
  };
  const listen = () => {
    interrupt = new AbortController();
    for (const signal of SIGNALS) Deno.addSignalListener(signal, onSignal);
    return interrupt.signal;
  };
  const code = await runCli(Deno.args, denoIo(), undefined, {}, { beforeRun: listen });
  if (interrupt) { for (const signal of SIGNALS) Deno.removeSignalListener(signal, onSignal); }
  Deno.exit(code);
}

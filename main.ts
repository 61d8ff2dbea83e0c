/**
 * The fctl executable: the only place that reads `Deno.args` and calls `Deno.exit`.
 *
 * @module
 */
import { runCli } from "./src/cli/run.ts";
import { denoIo } from "./src/cli/deno_io.ts";

if (import.meta.main) {
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) Deno.exit(130);
    interrupt.abort();
  };
  Deno.addSignalListener("SIGINT", onSigint);
  const code = await runCli(Deno.args, denoIo(), interrupt.signal);
  Deno.removeSignalListener("SIGINT", onSigint);
  Deno.exit(code);
}

/**
 * The real process IO, for `main.ts` and the library's `connect`.
 *
 * @module
 */
import { OutputClosedError } from "../errors.ts";
// Small and without imports: in the start-up module, it costs help nothing, where a lazy import of it cost every
// command that reads a file a module load of its own (about 0.6 ms).
import { readBoundedTextFile } from "../fs/read_bounded.ts";
import type { Io, TextSink } from "../output/io.ts";

/**
 * A stream as a sink. Its reader may go away (a pipe into `head`): stdout then ends the run quietly
 * (`OutputClosedError`, which runCli ends with exit 141, as SIGPIPE ends a Unix tool); what would go to a closed
 * stderr is dropped, as nobody can read it.
 */
function sink(stream: typeof Deno.stdout, onClosed: (err: Error) => void): TextSink {
  const encoder = new TextEncoder();
  return {
    write(text: string) {
      const bytes = encoder.encode(text);
      let written = 0;
      try {
        while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
      } catch (err) {
        if (!(err instanceof Deno.errors.BrokenPipe)) throw err;
        onClosed(err);
      }
    },
  };
}

/**
 * Reads stdin up to a line break (a y/n answer). Ctrl-C ends the wait at once, as no answer (null): a read of stdin
 * cannot be cancelled, and without this a run whose own listener saw the same Ctrl-C would still wait for Enter.
 */
async function readLine(): Promise<string | null> {
  let onInterrupt = () => {};
  const interrupted = new Promise<null>((resolve) => onInterrupt = () => resolve(null));
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    return await Promise.race([readLineOfStdin(), interrupted]);
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

/** Reads stdin up to a line break, one byte at a time so nothing after the line is consumed. */
async function readLineOfStdin(): Promise<string | null> {
  const bytes: number[] = [];
  const buffer = new Uint8Array(1);
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) return bytes.length > 0 ? new TextDecoder().decode(new Uint8Array(bytes)) : null;
    if (buffer[0] === 0x0a) return new TextDecoder().decode(new Uint8Array(bytes)).replace(/\r$/, "");
    bytes.push(buffer[0]);
  }
}

/**
 * IO bound to this process's streams and environment; `env` instead of the process's, which is then not read (a
 * program that gives the library its environment needs no `--allow-env`).
 */
export function denoIo(env?: Readonly<Record<string, string | undefined>>): Io {
  const stdoutIsTerminal = Deno.stdout.isTerminal();
  let columns: number | undefined;
  if (stdoutIsTerminal) {
    try {
      columns = Deno.consoleSize().columns;
    } catch {
      columns = undefined;
    }
  }
  return {
    stdout: sink(Deno.stdout, (err) => {
      throw new OutputClosedError({ cause: err });
    }),
    stderr: sink(Deno.stderr, () => {}),
    stdoutIsTerminal,
    stderrIsTerminal: Deno.stderr.isTerminal(),
    stdinIsTerminal: Deno.stdin.isTerminal(),
    columns,
    env: env ?? Deno.env.toObject(),
    readTextFile: readBoundedTextFile,
    readLine,
  };
}

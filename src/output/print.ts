/**
 * Plain text on stdout: a command's one-line result (`logged in to …`), a summary line under a table, a script;
 * and notes on stderr beside the result: hints, warnings, what was written where, live progress. With `render.ts`
 * (tables and documents) and `prompt.ts`, the only writers of stdout and stderr besides `runCli` (help, version and
 * errors) and the logger.
 *
 * @module
 */
import type { Io } from "./io.ts";
import { printable } from "./printable.ts";

/** Writes `line` and a line break to stdout. */
export function printLine(io: Pick<Io, "stdout">, line: string): void {
  io.stdout.write(`${line}\n`);
}

/** Writes `text` to stdout as it is (a completion script). */
export function printText(io: Pick<Io, "stdout">, text: string): void {
  io.stdout.write(text);
}

/**
 * Writes `line` and a line break to stderr: a note beside the result (a hint, a warning, what was written where).
 * Its control characters are shown as escapes: a note names what a server, a package or a file chose (a member, a
 * release tag, an execution), which must never drive the terminal nor break the line.
 */
export function printNote(io: Pick<Io, "stderr">, line: string): void {
  io.stderr.write(`${printable(line)}\n`);
}

/** Writes `text` to stderr as it is: a live line redrawn in place (`\r`), a question that waits for its answer. */
export function printNoteText(io: Pick<Io, "stderr">, text: string): void {
  io.stderr.write(text);
}

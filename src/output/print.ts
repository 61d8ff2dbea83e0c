/**
 * Plain text on stdout: a command's one-line result (`logged in to …`), a summary line under a table, a script.
 * With `render.ts` (tables and documents), the only writers of stdout besides `runCli`'s help and version.
 *
 * @module
 */
import type { Io } from "./io.ts";

/** Writes `line` and a line break to stdout. */
export function printLine(io: Pick<Io, "stdout">, line: string): void {
  io.stdout.write(`${line}\n`);
}

/** Writes `text` to stdout as it is (a completion script). */
export function printText(io: Pick<Io, "stdout">, text: string): void {
  io.stdout.write(text);
}

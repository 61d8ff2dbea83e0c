/**
 * The process streams and environment, injected so commands run the same in tests.
 *
 * @module
 */

/**
 * A text sink (stdout or stderr).
 *
 * ```ts
 * import { connect, type TextSink } from "@fctl/fctl";
 *
 * const lines: string[] = [];
 * const log: TextSink = { write: (text) => lines.push(text) };
 * await using flyte = await connect({ log });
 * console.log(flyte.config.file, lines.length);
 * ```
 */
export interface TextSink {
  /** Writes `text` whole. */
  write(text: string): void;
  /**
   * What this sink shows of `text` when it writes it: a redacting sink (`src/app/redacting_io.ts`) hides secrets.
   * A layout measures this rather than `text`, so that what is hidden moves no column and tells no length; a
   * document is made of it, so that it stays valid. Absent: `text` as it is.
   */
  shown?(text: string): string;
}

/** Everything a command may touch of the outside world besides the network. */
export interface Io {
  /** Results: tables, documents, help. */
  stdout: TextSink;
  /** Errors, warnings, logs, progress and hints. */
  stderr: TextSink;
  /** Whether stdout is a terminal (enables alignment to its width, colour). */
  stdoutIsTerminal: boolean;
  /** Whether stderr is a terminal (enables hints and progress). */
  stderrIsTerminal: boolean;
  /** Whether stdin is a terminal (enables prompts). */
  stdinIsTerminal: boolean;
  /** Terminal width in columns when stdout is a terminal. */
  columns?: number;
  /** The process environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a whole text file: a regular file of bounded size (see `src/fs/read_bounded.ts`). */
  readTextFile(path: string): Promise<string>;
  /** Reads one line typed on stdin (without its line break); null at end of input. Absent: no prompts. */
  readLine?: () => Promise<string | null>;
}

/**
 * The progress of `create execution --wait`, on stderr: on a terminal one live line redrawn in place (phase, running
 * and finished nodes, time waited), cut to the terminal's width so that it never wraps; in a pipe or a log one plain
 * line per phase change. Either way the last line, the execution's final phase, stays.
 *
 * @module
 */
import type { ExecutionProgress } from "../executions/wait.ts";
import { formatDuration } from "../config/duration.ts";
import type { Io } from "../output/io.ts";
import { truncateToWidth } from "../output/text_width.ts";
import { printNote, printNoteText } from "../output/print.ts";
import { printable } from "../output/printable.ts";

/** The width assumed when the terminal's is unknown. */
const DEFAULT_COLUMNS = 80;
const FINAL_PHASES = new Set(["SUCCEEDED", "FAILED", "ABORTED", "TIMED_OUT"]);

/** `waitForExecution`'s `onUpdate`, plus `clear` for a wait that ends without a final phase (Ctrl-C, timeout). */
export interface ExecutionProgressDisplay {
  onUpdate(progress: ExecutionProgress): void;
  /** Removes a live line still shown, so that an error starts on a clean line. */
  clear(): void;
}

/** `execution NAME: PHASE, 2 running, 3 finished nodes, 1m2s`: the nodes once any has run, time in whole seconds. */
export function progressLine(name: string, progress: ExecutionProgress): string {
  const nodes = progress.running + progress.finished > 0
    ? `, ${progress.running} running, ${progress.finished} finished nodes`
    : "";
  const elapsed = formatDuration(Math.floor(progress.elapsedMs / 1000) * 1000);
  // The name is the admin's (it may have chosen it): shown escaped, so that it cannot drive the terminal.
  return `execution ${printable(name)}: ${progress.phase}${nodes}, ${elapsed}`;
}

/** A display of execution `name`'s progress on `io.stderr`, live when stderr is a terminal. */
export function executionProgressDisplay(io: Io, name: string): ExecutionProgressDisplay {
  if (!io.stderrIsTerminal) {
    let lastPhase = "";
    return {
      onUpdate: (progress) => {
        if (progress.phase === lastPhase) return;
        lastPhase = progress.phase;
        printNote(io, progressLine(name, progress));
      },
      clear() {},
    };
  }
  let shown = false;
  return {
    onUpdate: (progress) => {
      const line = progressLine(name, progress);
      if (FINAL_PHASES.has(progress.phase)) {
        printNoteText(io, `\r\x1b[K${line}\n`);
        shown = false;
        return;
      }
      // One column short of the width: a line that fills it wraps on some terminals, and `\r` then redraws below.
      printNoteText(io, `\r\x1b[K${truncateToWidth(line, (io.columns ?? DEFAULT_COLUMNS) - 1)}`);
      shown = true;
    },
    clear: () => {
      if (shown) printNoteText(io, "\r\x1b[K");
      shown = false;
    },
  };
}

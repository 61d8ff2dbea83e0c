/**
 * A one-line progress display for downloads, the source upload and the creates, drawn on stderr
 * only when stderr is a terminal (never in pipes, logs or tests that capture output).
 *
 * @module
 */
import type { Io } from "../output/io.ts";
import { printNoteText } from "../output/print.ts";
import { printable } from "../output/printable.ts";
import type { DownloadProgress } from "../register/register_files.ts";
import type { RegisterProgress } from "../register/register_files.ts";

/** Least time between two redraws; a terminal cannot show more and each write costs a syscall. */
const REDRAW_MS = 100;

/** Callbacks for `registerFiles`' deps, plus `clear` for when the command is done. */
export interface ProgressDisplay {
  onDownloadProgress?: (progress: DownloadProgress) => void;
  onProgress?: (progress: RegisterProgress) => void;
  /** Removes the progress line, so the report starts on a clean line. */
  clear(): void;
}

/** A display on `io.stderr`, or no callbacks at all when stderr is not a terminal. */
export function progressDisplay(io: Io, now: () => number = () => performance.now()): ProgressDisplay {
  if (!io.stderrIsTerminal) return { clear() {} };
  let shown = false;
  let last = -Infinity;
  const draw = (line: string, force: boolean) => {
    const t = now();
    if (!force && t - last < REDRAW_MS) return;
    last = t;
    shown = true;
    printNoteText(io, `\r\x1b[K${line}`);
  };
  return {
    onDownloadProgress: (p) => {
      // Nothing received, nothing to say: "0 B" (of an empty body) is not progress.
      if (p.received === 0) return;
      // The URL and the package's member names are a server's to choose: shown escaped, never driving the terminal.
      const name = printable(p.url.slice(p.url.lastIndexOf("/") + 1));
      const total = p.total ? ` of ${byteSize(p.total)}` : "";
      draw(`Downloading ${name}: ${byteSize(p.received)}${total}`, p.done);
    },
    onProgress: (p) => {
      if (p.phase === "upload") draw(`Uploading ${printable(p.name.slice(p.name.lastIndexOf("/") + 1))}…`, true);
      else draw(`Registering: ${p.done} of ${p.total}`, p.done === p.total);
    },
    clear: () => {
      if (shown) printNoteText(io, "\r\x1b[K");
      shown = false;
    },
  };
}

/** Decimal units (1 KB is 1000 bytes), as download sizes are usually given. */
const UNITS = ["KB", "MB", "GB", "TB"];

/** `bytes` in the unit that shows it best: `512 B`, `51.1 KB`, `12.3 MB`, `1.2 GB` (never `0.0 MB`). */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  let value = bytes / 1000;
  let unit = 0;
  // Compared as shown: 999,999 bytes is 1.0 MB, not 1000.0 KB.
  while (Number(value.toFixed(1)) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

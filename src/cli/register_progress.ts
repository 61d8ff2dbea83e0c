/**
 * A one-line progress display for downloads, the source upload and the creates, drawn on stderr
 * only when stderr is a terminal (never in pipes, logs or tests that capture output).
 *
 * @module
 */
import type { Io } from "../output/io.ts";
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
    io.stderr.write(`\r\x1b[K${line}`);
  };
  return {
    onDownloadProgress: (p) => {
      const name = p.url.slice(p.url.lastIndexOf("/") + 1);
      const total = p.total === undefined ? "" : ` of ${megabytes(p.total)}`;
      draw(`Downloading ${name}: ${megabytes(p.received)}${total}`, p.done);
    },
    onProgress: (p) => {
      if (p.phase === "upload") draw(`Uploading ${p.name.slice(p.name.lastIndexOf("/") + 1)}…`, true);
      else draw(`Registering: ${p.done} of ${p.total}`, p.done === p.total);
    },
    clear: () => {
      if (shown) io.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

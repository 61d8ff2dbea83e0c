import { deepEqual, equal } from "node:assert/strict";
import type { Execution } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import type { ExecutionProgress } from "../executions/wait.ts";
import type { Io } from "../output/io.ts";
import { executionProgressDisplay, progressLine } from "./execution_progress.ts";

/** A stderr that records each write, a terminal of `columns` or a pipe. */
function stderr(isTerminal: boolean, columns?: number): Io & { writes: string[] } {
  const writes: string[] = [];
  return {
    stdout: { write: () => {} },
    stderr: { write: (text) => void writes.push(text) },
    stdoutIsTerminal: isTerminal,
    stderrIsTerminal: isTerminal,
    stdinIsTerminal: false,
    columns,
    env: {},
    readTextFile: () => Promise.reject(new Error("not read here")),
    writes,
  };
}

const progress = (phase: string, elapsedMs: number, running = 0, finished = 0): ExecutionProgress => ({
  execution: {} as Execution,
  phase,
  running,
  finished,
  elapsedMs,
});

const UPDATES = [
  progress("QUEUED", 0),
  progress("QUEUED", 1000),
  progress("RUNNING", 2000, 1, 0),
  progress("RUNNING", 62_500, 1, 2),
  progress("SUCCEEDED", 63_000, 0, 3),
];

Deno.test("progressLine: phase, nodes once any has run, time waited in whole seconds", () => {
  equal(progressLine("run", progress("QUEUED", 999)), "execution run: QUEUED, 0s");
  equal(
    progressLine("run", progress("RUNNING", 62_500, 1, 2)),
    "execution run: RUNNING, 1 running, 2 finished nodes, 1m2s",
  );
});

Deno.test("execution progress in a pipe: one plain line per phase change, the final phase last", () => {
  const io = stderr(false);
  const display = executionProgressDisplay(io, "run");
  for (const update of UPDATES) display.onUpdate(update);
  display.clear();
  deepEqual(io.writes, [
    "execution run: QUEUED, 0s\n",
    "execution run: RUNNING, 1 running, 0 finished nodes, 2s\n",
    "execution run: SUCCEEDED, 0 running, 3 finished nodes, 1m3s\n",
  ]);
});

Deno.test("execution progress on a terminal: one line redrawn in place, cut to the width; the final phase stays", () => {
  const io = stderr(true, 40); // 39 columns shown at most
  const display = executionProgressDisplay(io, "run");
  for (const update of UPDATES) display.onUpdate(update);
  display.clear(); // nothing left to clear after the final line
  deepEqual(io.writes, [
    "\r\x1b[Kexecution run: QUEUED, 0s",
    "\r\x1b[Kexecution run: QUEUED, 1s",
    "\r\x1b[Kexecution run: RUNNING, 1 running, 0...",
    "\r\x1b[Kexecution run: RUNNING, 1 running, 2...",
    "\r\x1b[Kexecution run: SUCCEEDED, 0 running, 3 finished nodes, 1m3s\n",
  ]);
});

Deno.test("execution progress on a terminal: clear removes a live line left by a wait that ended early", () => {
  const io = stderr(true);
  const display = executionProgressDisplay(io, "run");
  display.onUpdate(progress("RUNNING", 5000, 2, 1));
  display.clear();
  display.clear();
  deepEqual(io.writes, ["\r\x1b[Kexecution run: RUNNING, 2 running, 1 finished nodes, 5s", "\r\x1b[K"]);
});

Deno.test("progressLine: a name from the admin holding an escape sequence or a line break is shown escaped", () => {
  equal(
    progressLine("a\x1b[2Jb\nc", progress("RUNNING", 0, 1, 0)),
    "execution a\\x1b[2Jb\\nc: RUNNING, 1 running, 0 finished nodes, 0s",
  );
});

import { deepEqual } from "node:assert/strict";
import { byteSize, progressDisplay } from "./register_progress.ts";
import type { Io } from "../output/io.ts";

/** A terminal stderr that records each write. */
function terminal(): Io & { writes: string[] } {
  const writes: string[] = [];
  return {
    stdout: { write: () => {} },
    stderr: { write: (text) => void writes.push(text) },
    stdoutIsTerminal: false,
    stderrIsTerminal: true,
    stdinIsTerminal: false,
    env: {},
    readTextFile: () => Promise.reject(new Error("not read here")),
    writes,
  };
}

Deno.test("byteSize: bytes, then decimal units with one decimal, never 0.0 of a larger unit", () => {
  const cases: [number, string][] = [
    [0, "0 B"],
    [892, "892 B"],
    [999, "999 B"],
    [1000, "1.0 KB"],
    [51_076, "51.1 KB"],
    [999_949, "999.9 KB"],
    [999_999, "1.0 MB"],
    [12_345_678, "12.3 MB"],
    [1_500_000_000, "1.5 GB"],
    [2e15, "2000.0 TB"],
  ];
  deepEqual(cases.map(([bytes]) => byteSize(bytes)), cases.map(([, shown]) => shown));
});

Deno.test("download progress: sizes in the unit that fits; nothing at all while nothing was received", () => {
  let now = 0;
  const io = terminal();
  const display = progressDisplay(io, () => now);
  const url = "https://example.com/download/v1/valid-register.tgz";
  display.onDownloadProgress!({ url, received: 0, total: 892, done: false });
  display.onDownloadProgress!({ url, received: 0, done: true });
  deepEqual(io.writes, [], "an empty download draws no line");
  display.clear();
  deepEqual(io.writes, [], "and has no line to clear");
  display.onDownloadProgress!({ url, received: 892, total: 892, done: false });
  now += 1000;
  display.onDownloadProgress!({ url: url.replace("valid-register", "core"), received: 51_076, done: true });
  display.clear();
  deepEqual(io.writes, [
    "\r\x1b[KDownloading valid-register.tgz: 892 B of 892 B",
    "\r\x1b[KDownloading core.tgz: 51.1 KB",
    "\r\x1b[K",
  ]);
});

Deno.test("progress: a download's or source's name from a server or package is shown escaped, never drives the terminal", () => {
  const io = terminal();
  const display = progressDisplay(io, () => 0);
  display.onDownloadProgress!({
    url: "https://example.com/v1/core\x1b]0;pwned\x07.tgz",
    received: 10,
    total: 10,
    done: true,
  });
  display.onProgress!({ phase: "upload", name: "pkg/fast\x1b[2J.tar.gz", done: false });
  deepEqual(io.writes, [
    "\r\x1b[KDownloading core\\x1b]0;pwned\\x07.tgz: 10 B of 10 B",
    "\r\x1b[KUploading fast\\x1b[2J.tar.gz…",
  ]);
});

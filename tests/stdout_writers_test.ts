/**
 * Results reach stdout only through `src/output/` (tables, documents, `printLine`/`printText`), `runCli`'s help and
 * version (`src/cli/run.ts`) and the process adapter that is stdout (`src/app/deno_io.ts`): a command never writes
 * it directly, so what stdout carries is decided in one place. Notes on stderr (hints, warnings, progress) go through
 * `src/output/` too (`printNote`/`printNoteText`), beside `runCli`'s error lines and the logger's sink. Scans the
 * production sources under `src/`.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import { relative } from "node:path";

/** Where stdout may be written. A folder (ending in `/`) covers what is in it. */
const WRITERS = ["src/output/", "src/cli/run.ts", "src/app/deno_io.ts"];

/**
 * Writes tolerated for now; each must still occur: once it is gone, the test fails until its line is deleted
 * here, so the list only ever shrinks.
 */
const KNOWN: readonly string[] = [];

const ROOT = new URL("../", import.meta.url);

/** Writes of stdout, and of stderr, in code with its comments removed. */
const STDOUT_WRITE = /\b(?:stdout\.write|Deno\.stdout)\b/;
const STDERR_WRITE = /\b(?:stderr\.write|Deno\.stderr)\b/;

/** Stderr writes tolerated for now, on the same terms as {@link KNOWN}. */
const KNOWN_STDERR: readonly string[] = [];

/** The production sources under `src/` (no tests, no `_`-prefixed test modules) that write a stream themselves. */
async function directWriters(allowed: readonly string[], write: RegExp = STDOUT_WRITE): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts") && !entry.name.startsWith("_")) {
        const path = relative(ROOT.pathname, url.pathname);
        const code = (await Deno.readTextFile(url)).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
        if (write.test(code) && !allowed.some((w) => covered(path, w))) found.push(path);
      }
    }
  };
  await walk(new URL("src/", ROOT));
  return found.sort();
}

function covered(path: string, entry: string): boolean {
  return entry.endsWith("/") ? path.startsWith(entry) : path === entry;
}

Deno.test("stdout is written only through src/output/, runCli's help and version, and the process adapter", async () => {
  const found = await directWriters(WRITERS);
  deepEqual(found.filter((path) => !KNOWN.includes(path)), [], "write through src/output/print.ts instead");
  deepEqual(KNOWN.filter((path) => !found.includes(path)), [], "fixed, so delete them from KNOWN");
  assert((await directWriters([])).includes("src/output/render.ts"), "the scan sees a writer, so it can fail");
});

Deno.test("stderr notes are written only through src/output/, runCli's errors, and the process adapter", async () => {
  const found = await directWriters(WRITERS, STDERR_WRITE);
  deepEqual(found.filter((path) => !KNOWN_STDERR.includes(path)), [], "write through printNote/printNoteText instead");
  deepEqual(KNOWN_STDERR.filter((path) => !found.includes(path)), [], "fixed, so delete them from KNOWN_STDERR");
  assert((await directWriters([], STDERR_WRITE)).includes("src/output/prompt.ts"), "the scan sees a writer");
});

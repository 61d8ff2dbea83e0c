/**
 * Writing an execution spec file safely: never a half-written file (temp file + rename), never readable by
 * others (mode 0600), never an existing file replaced without the user's yes.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { fileErrorReason, OperationError, quote, UsageError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { type ExecSpec, renderSpec } from "../tasks/exec_spec.ts";
import { writeFileAtomic } from "../fs/write_atomic.ts";
import { printNote, printNoteText } from "../output/print.ts";

/**
 * What is at `path`: nothing, a directory, or something else. A link is looked at itself when `follow` is false
 * (the file's own path: a link there, even a dangling one, is an existing file, replaced only with a yes).
 */
async function entryAt(path: string, what: string, follow: boolean): Promise<"none" | "directory" | "other"> {
  try {
    return (await (follow ? Deno.stat(path) : Deno.lstat(path))).isDirectory ? "directory" : "other";
  } catch (err) {
    // A file where a directory of the path should be: nothing can be at the path (its parent says why).
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return "none";
    throw new OperationError(`cannot check ${what} ${quote(path)}: ${fileErrorReason(err)}`);
  }
}

/**
 * Checks that `path` may be written: absent in a directory that exists, or the user answered yes on a terminal.
 * Returns the path. Without a terminal (or a prompt) an existing file is an error and stays as it is. Asked
 * before any call, so that a path that cannot be written fails at once, not after the task has been fetched.
 */
export async function prepareExecFile(io: Io, path: string): Promise<string> {
  const entry = await entryAt(path, "exec file", false);
  if (entry === "directory") {
    throw new UsageError(`invalid value ${quote(path)} for --execFile: it is a directory; name a file in it`);
  }
  if (entry === "none") {
    const dir = dirname(path);
    const parent = await entryAt(dir, "the directory of exec file", true);
    if (parent !== "directory") {
      const why = parent === "none" ? "does not exist" : "is not a directory";
      throw new UsageError(`invalid value ${quote(path)} for --execFile: directory ${quote(dir)} ${why}`);
    }
    return path;
  }
  if (!io.stdinIsTerminal || !io.readLine) {
    throw new OperationError(`exec file ${quote(path)} already exists: backup the file before continuing`);
  }
  printNoteText(io, `exec file ${quote(path)} already exists; overwrite it? [y/n]: `);
  const answer = (await io.readLine())?.trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") {
    throw new OperationError(`exec file ${quote(path)} not overwritten: backup the file before continuing`);
  }
  return path;
}

/** An entity whose execution spec `--execFile` writes: a task or a launch plan. */
interface Named {
  id?: { name: string; version: string };
}

/**
 * `--execFile` of `get task` and `get launchplan`: checks `file` now (asking about one that exists, before any RPC),
 * and returns what writes the spec `toSpec` makes of the entity there (atomically, mode 0600) and says so on stderr
 * (stdout keeps the listing), naming the file as an absolute path.
 */
export async function execFileWriter<T extends Named>(
  io: Io,
  file: string,
  now: () => Date,
  toSpec: (entity: T, now: Date) => ExecSpec,
): Promise<(entity: T) => Promise<void>> {
  const path = await prepareExecFile(io, file);
  return async (entity) => {
    await writeSpecText(path, await renderSpec(toSpec(entity, now())));
    // The name and version are the admin's text; printNote shows them escaped.
    printNote(
      io,
      `wrote the execution spec of ${entity.id?.name ?? ""} version ${entity.id?.version ?? ""} to ${resolve(path)}`,
    );
  };
}

async function writeSpecText(path: string, text: string): Promise<void> {
  try {
    // Replacing: prepareExecFile already had the user's yes for a file that exists.
    await writeFileAtomic(path, text, { replace: true });
  } catch (err) {
    throw new OperationError(`cannot write exec file ${quote(path)}: ${fileErrorReason(err)}`, { cause: err });
  }
}

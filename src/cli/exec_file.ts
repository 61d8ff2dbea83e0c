/**
 * Writing an execution spec file safely: never a half-written file (temp file + rename), never readable by
 * others (mode 0600), never an existing file replaced without the user's yes.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { OperationError, quote } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { renderExecSpec } from "../tasks/exec_spec.ts";
import { writeFileAtomic } from "../fs/write_atomic.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw new OperationError(`cannot check exec file ${quote(path)}: ${(err as Error).message}`);
  }
}

/**
 * Checks that `path` may be written: absent, or the user answered yes on a terminal. Returns the path.
 * Without a terminal (or a prompt) an existing file is an error and stays as it is.
 */
export async function prepareExecFile(io: Io, path: string): Promise<string> {
  if (!(await exists(path))) return path;
  if (!io.stdinIsTerminal || !io.readLine) {
    throw new OperationError(`exec file ${quote(path)} already exists: backup the file before continuing`);
  }
  io.stderr.write(`exec file ${quote(path)} already exists; overwrite it? [y/n]: `);
  const answer = (await io.readLine())?.trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") {
    throw new OperationError(`exec file ${quote(path)} not overwritten: backup the file before continuing`);
  }
  return path;
}

/** `path` made absolute against the working directory, for telling the user where the file went. */
export function absolutePath(path: string): string {
  return resolve(path);
}

/** Writes the exec spec of `task` to `path` atomically with mode 0600. */
export async function writeExecFile(path: string, task: Task, now: Date): Promise<void> {
  const text = await renderExecSpec(task, now);
  try {
    // Replacing: prepareExecFile already had the user's yes for a file that exists.
    await writeFileAtomic(path, text, { replace: true });
  } catch (err) {
    throw new OperationError(`cannot write exec file ${quote(path)}: ${(err as Error).message}`);
  }
}

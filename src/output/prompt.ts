/**
 * The question an update asks before it changes anything: `Continue? [y/n]: ` on a terminal; without one
 * (piped, in a script) no question can be answered, so the command refuses at once instead of waiting on stdin.
 *
 * @module
 */
import { OperationError, UsageError } from "../errors.ts";
import type { Io } from "./io.ts";

/**
 * Asks `Continue? [y/n]: ` on stderr and reads the answer: `y` or `yes` goes on; anything else, or the end of
 * input, throws `<what> aborted by user` (exit 1, nothing changed). With `force` nothing is asked. Without a
 * terminal on stdin it throws a usage error (exit 2) saying to add `--force`.
 */
export async function confirmOrAbort(io: Io, what: string, force: boolean): Promise<void> {
  if (force) return;
  if (!io.stdinIsTerminal || !io.readLine) {
    throw new UsageError(`${what} not applied: stdin is not a terminal to answer "Continue? [y/n]"; add --force`);
  }
  io.stderr.write("Continue? [y/n]: ");
  const answer = (await io.readLine())?.trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new OperationError(`${what} aborted by user`);
}

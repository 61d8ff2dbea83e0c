/**
 * What a registration's outcome means for the exit status: the error that stopped it, 130 when interrupted, 1
 * when a file failed, after naming the failed files on stderr.
 *
 * @module
 */
import { InterruptedError, OperationError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { printNote } from "../output/print.ts";
import type { RegisterExamplesReport } from "../register/register_examples.ts";
import type { RegisterEntry } from "../register/register_files.ts";

/** Most failures named on stderr, one line each; the rest are counted in one more line. */
export const MAX_FAILURES_NAMED = 10;

/** One file that failed, as stderr names it. */
export interface Failure {
  /** The file (and, for `register examples`, its asset). */
  name: string;
  /** Why, in full. */
  reason: string;
}

/** The failed entries of a report's rows, in their order. */
export function failuresOf(entries: readonly Pick<RegisterEntry, "name" | "status" | "info">[]): Failure[] {
  return entries.filter((e) => e.status === "Failed").map((e) => ({ name: e.name, reason: e.info }));
}

/** The failed files of every asset of a `register examples` report, each named with its asset. */
export function examplesFailures(report: RegisterExamplesReport): Failure[] {
  return report.assets.flatMap((a) =>
    a.report
      ? failuresOf(a.report.entries).map((f) => ({ ...f, name: `${a.asset}: ${f.name}` }))
      : a.error !== undefined
      ? [{ name: a.asset, reason: a.error }]
      : []
  );
}

/**
 * Throws what a report's outcome means for the exit status: the error that stopped the registration
 * as a whole (shown after its report), 130 if interrupted, 1 if anything failed, after a line on stderr for
 * each failed file and why (at most {@link MAX_FAILURES_NAMED}, then how many more), so that the reasons are
 * read whole whatever the table had room for.
 */
export function reportOutcome(
  io: Pick<Io, "stderr">,
  outcome: { interrupted: boolean; failed: number; error?: Error },
  failedMessage: string,
  failures: readonly Failure[],
): void {
  if (outcome.error) throw outcome.error;
  if (outcome.interrupted) {
    throw new InterruptedError("interrupted; the report above shows what was and was not registered");
  }
  if (outcome.failed > 0) {
    for (const { name, reason } of failures.slice(0, MAX_FAILURES_NAMED)) {
      printNote(io, `failed: ${name}: ${reason.replace(/\s*\n\s*/g, " ")}`);
    }
    const more = failures.length - MAX_FAILURES_NAMED;
    if (more > 0) printNote(io, `failed: and ${more} more (the report above lists them)`);
    throw new OperationError(failedMessage);
  }
}

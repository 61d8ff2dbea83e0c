/**
 * Runs one command line and decides its exit status: the single place where errors become
 * exit codes and one-line messages.
 *
 * @module
 */
import { CommanderError } from "commander";
import { ExitCode, FctlError, InterruptedError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { booleanFlags, normalizeBooleanFlags } from "./global_options.ts";
import { buildProgram } from "./program.ts";
import { startSession } from "./run_session.ts";

/** Commander outcomes that are not failures. */
const COMMANDER_OK = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

/** Runs `fctl <args>` and returns the exit status; never exits the process and never throws. */
export async function runCli(
  args: readonly string[],
  rawIo: Io,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  // Everything written from here on, errors included, passes through the session's secret redaction.
  const { io, session } = startSession(rawIo);
  const stack = (err: unknown) => {
    // Debug level (5) asks for the stack of the failure, after the one-line message.
    if (session.logger.level >= 5 && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  };
  try {
    const program = buildProgram(io, signal);
    await program.parseAsync(normalizeBooleanFlags(args, booleanFlags(program)), { from: "user" });
    return ExitCode.Ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has already written its message (and help where it applies) to stderr.
      return COMMANDER_OK.has(err.code) ? ExitCode.Ok : ExitCode.Usage;
    }
    // Whatever failed after Ctrl-C failed because of it; an InterruptedError carries its own, better message.
    if (signal.aborted && !(err instanceof InterruptedError)) {
      io.stderr.write("Error: interrupted\n");
      return ExitCode.Interrupted;
    }
    if (err instanceof FctlError) {
      io.stderr.write(`Error: ${oneLine(err.message)}\n`);
      stack(err);
      return err.exitCode;
    }
    // A bug: still one line, never a stack trace unless debugging is asked for.
    io.stderr.write(`Error: unexpected failure: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    stack(err);
    return ExitCode.Failed;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

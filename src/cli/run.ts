/**
 * Runs one command line and decides its exit status: the single place where errors become
 * exit codes and one-line messages.
 *
 * Help and version requests are answered from the command tree without loading commander or the run's
 * context; every other command line is parsed by the commander graph, loaded on demand.
 *
 * @module
 */
import { ExitCode, FctlError, InterruptedError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { excerpt } from "../output/printable.ts";
import { renderHelp, renderOptionsHelp } from "./help.ts";
import { quickRequest } from "./help_request.ts";
import type { CliDeps } from "./context.ts";
import { VERSION } from "../version.ts";

export type { CliDeps, Clock } from "./context.ts";

/** Commander outcomes that are not failures. */
const COMMANDER_OK = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

/** A commander exit (usage error, help, version), told apart without importing commander. */
function commanderExitCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("commander.") ? code : undefined;
}

/**
 * Runs `fctl <args>` and returns the exit status; never exits the process and never throws.
 * `deps` replace the dependencies a command would build from its configuration (tests inject an admin
 * client or an HTTP client this way); whatever the run built itself is closed before it returns.
 */
export async function runCli(
  args: readonly string[],
  rawIo: Io,
  signal: AbortSignal = new AbortController().signal,
  deps: CliDeps = {},
): Promise<number> {
  // Help and version read no configuration and learn no secret: they are answered before the run's context
  // (its logger, its secret redaction) is even loaded.
  try {
    const quick = await quickRequest(args);
    if (quick?.kind === "help") {
      rawIo.stdout.write(renderHelp(quick.path, rawIo.stdoutIsTerminal ? rawIo.columns : undefined));
      return ExitCode.Ok;
    }
    if (quick?.kind === "options") {
      rawIo.stdout.write(renderOptionsHelp(rawIo.stdoutIsTerminal ? rawIo.columns : undefined));
      return ExitCode.Ok;
    }
    if (quick?.kind === "version") {
      rawIo.stdout.write(`${VERSION}\n`);
      return ExitCode.Ok;
    }
  } catch (err) {
    return failure(err, rawIo, signal, { debug: () => false });
  }
  let modules;
  try {
    modules = await Promise.all([import("./context.ts"), import("./program.ts")]);
  } catch (err) {
    return failure(err, rawIo, signal, { debug: () => false });
  }
  const [{ CliContext }, { parseAndRun }] = modules;
  // Everything written from here on, errors included, passes through the context's secret redaction.
  const ctx = new CliContext(rawIo, signal, deps);
  try {
    await parseAndRun(args, ctx);
    return ExitCode.Ok;
  } catch (err) {
    // Debug level (5) asks for the stack of the failure, after the one-line message.
    return failure(err, ctx.io, signal, {
      debug: () => ctx.logger.level >= 5,
      redact: (text) => ctx.secrets.redact(text),
    });
  } finally {
    await ctx.close();
  }
}

/**
 * Longest error line, and longest line of a stack: an error may quote what a server or a program said, which is
 * cut there, saying how much was left out.
 */
export const MAX_ERROR_LINE = 2000;

/** How {@link failure} writes: whether to add the stack, and the run's secret redaction. */
interface FailureOptions {
  debug: () => boolean;
  redact?: (text: string) => string;
}

/**
 * The exit status of a failed run, after writing its one-line message (and the stack when `debug()`). Every line
 * is shown as {@link excerpt} shows text from outside fctl: an error message may hold a server's answer, with
 * control characters, a huge line or an echoed secret.
 */
function failure(err: unknown, io: Io, signal: AbortSignal, options: FailureOptions): number {
  const line = (text: string) => excerpt(text, MAX_ERROR_LINE, { redact: options.redact });
  const stack = (err: unknown) => {
    if (!options.debug() || !(err instanceof Error) || !err.stack) return;
    // Each line as an error line is shown, keeping the indentation of the frames (`    at …`).
    for (const frame of err.stack.split("\n")) io.stderr.write(`${/^[ \t]*/.exec(frame)![0]}${line(frame)}\n`);
  };
  const commanderCode = commanderExitCode(err);
  if (commanderCode) {
    // Commander has already written its message (and help where it applies) to stderr.
    return COMMANDER_OK.has(commanderCode) ? ExitCode.Ok : ExitCode.Usage;
  }
  // Whatever failed after Ctrl-C failed because of it; an InterruptedError carries its own, better message.
  if (signal.aborted && !(err instanceof InterruptedError)) {
    io.stderr.write("Error: interrupted\n");
    return ExitCode.Interrupted;
  }
  if (err instanceof FctlError) {
    io.stderr.write(`Error: ${line(err.message)}\n`);
    stack(err);
    return err.exitCode;
  }
  // A bug: still one line, never a stack trace unless debugging is asked for.
  io.stderr.write(`Error: unexpected failure: ${line(err instanceof Error ? err.message : String(err))}\n`);
  stack(err);
  return ExitCode.Failed;
}

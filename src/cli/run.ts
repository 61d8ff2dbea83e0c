/**
 * Runs one command line and decides its exit status: the single place where errors become
 * exit codes and one-line messages.
 *
 * The command line is parsed once, against the command tree (`parse.ts`). Help, the version and usage errors
 * are answered from it without loading the run's context; a command's run loads the context, then the
 * configuration, then what the command itself needs.
 *
 * @module
 */
import { ExitCode, FctlError, InterruptedError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { excerpt } from "../output/printable.ts";
import { renderHelp, renderOptionsHelp } from "./help.ts";
import { parseCommandLine, type ParsedCommandLine, type RunRequest } from "./parse.ts";
import type { CliContext, CliDeps } from "./context.ts";
import { VERSION } from "../version.ts";

export type { CliDeps, Clock } from "./context.ts";

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
  // Help, the version and usage errors read no configuration and learn no secret: they are answered before the
  // run's context (its logger, its secret redaction) is even loaded.
  let parsed: ParsedCommandLine;
  try {
    parsed = await parseCommandLine(args);
  } catch (err) {
    return failure(err, rawIo, signal, { debug: () => false });
  }
  const columns = rawIo.stdoutIsTerminal ? rawIo.columns : undefined;
  if (parsed.kind === "help") {
    rawIo.stdout.write(renderHelp(parsed.path, columns));
    return ExitCode.Ok;
  }
  if (parsed.kind === "options") {
    rawIo.stdout.write(renderOptionsHelp(columns));
    return ExitCode.Ok;
  }
  if (parsed.kind === "version") {
    rawIo.stdout.write(`${VERSION}\n`);
    return ExitCode.Ok;
  }
  let context;
  try {
    context = await import("./context.ts");
  } catch (err) {
    return failure(err, rawIo, signal, { debug: () => false });
  }
  // Everything written from here on, errors included, passes through the context's secret redaction.
  const ctx = new context.CliContext(rawIo, signal, deps);
  try {
    await runCommand(ctx, parsed);
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

/** Loads the configuration from the global flags (unless the command reads none), then runs the command. */
async function runCommand(ctx: CliContext, request: RunRequest): Promise<void> {
  const command = request.path[request.path.length - 1];
  if (!command.run) throw new Error(`command ${JSON.stringify(command.name)} has neither subcommands nor run`);
  if (command.readsConfig === false) ctx.useFlagsWithoutConfig(request.globals);
  else await ctx.loadConfig(request.globals, { reportWarnings: command.reportsConfigWarnings !== true });
  await command.run(ctx, request.args, request.flags);
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

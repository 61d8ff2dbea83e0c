/**
 * Runs one command line and decides its exit status: the single place where errors become
 * exit codes and one-line messages.
 *
 * The command line is parsed once, against the command tree (`parse.ts`). Help, the version and usage errors
 * are answered from it without loading the run's context; a command's run loads the context, then the
 * configuration, then takes the leaf's two steps: its options step (flags to options, pure) and its run step.
 * {@link parseToOptions} stops after the first: what a test of a command's flags calls.
 *
 * @module
 */
import { ExitCode, FctlError, InterruptedError, OutputClosedError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { excerpt } from "../output/printable.ts";
import { renderHelp, renderOptionsHelp } from "./help.ts";
import { parseCommandLine, type ParsedCommandLine, type RunRequest } from "./parse.ts";
import type { CommandLineGlobals, CommandSpec, LoadedGlobals } from "./command.ts";
import type { CliContext, CliDeps } from "./context.ts";
import { VERSION } from "../version.ts";

export type { CliDeps, Clock } from "./context.ts";

/** What the caller of {@link runCli} is told as a run goes. */
export interface RunHooks {
  /**
   * Called once the command line names a command to run, before its context loads: not for help, the version
   * or a usage error of the line. The executable starts listening for Ctrl-C here, and returns the signal the
   * run is to use in place of `runCli`'s `signal` (made only then: help and the version need none).
   */
  beforeRun?: () => AbortSignal | void;
}

/**
 * Runs `fctl <args>` and returns the exit status; never exits the process and never throws.
 * `signal` ends the run (Ctrl-C), unless `hooks.beforeRun` gives the run one; without either, nothing ends it.
 * `deps` replace the dependencies a command would build from its configuration (tests inject an admin
 * client or an HTTP client this way); whatever the run built itself is closed before it returns.
 */
export async function runCli(
  args: readonly string[],
  rawIo: Io,
  signal?: AbortSignal,
  deps: CliDeps = {},
  hooks: RunHooks = {},
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
  if (parsed.kind === "help") return answer(renderHelp(parsed.path, columns), rawIo, signal);
  if (parsed.kind === "options") return answer(renderOptionsHelp(columns), rawIo, signal);
  if (parsed.kind === "version") return answer(`${VERSION}\n`, rawIo, signal);
  return await runRequest(parsed, rawIo, signal, deps, hooks);
}

/** Writes the help or the version on stdout: exit 0, or what {@link failure} makes of a failed write. */
function answer(text: string, io: Io, signal: AbortSignal | undefined): number {
  try {
    io.stdout.write(text);
    return ExitCode.Ok;
  } catch (err) {
    return failure(err, io, signal, { debug: () => false });
  }
}

/**
 * Runs the command a command line names, in a context loaded for it; the exit status as {@link runCli} returns it.
 * Apart from `runCli` so that help and the version do not pay for compiling it: V8 compiles a function whole
 * the first time it is called, and on every start.
 */
async function runRequest(
  parsed: RunRequest,
  rawIo: Io,
  given: AbortSignal | undefined,
  deps: CliDeps,
  hooks: RunHooks,
): Promise<number> {
  const signal = hooks.beforeRun?.() ?? given ?? new AbortController().signal;
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

/**
 * Loads the configuration from the global flags (unless the command reads none), then takes the leaf's steps:
 * its options from the command line and the configuration, then its run with them.
 */
async function runCommand(ctx: CliContext, request: RunRequest): Promise<void> {
  const leaf = leafOf(request);
  let globals: LoadedGlobals | CommandLineGlobals;
  if (leaf.readsConfig === false) {
    ctx.useFlagsWithoutConfig(request.globals);
    globals = (await import("./typed_globals.ts")).commandLineGlobals(request.globals);
  } else {
    const loaded = await ctx.loadConfig(request.globals, { reportWarnings: leaf.reportsConfigWarnings !== true });
    globals = { config: loaded.config, sources: loaded.sources };
  }
  const warn = (message: string) => ctx.io.stderr.write(`warning: ${message}\n`);
  await leaf.run(ctx, leaf.options({ args: request.args, flags: request.flags, globals, warn }));
}

/** The leaf a run request names, with both its steps. */
function leafOf(request: RunRequest): Required<Pick<CommandSpec, "options" | "run">> & CommandSpec {
  const leaf = request.path[request.path.length - 1];
  if (!leaf.options || !leaf.run) {
    throw new Error(`command ${JSON.stringify(leaf.name)} has neither subcommands nor run`);
  }
  return { ...leaf, options: leaf.options, run: leaf.run };
}

/** What {@link parseToOptions} stops with: the command a line runs and the options its options step made. */
export interface ParsedOptions {
  /** The command's names from the root, without the program's (`["get", "task"]`, also for `fctl tasks`). */
  readonly command: readonly string[];
  /** What the leaf's options step returned: what its run step would be given. */
  readonly options: unknown;
  /** The warnings the options step gave (a deprecated flag), each as it would follow `warning: `. */
  readonly warnings: readonly string[];
}

/**
 * The runF seam: parses `args` as {@link runCli} does and takes the leaf's options step, then stops: no context,
 * no config file, no environment, no connection. The global options are their defaults under the global flags
 * given (`-p`, `-o`, `--files.*`); a leaf that reads no configuration is given the global flags as typed.
 *
 * @throws {UsageError} what the command line or the options step refuses
 * @throws {Error} the line asks for help or the version: there is no command to stop in
 */
export async function parseToOptions(args: readonly string[]): Promise<ParsedOptions> {
  const parsed = await parseCommandLine(args);
  if (parsed.kind !== "run") throw new Error(`${JSON.stringify(args.join(" "))} asks for ${parsed.kind}, not a run`);
  const leaf = leafOf(parsed);
  let globals: LoadedGlobals | CommandLineGlobals;
  if (leaf.readsConfig === false) globals = (await import("./typed_globals.ts")).commandLineGlobals(parsed.globals);
  else {
    const { loadConfig } = await import("../config/load.ts");
    // No `-c`, no environment (so no HOME): nothing is read; an unexpected read fails the test.
    const loaded = await loadConfig({
      flags: { ...parsed.globals, config: undefined },
      env: {},
      readTextFile: (path) => Promise.reject(new Error(`parseToOptions reads no file, asked for ${path}`)),
    });
    globals = { config: loaded.config, sources: loaded.sources };
  }
  const command = parsed.path.slice(1).map((c) => c.name);
  const warnings: string[] = [];
  const warn = (message: string) => void warnings.push(message);
  return { command, options: leaf.options({ args: parsed.args, flags: parsed.flags, globals, warn }), warnings };
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
function failure(err: unknown, io: Io, signal: AbortSignal | undefined, options: FailureOptions): number {
  const line = (text: string) => excerpt(text, MAX_ERROR_LINE, { redact: options.redact });
  const stack = (err: unknown) => {
    if (!options.debug() || !(err instanceof Error) || !err.stack) return;
    // Each line as an error line is shown, keeping the indentation of the frames (`    at …`).
    for (const frame of err.stack.split("\n")) io.stderr.write(`${/^[ \t]*/.exec(frame)![0]}${line(frame)}\n`);
  };
  // The reader of stdout went away (`| head`): nothing is said, as SIGPIPE ends a Unix tool.
  if (err instanceof OutputClosedError) return err.exitCode;
  // Whatever failed after Ctrl-C failed because of it; an InterruptedError carries its own, better message.
  if (signal?.aborted && !(err instanceof InterruptedError)) {
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

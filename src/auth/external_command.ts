/**
 * ExternalCommand: `admin.command` runs as an argument vector (no shell), and its trimmed standard output is
 * the token. The token carries no expiry: it is used until the admin rejects it.
 *
 * @module
 */
import { formatDuration } from "../config/duration.ts";
import { InterruptedError, OperationError, quote, UsageError } from "../errors.ts";
import { printable } from "../output/printable.ts";
import type { Token, TokenSource } from "./tokens.ts";

/** What running a program gives back. */
export interface CommandOutput {
  /** The exit status. */
  code: number;
  stdout: string;
  /** The end of its stderr (a runner may keep only the last part of a long one). */
  stderr: string;
  /** Stdout passed {@link CommandLimits.maxStdoutBytes}: the program was ended and `stdout` is empty. */
  stdoutOverflow?: boolean;
}

/** What bounds one run of a program. */
export interface CommandLimits {
  /** Aborting it ends the program and the processes it started; the run then rejects with its reason. */
  signal?: AbortSignal;
  /** Most bytes of stdout read; a program printing more is ended (see {@link CommandOutput.stdoutOverflow}). */
  maxStdoutBytes?: number;
}

/**
 * Runs a program with arguments, no shell, stdin closed, and collects its output when it exits (not when
 * the last process holding its stdout lets go). Rejects when it cannot be started (e.g. `NotFound`), or with
 * the signal's reason once `limits.signal` aborts.
 */
export type CommandRunner = (argv: readonly string[], limits?: CommandLimits) => Promise<CommandOutput>;

/** What bounds a token command's run. */
export interface TokenCommandLimits {
  /** `admin.commandTimeout` in milliseconds; 0: none. */
  timeoutMs: number;
  /** The run's abort signal: Ctrl-C ends the program. */
  signal?: AbortSignal;
}

/** The most a token command may print: a token is one short line; more is a program gone wrong. */
export const MAX_TOKEN_OUTPUT_BYTES = 64 * 1024;

/** How much of a failed command's stderr an error shows. */
const STDERR_TAIL_CHARS = 400;

/** The last lines of `text`, at most {@link STDERR_TAIL_CHARS} characters, on one line, control characters shown. */
function tail(text: string): string {
  const oneLine = text.trim().split(/\r?\n/).map((line) => line.trim()).filter(Boolean).join(" | ");
  return printable(oneLine, STDERR_TAIL_CHARS, { keepEnd: true });
}

/**
 * Runs the token command of option `key` (`admin.command`, `admin.proxyCommand`) and resolves to its trimmed
 * output; a failure is one error naming the program (never its arguments, which may hold secrets), with the
 * tail of its stderr. The program and what it started are ended at `limits.timeoutMs` and when
 * `limits.signal` aborts.
 */
export async function runTokenCommand(
  key: string,
  command: readonly string[],
  run: CommandRunner,
  limits: TokenCommandLimits,
): Promise<string> {
  const shown = `${key} ${quote(command[0])}`;
  const interrupted = () => new InterruptedError(`interrupted while waiting for ${shown}`);
  if (limits.signal?.aborted) throw interrupted();
  const timeout = new AbortController();
  const timer = limits.timeoutMs > 0 ? setTimeout(() => timeout.abort(), limits.timeoutMs) : undefined;
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout.signal]) : timeout.signal;
  let output: CommandOutput;
  try {
    output = await run(command, { signal, maxStdoutBytes: MAX_TOKEN_OUTPUT_BYTES });
  } catch (err) {
    if (limits.signal?.aborted) throw interrupted();
    if (timeout.signal.aborted) {
      throw new OperationError(
        `${shown} gave no token within ${formatDuration(limits.timeoutMs)} (admin.commandTimeout): it was ended`,
      );
    }
    const reason = err instanceof Error && err.name === "NotFound" ? "no such program" : printable(String(err), 200);
    throw new OperationError(`cannot run ${shown}: ${reason}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  if (output.stdoutOverflow) {
    throw new OperationError(
      `${shown} printed more than ${MAX_TOKEN_OUTPUT_BYTES / 1024} KiB: a token is one short line`,
    );
  }
  if (output.code !== 0) {
    const stderr = tail(output.stderr);
    throw new OperationError(`${shown} failed with exit status ${output.code}${stderr ? `: ${stderr}` : ""}`);
  }
  const token = output.stdout.trim();
  if (!token) throw new OperationError(`${shown} printed no token`);
  if (/\s/.test(token)) throw new OperationError(`${shown} printed more than a token`);
  // A token goes into a header: anything but visible ASCII is a program gone wrong, and would not be sent.
  if (/[^\x21-\x7e]/.test(token)) {
    throw new OperationError(`${shown} printed characters a token cannot hold (control or non-ASCII)`);
  }
  return token;
}

/**
 * The rule of ExternalCommand: `admin.command` names the program that prints the token. The problem, or undefined;
 * the flow refuses to start with it, and `config validate` reports it.
 */
export function missingCommandProblem(command: readonly string[]): string | undefined {
  return command[0]
    ? undefined
    : "admin.authType ExternalCommand needs admin.command (the program that prints a token)";
}

/** The ExternalCommand token source. */
export function externalCommandSource(
  command: readonly string[],
  run: CommandRunner,
  limits: TokenCommandLimits,
): TokenSource {
  return {
    async fetch(): Promise<Token> {
      const missing = missingCommandProblem(command);
      if (missing) throw new UsageError(missing);
      return { accessToken: await runTokenCommand("admin.command", command, run, limits) };
    },
  };
}

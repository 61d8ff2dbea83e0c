/**
 * ExternalCommand: `admin.command` runs as an argument vector (no shell), and its trimmed standard output is
 * the token. The token carries no expiry: it is used until the admin rejects it.
 *
 * @module
 */
import { OperationError, quote, UsageError } from "../errors.ts";
import type { Token, TokenSource } from "./tokens.ts";

/** What running a program gives back. */
export interface CommandOutput {
  /** The exit status. */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program with arguments, no shell, stdin closed, and collects its output. Rejects only when it
 * cannot be started (e.g. `NotFound`).
 */
export type CommandRunner = (argv: readonly string[]) => Promise<CommandOutput>;

/** How much of a failed command's stderr an error shows. */
const STDERR_TAIL_CHARS = 400;

/** The last lines of `text`, at most {@link STDERR_TAIL_CHARS} characters, on one line. */
function tail(text: string): string {
  const oneLine = text.trim().split(/\r?\n/).map((line) => line.trim()).filter(Boolean).join(" | ");
  return oneLine.length > STDERR_TAIL_CHARS ? `…${oneLine.slice(-STDERR_TAIL_CHARS)}` : oneLine;
}

/**
 * Runs the token command of option `key` (`admin.command`, `admin.proxyCommand`) and resolves to its trimmed
 * output; a failure is one error naming the command, with the tail of its stderr.
 */
export async function runTokenCommand(key: string, command: readonly string[], run: CommandRunner): Promise<string> {
  const shown = quote(command.join(" "));
  let output: CommandOutput;
  try {
    output = await run(command);
  } catch (err) {
    const reason = err instanceof Error && err.name === "NotFound" ? "no such program" : String(err);
    throw new OperationError(`cannot run ${key} ${shown}: ${reason}`, { cause: err });
  }
  if (output.code !== 0) {
    const stderr = tail(output.stderr);
    throw new OperationError(`${key} ${shown} failed with exit status ${output.code}${stderr ? `: ${stderr}` : ""}`);
  }
  const token = output.stdout.trim();
  if (!token) throw new OperationError(`${key} ${shown} printed no token`);
  if (/\s/.test(token)) throw new OperationError(`${key} ${shown} printed more than a token`);
  return token;
}

/** The ExternalCommand token source. */
export function externalCommandSource(command: readonly string[], run: CommandRunner): TokenSource {
  return {
    async fetch(): Promise<Token> {
      if (command.length === 0 || !command[0]) {
        throw new UsageError("admin.authType ExternalCommand needs admin.command: the program that prints a token");
      }
      return { accessToken: await runTokenCommand("admin.command", command, run) };
    },
  };
}

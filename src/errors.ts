/**
 * Typed errors. Every error fctl reports to a user is an {@link FctlError}: its message is
 * one line that names the bad value, and its `exitCode` is the process exit status that
 * `main.ts` uses. Nothing below `main.ts` exits the process.
 *
 * @module
 */

/**
 * Documented process exit statuses.
 *
 * ```ts
 * import { ExitCode, FctlError } from "@fctl/fctl";
 *
 * function exitStatus(err: unknown): number {
 *   return err instanceof FctlError ? err.exitCode : ExitCode.Failed;
 * }
 * console.log(exitStatus(new Error("boom"))); // 1
 * ```
 */
export const ExitCode = {
  /** The command did what was asked. */
  Ok: 0,
  /** The operation failed (the admin service refused, an entity was not found, a file was bad). */
  Failed: 1,
  /** Bad usage or configuration: nothing was attempted. */
  Usage: 2,
  /** A wait gave up before what it waited for ended (`create execution --wait-timeout`), as `timeout` exits. */
  WaitTimeout: 124,
  /** Interrupted by Ctrl-C (SIGINT). */
  Interrupted: 130,
  /**
   * stdout's reader closed it before the end (`fctl get task | head`): the output stops there, quietly, with the
   * status a shell reports for a program that SIGPIPE ended (128 + 13).
   */
  OutputClosed: 141,
} as const;

/**
 * A value of {@link ExitCode}.
 *
 * ```ts
 * import { ExitCode } from "@fctl/fctl";
 *
 * const status: ExitCode = ExitCode.Usage;
 * console.log(status); // 2
 * ```
 */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode];

/**
 * Base class of every error meant for the user.
 *
 * ```ts
 * import { ExitCode, FctlError, getTask } from "@fctl/fctl";
 * import { createAdminClient } from "@fctl/fctl";
 *
 * const client = createAdminClient({ endpoint: "dns:///localhost:8089", insecure: true });
 * try {
 *   await getTask(client, { project: "flytesnacks", domain: "development", name: "hello", latest: true });
 * } catch (err) {
 *   if (!(err instanceof FctlError)) throw err;
 *   console.error(err.message); // one line naming the bad value
 *   if (err.exitCode === ExitCode.Usage) console.error("nothing was attempted");
 * } finally {
 *   client.close();
 * }
 * ```
 */
export class FctlError extends Error {
  /** Exit status for the process when this error ends a command. */
  readonly exitCode: ExitCode;
  /** An error that ends a command with `exitCode`. */
  constructor(message: string, exitCode: ExitCode, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/**
 * The command line or configuration is wrong; nothing was attempted (exit 2).
 *
 * ```ts
 * import { UsageError } from "@fctl/fctl";
 *
 * const limit = Number("ten");
 * if (!Number.isInteger(limit)) {
 *   const err = new UsageError(`limit "ten" is not a whole number`);
 *   console.log(err.exitCode); // 2
 * }
 * ```
 */
export class UsageError extends FctlError {
  /** A usage error; `message` names the bad value and what would be valid. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.Usage, options);
  }
}

/**
 * What an {@link InvalidOptionError} says about the option, for a caller that names it its own way (a flag).
 *
 * ```ts
 * import type { InvalidOption } from "@fctl/fctl";
 *
 * const detail: InvalidOption = { option: "limit", value: 0, expected: "a whole number of 1 or more" };
 * console.log(`--filter.${detail.option} ${detail.value}: expected ${detail.expected}`);
 * ```
 */
export interface InvalidOption {
  /** The library option (`limit`, `latest`). */
  option: string;
  /** The value refused. */
  value: unknown;
  /** What would be valid, e.g. `a whole number of 1 or more`, `a task name`. */
  expected: string;
}

/**
 * A library option has a value the operation cannot use (exit 2). The message names the option as the
 * library knows it; the CLI rewrites it for the flag the user typed, from {@link InvalidOptionError.detail}.
 *
 * ```ts
 * import { InvalidOptionError, runTaskQuery, taskQuery } from "@fctl/fctl";
 * import { createAdminClient } from "@fctl/fctl";
 *
 * const client = createAdminClient({ endpoint: "dns:///localhost:8089", insecure: true });
 * try {
 *   const query = taskQuery({ project: "flytesnacks", domain: "development", name: "hello", limit: 0 });
 *   await runTaskQuery(client, query);
 * } catch (err) {
 *   if (err instanceof InvalidOptionError) console.error(`bad ${err.detail.option}: ${err.detail.expected}`);
 * } finally {
 *   client.close();
 * }
 * ```
 */
export class InvalidOptionError extends UsageError {
  /** Which option, the refused value and what would be valid. */
  readonly detail: InvalidOption;
  /** A usage error about one option; `message` is the library's own wording. */
  constructor(message: string, detail: InvalidOption) {
    super(message);
    this.detail = detail;
  }
}

/**
 * A command or mode that this version does not provide yet (exit 2).
 *
 * ```ts
 * import { NotSupportedError } from "@fctl/fctl";
 *
 * const err = new NotSupportedError("register files from gs:// is not supported yet");
 * console.log(err.name, err.exitCode); // NotSupportedError 2
 * ```
 */
export class NotSupportedError extends FctlError {
  /** A not-supported error; `message` names what is missing. */
  constructor(message: string) {
    super(message, ExitCode.Usage);
  }
}

/**
 * An operation was attempted and failed (exit 1).
 *
 * ```ts
 * import { OperationError } from "@fctl/fctl";
 *
 * const err = new OperationError("package.tgz: not a gzip file", { cause: new Error("bad magic") });
 * console.log(err.exitCode); // 1
 * ```
 */
export class OperationError extends FctlError {
  /** A failure; `message` says what failed and why. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.Failed, options);
  }
}

/**
 * The user pressed Ctrl-C (exit 130).
 *
 * ```ts
 * import { InterruptedError } from "@fctl/fctl";
 *
 * const controller = new AbortController();
 * controller.abort(new InterruptedError("interrupted: 3 of 10 entities registered"));
 * console.log((controller.signal.reason as InterruptedError).exitCode); // 130
 * ```
 */
export class InterruptedError extends FctlError {
  /** An interruption; `message` may say what was left undone, `options.cause` what interrupted (the abort's reason). */
  constructor(message = "interrupted", options?: ErrorOptions) {
    super(message, ExitCode.Interrupted, options);
  }
}

/** Whether `err` says a file does not exist (Deno's `NotFound`, Node's `ENOENT`). */
export function isNotFound(err: unknown): boolean {
  return err instanceof Error && (err.name === "NotFound" || (err as { code?: unknown }).code === "ENOENT");
}

/**
 * Why a file operation failed, in a few words for an error line that names the file itself: Deno's message
 * without its `(os error N)` and the operation and path it adds (which may be a temp file's, a name the user
 * never gave), e.g. `permission denied`.
 */
export function fileErrorReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = message.replace(/\s*\(os error \d+\)(?::.*)?$/s, "").trim() || message;
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}

/** Quotes a user-supplied value for an error message. */
export function quote(value: unknown): string {
  return JSON.stringify(String(value));
}

/**
 * stdout's reader closed it before the end (exit 141): thrown by the process's stdout when a write finds the pipe
 * closed, and ended quietly by `runCli`, as SIGPIPE ends a Unix tool: what was written stands, nothing is said.
 */
export class OutputClosedError extends FctlError {
  /** The error of a write to a closed stdout. */
  constructor(options?: ErrorOptions) {
    super("stdout was closed by its reader", ExitCode.OutputClosed, options);
  }
}

/**
 * What the stow google and azure backends share around each call: a deadline from
 * `storage.defaultHttpClient.timeout` joined with the caller's signal, one-line failures that name the
 * reference and never a credential, and reading a whole object under `storage.limits.maxDownloadMBs`.
 *
 * @module
 */
import { FctlError, OperationError, quote } from "../errors.ts";

/** How one call is bounded and described. */
export interface CallContext {
  /** What the call does, for the error: `write`, `read`, `check`. */
  verb: string;
  /** The reference (or container reference) the call is about. */
  ref: string;
  /** The caller's signal: aborting it aborts the call and rejects with its reason. */
  signal?: AbortSignal;
  /** `storage.defaultHttpClient.timeout` in ms, 0 = none. */
  timeoutMs: number;
  /** Credential values that must never appear in a message (keys, JSON, tokens). */
  secrets: readonly string[];
}

/**
 * Runs `call` with a signal that aborts on the caller's signal or at the deadline, and settles as soon as that
 * signal aborts even if the SDK does not stop at once. A failure becomes an {@link OperationError} naming the
 * verb and the reference; an abort by the caller rejects with the caller's reason.
 */
export async function boundedCall<T>(context: CallContext, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  context.signal?.throwIfAborted();
  const deadline = context.timeoutMs > 0 ? AbortSignal.timeout(context.timeoutMs) : undefined;
  const signals = [context.signal, deadline].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([call(signal), aborted]);
  } catch (err) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (deadline?.aborted) {
      throw new OperationError(
        `cannot ${context.verb} ${quote(context.ref)}: no answer within ${
          formatDuration(context.timeoutMs)
        } (storage.defaultHttpClient.timeout)`,
      );
    }
    // Already one line for the user (an object over the limit, a refused reference).
    if (err instanceof FctlError) throw err;
    throw new OperationError(`cannot ${context.verb} ${quote(context.ref)}: ${describe(err, context.secrets)}`);
  } finally {
    signal.removeEventListener("abort", onAbort);
    // The race may have been lost by a call that still rejects later: nothing is waiting for it.
    aborted.catch(() => {});
  }
}

/** `1.5 s`, `250 ms`. */
function formatDuration(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * One line about `err`: its first line, with every secret replaced by `[redacted]` (an SDK may echo a key or a
 * token it was given back in a message; the cause chain is dropped for the same reason).
 */
export function describe(err: unknown, secrets: readonly string[]): string {
  const raw = err instanceof Error ? err.message : String(err);
  let line = raw.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "unknown error";
  for (const secret of secrets) {
    if (secret.length >= 4) line = line.split(secret).join("[redacted]");
  }
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

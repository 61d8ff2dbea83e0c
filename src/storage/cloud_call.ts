/**
 * What the stow google and azure backends share around each call: a deadline from
 * `storage.defaultHttpClient.timeout` joined with the caller's signal, the HTTP client's stall limits (their SDKs
 * make their own HTTP calls, which fctl's HTTP client does not time: without them a server that never answers hung
 * the command), one-line failures that name the reference and never a credential, and reading a whole object under
 * `storage.limits.maxDownloadMBs`.
 *
 * @module
 */
import { formatDuration as formatHttpLimit } from "../config/duration.ts";
import { FctlError, OperationError, quote } from "../errors.ts";
import { hideSignatures } from "../http/url_secrets.ts";
import { excerpt } from "../output/printable.ts";
import type { CallProgress, StreamIdle } from "./node_streams.ts";

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
  /**
   * `http.headersTimeout` in ms, 0 or absent = none: the longest wait for the service's answer, from the call's start
   * (connecting and signing in included) or, for a call that sends a body, from that body's end.
   */
  headersMs?: number;
  /** `http.idleTimeout` in ms, 0 or absent = none: the longest the SDK takes nothing of a body it sends. */
  idleMs?: number;
}

/**
 * Runs `call` with a signal that aborts on the caller's signal, at the deadline or when the call stalls (no answer
 * within `headersMs`, nothing of its body taken for `idleMs`: see {@link CallProgress}), and settles as soon as that
 * signal aborts even if the SDK does not stop at once. A failure becomes an {@link OperationError} naming the
 * verb and the reference (and, for a stall, the limit); an abort by the caller rejects with the caller's reason.
 */
export async function boundedCall<T>(
  context: CallContext,
  call: (signal: AbortSignal, progress: CallProgress) => Promise<T>,
): Promise<T> {
  context.signal?.throwIfAborted();
  const deadline = context.timeoutMs > 0 ? AbortSignal.timeout(context.timeoutMs) : undefined;
  const stall = new AbortController();
  const signals = [context.signal, deadline, stall.signal].filter((s): s is AbortSignal => s !== undefined);
  const signal = AbortSignal.any(signals);
  const headersMs = context.headersMs ?? 0;
  const idleMs = context.idleMs ?? 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number, what: string) => {
    clearTimeout(timer);
    timer = ms > 0
      ? setTimeout(() => stall.abort(new OperationError(`cannot ${context.verb} ${quote(context.ref)}: ${what}`)), ms)
      : undefined;
  };
  const awaitAnswer = (after: string) =>
    arm(headersMs, `no answer within ${formatHttpLimit(headersMs)}${after} (http.headersTimeout)`);
  const progress: CallProgress = {
    sending: () => arm(idleMs, `nothing of it sent for ${formatHttpLimit(idleMs)} (http.idleTimeout)`),
    sent: () => awaitAnswer(" after it was sent"),
  };
  awaitAnswer("");
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([call(signal, progress), aborted]);
  } catch (err) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (stall.signal.aborted) throw stall.signal.reason;
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
    clearTimeout(timer);
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
 * token it was given back in a message; the cause chain is dropped for the same reason), and a request's signature
 * (a SAS `sig`, `Signature=`) too; at most 300 characters, cut between words.
 */
export function describe(err: unknown, secrets: readonly string[]): string {
  const raw = err instanceof Error ? err.message : String(err);
  let line = raw.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "unknown error";
  for (const secret of secrets) {
    if (secret.length >= 4) line = line.split(secret).join("[redacted]");
  }
  // Cut between words: a credential the run's redactor hides whole (a token) must not be left cut at its start.
  return excerpt(hideSignatures(line), 300);
}

/** The stall limit of a streamed read of `ref` after its first bytes (`http.idleTimeout`, in ms; 0 or absent: none). */
export function streamIdle(ref: string, idleMs: number | undefined): StreamIdle {
  const ms = idleMs ?? 0;
  return {
    ms,
    error: () =>
      new OperationError(
        `cannot read ${quote(ref)}: no data for ${formatHttpLimit(ms)} in the middle of it (http.idleTimeout)`,
      ),
  };
}

/**
 * `waitForExecution`: polls an execution until its phase is terminal (SUCCEEDED, FAILED, ABORTED, TIMED_OUT), gently
 * enough for a shared admin service: at most one GetExecution a second, slowing to one every ten seconds after the
 * first minute, and the top-level node counts read at most every five seconds; never more than two calls (polls and
 * the counts' pages together) in any second. Ctrl-C (the signal) and the timeout end the wait, never the execution.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { AdminError, NotFoundError } from "../admin/errors.ts";
import { sleep as abortableSleep } from "../backoff.ts";
import { ExitCode, FctlError, InterruptedError, OperationError } from "../errors.ts";
import type { Execution } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import { NodeExecution_Phase, WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { formatDuration } from "../config/duration.ts";
import { type ExecutionName, getExecution } from "./get_execution.ts";

/** The wait between polls during the first minute. */
export const FIRST_POLL_INTERVAL_MS = 1_000;
/** The longest wait between polls, reached after the first minute. */
export const LAST_POLL_INTERVAL_MS = 10_000;
/** How long the polls stay at {@link FIRST_POLL_INTERVAL_MS}. */
const FAST_POLLING_MS = 60_000;
/** Least time between two readings of the node counts (each is a ListNodeExecutions call). */
const NODE_COUNT_INTERVAL_MS = 5_000;
/** Nodes read per ListNodeExecutions page, and the pages read per count (the count stops there). */
const NODE_PAGE = 100;
const NODE_PAGES = 3;

/** The nodes FlyteAdmin adds to every workflow, which run nothing and are not counted. */
const BOOKEND_NODES = new Set(["start-node", "end-node"]);
/** Least time between two GetExecution calls, even when the timeout cuts a wait short: at most two a second. */
const MIN_POLL_GAP_MS = 500;
/** At most two calls (GetExecution and the node counts' pages together) in any window of this long. */
const CALL_WINDOW_MS = 1_000;

const TERMINAL = new Set([
  WorkflowExecution_Phase.SUCCEEDED,
  WorkflowExecution_Phase.FAILED,
  WorkflowExecution_Phase.ABORTED,
  WorkflowExecution_Phase.TIMED_OUT,
]);
const NODE_RUNNING = new Set([
  NodeExecution_Phase.RUNNING,
  NodeExecution_Phase.DYNAMIC_RUNNING,
  NodeExecution_Phase.FAILING,
]);
const NODE_FINISHED = new Set([
  NodeExecution_Phase.SUCCEEDED,
  NodeExecution_Phase.FAILED,
  NodeExecution_Phase.ABORTED,
  NodeExecution_Phase.SKIPPED,
  NodeExecution_Phase.TIMED_OUT,
  NodeExecution_Phase.RECOVERED,
]);

/**
 * Where a waited-for execution is, as {@link WaitOptions.onUpdate} is told after each poll.
 *
 * ```ts
 * import type { ExecutionProgress } from "@fctl/fctl";
 *
 * const show = (p: ExecutionProgress) => `${p.phase}: ${p.running} running, ${p.finished} finished`;
 * console.log(show({ phase: "RUNNING", running: 1, finished: 2, elapsedMs: 3000, execution: {} as never }));
 * ```
 */
export interface ExecutionProgress {
  /** The execution as last read. */
  execution: Execution;
  /** Its phase's name (`QUEUED`, `RUNNING`, `SUCCEEDED`, …). */
  phase: string;
  /** Top-level nodes running, as last counted (0 before the first count). */
  running: number;
  /** Top-level nodes finished (succeeded, failed, aborted, skipped, timed out, recovered), as last counted. */
  finished: number;
  /** Milliseconds since the wait began. */
  elapsedMs: number;
}

/**
 * How {@link waitForExecution} waits.
 *
 * ```ts
 * import type { WaitOptions } from "@fctl/fctl";
 *
 * const options: WaitOptions = { timeoutMs: 30 * 60_000, onUpdate: (p) => console.error(p.phase) };
 * console.log(options.timeoutMs);
 * ```
 */
export interface WaitOptions {
  /** Ends the wait (not the execution) with an {@link InterruptedError}. */
  signal?: AbortSignal;
  /** Ends the wait with a {@link WaitTimeoutError} once this many milliseconds have passed; default no limit. */
  timeoutMs?: number;
  /** Called after every poll. */
  onUpdate?: (progress: ExecutionProgress) => void;
  /** Waits between polls; injectable for tests (default a timer that the signal cancels). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock in milliseconds; injectable for tests (default `performance.now`). */
  now?: () => number;
}

/**
 * The wait for an execution ran out of time (exit 124, as `timeout` exits); the execution goes on.
 *
 * ```ts
 * import { WaitTimeoutError } from "@fctl/fctl";
 *
 * const err = new WaitTimeoutError("gave up waiting for execution abc after 10m0s");
 * console.log(err.exitCode); // 124
 * ```
 */
export class WaitTimeoutError extends FctlError {
  /** A timed-out wait; `message` names the execution and how long the wait was. */
  constructor(message: string) {
    super(message, ExitCode.WaitTimeout);
  }
}

/** The command that ends an execution, for messages saying it goes on. */
function terminateHint(id: ExecutionName): string {
  return `fctl delete execution ${id.name} -p ${id.project} -d ${id.domain}`;
}

/** The wait before the next poll, `elapsedMs` into the wait: 1 s for a minute, then growing 1.5 times to 10 s. */
export function pollInterval(elapsedMs: number, previousMs: number): number {
  if (elapsedMs < FAST_POLLING_MS) return FIRST_POLL_INTERVAL_MS;
  return Math.min(LAST_POLL_INTERVAL_MS, Math.max(FIRST_POLL_INTERVAL_MS, Math.round(previousMs * 1.5)));
}

/** The phase's name, as flyteidl spells it. */
function phaseName(execution: Execution): string {
  return WorkflowExecution_Phase[execution.closure?.phase ?? WorkflowExecution_Phase.UNDEFINED] ?? "UNDEFINED";
}

/**
 * Keeps a wait's calls at two a second at most, whatever makes them: each call starts once the call two before it is
 * {@link CALL_WINDOW_MS} old, so that no window of that length holds three.
 */
function callPacer(now: () => number, sleep: (ms: number, signal?: AbortSignal) => Promise<void>) {
  /** When the last two calls started, oldest first. */
  const starts: number[] = [];
  /** How long from now the next call must wait. */
  const due = () => starts.length < 2 ? 0 : Math.max(0, starts[0] + CALL_WINDOW_MS - now());
  return {
    due,
    /** Waits until the next call may start, and counts it as started. */
    async next(signal: AbortSignal | undefined): Promise<void> {
      const ms = due();
      if (ms > 0) await sleep(ms, signal);
      starts.push(now());
      if (starts.length > 2) starts.shift();
    },
  };
}

/** Running and finished top-level nodes, from up to {@link NODE_PAGES} pages, each call paced. */
async function countNodes(
  client: AdminClient,
  id: ExecutionName,
  signal: AbortSignal | undefined,
  pacer: ReturnType<typeof callPacer>,
): Promise<{ running: number; finished: number }> {
  let running = 0;
  let finished = 0;
  let token = "";
  for (let page = 0; page < NODE_PAGES; page++) {
    await pacer.next(signal);
    const response = await client.admin.listNodeExecutions(
      { workflowExecutionId: id, limit: NODE_PAGE, token },
      { signal },
    );
    for (const node of response.nodeExecutions) {
      if (BOOKEND_NODES.has(node.id?.nodeId ?? "")) continue;
      const phase = node.closure?.phase ?? NodeExecution_Phase.UNDEFINED;
      if (NODE_RUNNING.has(phase)) running++;
      else if (NODE_FINISHED.has(phase)) finished++;
    }
    token = response.token;
    if (!token) break;
  }
  return { running, finished };
}

/**
 * Polls the execution until its phase is SUCCEEDED, FAILED, ABORTED or TIMED_OUT and returns it as then read (a
 * failure is returned, not thrown: {@link executionFailure} turns it into an error).
 *
 * ```ts
 * import { connect, executionFailure, waitForExecution } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const id = { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" };
 * const execution = await waitForExecution(flyte.client, id, {
 *   timeoutMs: 30 * 60_000,
 *   onUpdate: (p) => console.error(`${p.phase}: ${p.running} running, ${p.finished} finished`),
 * });
 * const failure = executionFailure(execution);
 * if (failure) console.error(failure.message);
 * ```
 *
 * @throws {InterruptedError} the signal aborted: the message says the execution goes on and how to terminate it;
 *   its `cause` is the signal's reason
 * @throws {WaitTimeoutError} `timeoutMs` passed first (the execution goes on)
 * @throws {NotFoundError} no such execution
 * @throws {AdminError} a poll the admin refused otherwise, or that could not be made: the message says the wait
 *   stopped and the execution goes on, then why
 */
export async function waitForExecution(
  client: AdminClient,
  id: ExecutionName,
  options: WaitOptions = {},
): Promise<Execution> {
  const { signal, timeoutMs, onUpdate } = options;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? (() => performance.now());
  const start = now();
  let interval = FIRST_POLL_INTERVAL_MS;
  let counts = { running: 0, finished: 0 };
  let countedAt = -Infinity;
  const pacer = callPacer(now, sleep);
  try {
    for (;;) {
      await pacer.next(signal);
      const execution = await getExecution(client, id, signal);
      const phase = execution.closure?.phase ?? WorkflowExecution_Phase.UNDEFINED;
      const terminal = TERMINAL.has(phase);
      // Counted while it runs, and once more at its end so that the last update shows every node finished.
      if (phase !== WorkflowExecution_Phase.QUEUED && (terminal || now() - countedAt >= NODE_COUNT_INTERVAL_MS)) {
        countedAt = now();
        counts = await countNodes(client, id, signal, pacer);
      }
      const elapsedMs = now() - start;
      onUpdate?.({ execution, phase: phaseName(execution), ...counts, elapsedMs });
      if (terminal) return execution;
      if (timeoutMs !== undefined && elapsedMs >= timeoutMs) {
        throw new WaitTimeoutError(
          `gave up waiting for execution ${id.name} after ${formatDuration(timeoutMs)} (it is ${
            phaseName(execution)
          }); it goes on: terminate it with ${terminateHint(id)}`,
        );
      }
      interval = pollInterval(elapsedMs, interval);
      const wait = timeoutMs === undefined ? interval : Math.max(0, Math.min(interval, timeoutMs - elapsedMs));
      // A wait cut short by the timeout (for a last poll at the deadline) still keeps the calls two a second at most:
      // half a second after the last poll, a second after one that came with a count.
      await sleep(Math.max(wait, MIN_POLL_GAP_MS, pacer.due()), signal);
    }
  } catch (err) {
    if (signal?.aborted) {
      throw new InterruptedError(
        `interrupted: stopped waiting; execution ${id.name} goes on: terminate it with ${terminateHint(id)}`,
        { cause: signal.reason },
      );
    }
    // A poll that failed ends the wait, not the execution: the line says so, then why, with the same status. An
    // execution that is not there (a name never created) is said as it is.
    if (err instanceof AdminError && !(err instanceof NotFoundError)) {
      const message = `stopped waiting for execution ${id.name}, which goes on ` +
        `(fctl get execution ${id.name} -p ${id.project} -d ${id.domain} shows it): ${err.message}`;
      throw new AdminError(err.status, err.rpc, err.serverMessage, message, { cause: err });
    }
    throw err;
  }
}

/**
 * The error of an execution that ended without succeeding (exit 1), with its error's message or abort cause;
 * undefined when it succeeded.
 *
 * ```ts
 * import { executionFailure } from "@fctl/fctl";
 * import type { Execution } from "@fctl/fctl/types";
 *
 * const done = { id: { name: "abc" }, closure: { phase: 4 } } as Execution; // SUCCEEDED
 * console.log(executionFailure(done)); // undefined
 * ```
 */
export function executionFailure(execution: Execution): OperationError | undefined {
  const phase = execution.closure?.phase ?? WorkflowExecution_Phase.UNDEFINED;
  if (phase === WorkflowExecution_Phase.SUCCEEDED) return undefined;
  const result = execution.closure?.outputResult;
  const reason = result?.case === "error"
    ? result.value.message
    : result?.case === "abortMetadata"
    ? result.value.cause
    : result?.case === "abortCause"
    ? result.value
    : "";
  const name = execution.id?.name ?? "";
  const oneLine = reason.trim().replace(/\s*\n\s*/g, " ");
  return new OperationError(`execution ${name} ${phaseName(execution)}${oneLine ? `: ${oneLine}` : ""}`);
}

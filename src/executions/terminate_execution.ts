/**
 * `terminateExecution`: aborts one running execution (TerminateExecution) with a cause, saying plainly why the
 * admin refused: an execution that has already finished, or one that does not exist.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { AdminError, NotFoundError } from "../admin/errors.ts";
import { quote } from "../errors.ts";
import { type ExecutionName, missingExecution } from "./get_execution.ts";

/**
 * The cause recorded when none is given (the admin shows it as the execution's abort cause).
 *
 * ```ts
 * import { DEFAULT_TERMINATE_CAUSE } from "@fctl/fctl";
 *
 * console.log(DEFAULT_TERMINATE_CAUSE); // "terminated by fctl"
 * ```
 */
export const DEFAULT_TERMINATE_CAUSE = "terminated by fctl";

/**
 * Terminates one execution: it goes ABORTING, then ABORTED, with `cause` as its abort cause.
 *
 * ```ts
 * import { connect, terminateExecution } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * await terminateExecution(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" }, {
 *   cause: "started with the wrong inputs",
 * });
 * ```
 *
 * @throws {NotFoundError} no such execution, the message naming it, its project and domain
 * @throws {AdminError} `FailedPrecondition` when it has already finished (the message says so), or any other refusal
 */
export async function terminateExecution(
  client: AdminClient,
  id: ExecutionName,
  options: { cause?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const cause = options.cause ?? DEFAULT_TERMINATE_CAUSE;
  try {
    await client.admin.terminateExecution({ id, cause }, { signal: options.signal });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new NotFoundError(err.rpc, err.serverMessage, missingExecution(id), { cause: err });
    }
    if (err instanceof AdminError && err.status === "FailedPrecondition") {
      const message = `execution ${quote(id.name)} has already finished: only a running execution can be ` +
        `terminated (the admin said: ${err.serverMessage})`;
      throw new AdminError(err.status, err.rpc, err.serverMessage, message, { cause: err });
    }
    throw err;
  }
}

/** The admin's refusals of one execution (missing, finished, not allowed): the others can still be terminated. */
const REFUSALS: ReadonlySet<string> = new Set([
  "NotFound",
  "FailedPrecondition",
  "InvalidArgument",
  "PermissionDenied",
]);

/** Whether `err` is the admin refusing this one execution rather than a failure every other call would share too. */
export function isExecutionRefusal(err: unknown): err is AdminError {
  return err instanceof AdminError && REFUSALS.has(err.status);
}

/**
 * `updateExecutionState`: archives or activates one execution (UpdateExecution); an archived execution is left
 * out of the admin's default listings.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { NotFoundError } from "../admin/errors.ts";
import { ExecutionState } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import { type ExecutionName, missingExecution } from "./get_execution.ts";

/**
 * Sets one execution's state: `EXECUTION_ARCHIVED` or `EXECUTION_ACTIVE`.
 *
 * ```ts
 * import { connect, updateExecutionState } from "@fctl/fctl";
 * import { ExecutionState } from "@fctl/fctl/types";
 *
 * await using flyte = await connect();
 * const id = { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" };
 * await updateExecutionState(flyte.client, id, ExecutionState.EXECUTION_ARCHIVED);
 * ```
 *
 * @throws {NotFoundError} no such execution, the message naming it, its project and domain
 * @throws {AdminError} any other refusal, or a call that could not be made
 */
export async function updateExecutionState(
  client: AdminClient,
  id: ExecutionName,
  state: ExecutionState,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await client.admin.updateExecution({ id, state }, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new NotFoundError(err.rpc, err.serverMessage, missingExecution(id), { cause: err });
    }
    throw err;
  }
}

/** An execution state as its name (`EXECUTION_ACTIVE`, `EXECUTION_ARCHIVED`). */
export function executionStateName(state: ExecutionState | undefined): string {
  return ExecutionState[state ?? ExecutionState.EXECUTION_ACTIVE] ?? String(state);
}

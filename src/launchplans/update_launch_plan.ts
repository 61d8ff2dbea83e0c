/**
 * `updateLaunchPlanState`: activates or deactivates one launch plan version (UpdateLaunchPlan). Activating one
 * version deactivates the launch plan's other versions: only one version's schedule runs at a time
 * (`activeLaunchPlanVersion` says which one that is).
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { NotFoundError } from "../admin/errors.ts";
import { quote } from "../errors.ts";
import { type LaunchPlan, LaunchPlanState } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

/**
 * One launch plan version.
 *
 * ```ts
 * import type { LaunchPlanVersion } from "@fctl/fctl";
 *
 * const id: LaunchPlanVersion = { project: "flytesnacks", domain: "development", name: "core.basic.wf", version: "v1" };
 * console.log(id.version);
 * ```
 */
export interface LaunchPlanVersion {
  /** Project of the launch plan. */
  project: string;
  /** Domain of the launch plan. */
  domain: string;
  /** The launch plan's name. */
  name: string;
  /** The version. */
  version: string;
}

function fullId(id: LaunchPlanVersion) {
  return { resourceType: ResourceType.LAUNCH_PLAN, ...id };
}

function missing(id: LaunchPlanVersion, err: NotFoundError): NotFoundError {
  const message = `launch plan ${quote(id.name)} version ${quote(id.version)} not found in project ` +
    `${quote(id.project)}, domain ${quote(id.domain)}`;
  return new NotFoundError(err.rpc, err.serverMessage, message, { cause: err });
}

/**
 * Reads one launch plan version (GetLaunchPlan), its state in `closure.state`.
 *
 * ```ts
 * import { connect, readLaunchPlanVersion } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const id = { project: "flytesnacks", domain: "development", name: "core.basic.wf", version: "v1" };
 * console.log((await readLaunchPlanVersion(flyte.client, id)).closure?.state);
 * ```
 *
 * @throws {NotFoundError} no such version, the message naming it, its project and domain
 */
export async function readLaunchPlanVersion(
  client: AdminClient,
  id: LaunchPlanVersion,
  signal?: AbortSignal,
): Promise<LaunchPlan> {
  try {
    return await client.admin.getLaunchPlan({ id: fullId(id) }, { signal });
  } catch (err) {
    throw err instanceof NotFoundError ? missing(id, err) : err;
  }
}

/**
 * Sets one launch plan version ACTIVE or INACTIVE (UpdateLaunchPlan).
 *
 * ```ts
 * import { connect, updateLaunchPlanState } from "@fctl/fctl";
 * import { LaunchPlanState } from "@fctl/fctl/types";
 *
 * await using flyte = await connect();
 * const id = { project: "flytesnacks", domain: "development", name: "core.basic.wf", version: "v2" };
 * await updateLaunchPlanState(flyte.client, id, LaunchPlanState.ACTIVE);
 * ```
 *
 * @throws {NotFoundError} no such version, the message naming it, its project and domain
 * @throws {AdminError} any other refusal, or a call that could not be made
 */
export async function updateLaunchPlanState(
  client: AdminClient,
  id: LaunchPlanVersion,
  state: LaunchPlanState,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await client.admin.updateLaunchPlan({ id: fullId(id), state }, { signal });
  } catch (err) {
    throw err instanceof NotFoundError ? missing(id, err) : err;
  }
}

/**
 * The version of a launch plan that is active now (GetActiveLaunchPlan), or undefined when none is: the one that
 * activating another version deactivates.
 *
 * @throws {AdminError} a refusal other than there being no active version, or a call that could not be made
 */
export async function activeLaunchPlanVersion(
  client: AdminClient,
  id: Omit<LaunchPlanVersion, "version">,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    const { project, domain, name } = id;
    const active = await client.admin.getActiveLaunchPlan({ id: { project, domain, name } }, { signal });
    return active.id?.version;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** A launch plan state as its name (`ACTIVE`, `INACTIVE`). */
export function launchPlanStateName(state: LaunchPlanState | undefined): string {
  return LaunchPlanState[state ?? LaunchPlanState.INACTIVE] ?? String(state);
}

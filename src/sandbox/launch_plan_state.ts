/**
 * UpdateLaunchPlan as FlyteAdmin's launch plan manager serves it: INACTIVE checks the identifier (a launch plan's,
 * every field present) before deactivating that version; ACTIVE activates the version and deactivates the one that
 * was active; any other state is refused, naming it and the identifier.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { LaunchPlanState, type LaunchPlanUpdateRequest } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { identifierText, requireFullId, requireIdOf } from "./identifiers.ts";
import type { SandboxStore } from "./store.ts";

/** Sets a launch plan version's state as UpdateLaunchPlan does, or throws FlyteAdmin's refusal. */
export function updateLaunchPlanState(store: SandboxStore, request: LaunchPlanUpdateRequest): void {
  switch (request.state) {
    case LaunchPlanState.INACTIVE:
      store.setLaunchPlanState(requireIdOf("launch plan", request.id), LaunchPlanState.INACTIVE);
      return;
    case LaunchPlanState.ACTIVE:
      store.setLaunchPlanState(requireFullId(request.id), LaunchPlanState.ACTIVE);
      return;
    default:
      throw new ConnectError(
        `Unrecognized launch plan state ${request.state} for update for launch plan ` +
          `[${request.id ? identifierText(request.id) : ""}]`,
        Code.InvalidArgument,
      );
  }
}

/**
 * UpdateLaunchPlan as FlyteAdmin's launch plan manager serves it: INACTIVE checks the identifier (a launch plan's,
 * every field present) before deactivating that version; ACTIVE looks the version up as given (NOT_FOUND for one
 * with a field missing), activates it and deactivates the one that was active; any other state is refused, naming
 * it and the identifier.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { LaunchPlanState, type LaunchPlanUpdateRequest } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { create } from "@bufbuild/protobuf";
import { IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { identifierText, requireIdOf } from "./identifiers.ts";
import type { SandboxStore } from "./store.ts";

/** Sets a launch plan version's state as UpdateLaunchPlan does, or throws FlyteAdmin's refusal. */
export function updateLaunchPlanState(store: SandboxStore, request: LaunchPlanUpdateRequest): void {
  switch (request.state) {
    case LaunchPlanState.INACTIVE:
      store.setLaunchPlanState(requireIdOf("launch plan", request.id), LaunchPlanState.INACTIVE);
      return;
    case LaunchPlanState.ACTIVE:
      // FlyteAdmin validates the identifier only to log it, then looks the version up: an identifier with a field
      // missing is NOT_FOUND, as a version that does not exist.
      store.setLaunchPlanState(request.id ?? create(IdentifierSchema), LaunchPlanState.ACTIVE);
      return;
    default:
      throw new ConnectError(
        `Unrecognized launch plan state ${request.state} for update for launch plan ` +
          `[${request.id ? identifierText(request.id) : ""}]`,
        Code.InvalidArgument,
      );
  }
}

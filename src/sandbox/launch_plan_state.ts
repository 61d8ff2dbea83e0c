/**
 * A launch plan's state as FlyteAdmin's launch plan manager serves it. UpdateLaunchPlan: INACTIVE checks the
 * identifier (a launch plan's, every field present) before deactivating that version; ACTIVE looks the version up as
 * FlyteAdmin's database does (an identifier with a field missing finds the oldest version matching the rest),
 * activates it and deactivates the one that was active; any other state is refused, naming it and the identifier.
 * ListActiveLaunchPlans: the ACTIVE versions of a project and domain, paged.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type ActiveLaunchPlanListRequest,
  type LaunchPlan,
  LaunchPlanState,
  type LaunchPlanUpdateRequest,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { create } from "@bufbuild/protobuf";
import { type Identifier, IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { goText } from "./go_text.ts";
import { identifierText, requireIdOf } from "./identifiers.ts";
import { pageOf, parseOffsetToken, requireLimit, sortComparator } from "./execution_filters.ts";
import { LAUNCH_PLAN_VERSIONS, listedLaunchPlans } from "./launch_plan_filters.ts";
import { invalidArgument } from "./shared_validation.ts";
import type { SandboxStore } from "./store.ts";

/** Sets a launch plan version's state as UpdateLaunchPlan does, or throws FlyteAdmin's refusal. */
export function updateLaunchPlanState(store: SandboxStore, request: LaunchPlanUpdateRequest): void {
  switch (request.state) {
    case LaunchPlanState.INACTIVE:
      store.setLaunchPlanState(requireIdOf("launch plan", request.id), LaunchPlanState.INACTIVE);
      return;
    case LaunchPlanState.ACTIVE:
      store.setLaunchPlanState(versionToActivate(store, request.id), LaunchPlanState.ACTIVE);
      return;
    default:
      throw new ConnectError(
        `Unrecognized launch plan state ${request.state} for update for launch plan ` +
          `[${request.id ? identifierText(request.id) : ""}]`,
        Code.InvalidArgument,
      );
  }
}

/**
 * The version ACTIVE applies to: FlyteAdmin validates the identifier only to log it, then looks the version up with
 * gorm's Where on a struct, which drops empty fields, so an identifier with a field missing finds the oldest version
 * matching the rest; NOT_FOUND (naming the fields given, as Go prints them) when none does.
 */
function versionToActivate(store: SandboxStore, id: Identifier | undefined): Identifier {
  const wanted = {
    project: id?.project ?? "",
    domain: id?.domain ?? "",
    name: id?.name ?? "",
    version: id?.version ?? "",
  };
  const fields = ["project", "domain", "name", "version"] as const;
  if (fields.every((field) => wanted[field] !== "")) return create(IdentifierSchema, wanted);
  const found = store.launchPlanEntries().find(({ message }) =>
    fields.every((field) => wanted[field] === "" || message.id?.[field] === wanted[field])
  );
  if (!found) {
    const shown = goText(IdentifierSchema, create(IdentifierSchema, wanted));
    throw new ConnectError(`missing entity of type LAUNCH_PLAN with identifier ${shown}`, Code.NotFound);
  }
  return found.message.id!;
}

/**
 * ListActiveLaunchPlans as FlyteAdmin's launch plan manager serves it: project, domain and a limit required, then the
 * sort key and the token checked; the ACTIVE versions of the project and domain (those whose workflow is stored: the
 * listing joins it), in the order asked for, else as stored, a page at a time.
 */
export function listActiveLaunchPlans(
  store: SandboxStore,
  request: ActiveLaunchPlanListRequest,
): { launchPlans: LaunchPlan[]; token: string } {
  if (request.project === "") throw invalidArgument("missing project");
  if (request.domain === "") throw invalidArgument("missing domain");
  requireLimit(request.limit);
  const compare = sortComparator(request.sortBy, LAUNCH_PLAN_VERSIONS);
  const offset = parseOffsetToken(request.token, "ListActiveLaunchPlans");
  const rows = listedLaunchPlans(store.launchPlanEntries(), store.workflowEntries()).filter(({ entry }) =>
    entry.project === request.project && entry.domain === request.domain &&
    entry.message.closure?.state === LaunchPlanState.ACTIVE
  );
  if (compare) rows.sort(compare);
  const page = pageOf(rows, offset, request.limit);
  return { launchPlans: page.items.map((row) => row.entry.message), token: page.token };
}

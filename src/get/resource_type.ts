/**
 * flyteidl's `ResourceType` values, for readers whose calls answer into rows. Importing the enum from flyteidl's
 * generated `identifier_pb.ts` evaluates that file, which builds its descriptors: a table that reads rows would
 * build them for one number. `resource_type_test.ts` checks every value against flyteidl's enum.
 *
 * @module
 */
import type { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

/** `ResourceType.TASK`, `.WORKFLOW` and `.LAUNCH_PLAN`, typed as flyteidl's enum members. */
export const RESOURCE_TYPE = {
  TASK: 1 as ResourceType.TASK,
  WORKFLOW: 2 as ResourceType.WORKFLOW,
  LAUNCH_PLAN: 3 as ResourceType.LAUNCH_PLAN,
} as const;

/**
 * The identifier an entity is registered under, for the rows of a report: a module of its own so that the
 * rows' module (`entries.ts`), which a registration loads before its package is decoded, does not load
 * `classify.ts` and with it the registration messages' generated descriptors.
 *
 * @module
 */
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { RegistrationEntity } from "./classify.ts";

/** The identifier an entity is registered under (before hydration it may hold placeholders). */
export function entityId(entity: RegistrationEntity): Identifier | undefined {
  switch (entity.kind) {
    case "task":
      return entity.spec.template?.id;
    case "workflow":
      return entity.spec.template?.id;
    case "launchPlan":
      return entity.spec.id;
  }
}

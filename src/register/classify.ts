/**
 * Decoding the entity files of a serialized Flyte package (what each member is, by its name alone, is
 * `member_role.ts`, which loads no descriptors).
 *
 * pyflyte names files `<index>_<entity name>_<kind>.pb` with kind 1 = TaskSpec, 2 = WorkflowSpec,
 * 3 = LaunchPlan. The suffix only says which message to try first: protobuf decoding is lenient
 * (one message's bytes often decode "successfully" as another), so a decoded message is accepted
 * only if its identifier is present and has the resource type that message kind carries.
 *
 * @module
 */
import { fromBinary } from "@bufbuild/protobuf";
import {
  type RegistrationLaunchPlan,
  RegistrationLaunchPlanSchema,
  type RegistrationTaskSpec,
  RegistrationTaskSpecSchema,
  type RegistrationWorkflowSpec,
  RegistrationWorkflowSpecSchema,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import { type Identifier, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { OperationError, quote } from "../errors.ts";
import { type EntityKind, memberRole } from "./member_role.ts";

/**
 * A decoded entity file. `name` is the file's name as the user knows it (archive-relative). The spec holds the
 * fields registration reads or fills in; the others are kept as they came (proto/client/fctl/registration/).
 */
export type RegistrationEntity =
  | { kind: "task"; name: string; spec: RegistrationTaskSpec }
  | { kind: "workflow"; name: string; spec: RegistrationWorkflowSpec }
  | { kind: "launchPlan"; name: string; spec: RegistrationLaunchPlan };

interface Decoder {
  kind: EntityKind;
  message: string;
  decode(name: string, bytes: Uint8Array): RegistrationEntity;
}

const DECODERS: readonly Decoder[] = [
  {
    kind: "task",
    message: "TaskSpec",
    decode(name, bytes) {
      const spec = fromBinary(RegistrationTaskSpecSchema, bytes);
      requireId(spec.template?.id, ResourceType.TASK, "template.id");
      return { kind: "task", name, spec };
    },
  },
  {
    kind: "workflow",
    message: "WorkflowSpec",
    decode(name, bytes) {
      const spec = fromBinary(RegistrationWorkflowSpecSchema, bytes);
      requireId(spec.template?.id, ResourceType.WORKFLOW, "template.id");
      return { kind: "workflow", name, spec };
    },
  },
  {
    kind: "launchPlan",
    message: "LaunchPlan",
    decode(name, bytes) {
      const spec = fromBinary(RegistrationLaunchPlanSchema, bytes);
      requireId(spec.id, ResourceType.LAUNCH_PLAN, "id");
      if (spec.spec === undefined) throw new Error("it has no spec");
      return { kind: "launchPlan", name, spec };
    },
  },
];

function requireId(id: Identifier | undefined, type: ResourceType, field: string): void {
  if (id === undefined) throw new Error(`it has no ${field}`);
  if (id.name === "") throw new Error(`its ${field} has no name`);
  if (id.resourceType !== type && id.resourceType !== ResourceType.UNSPECIFIED) {
    throw new Error(`its ${field} is a ${ResourceType[id.resourceType]} identifier`);
  }
}

/**
 * Decodes an entity file, trying the message its suffix names first, then the others.
 *
 * @param name the member's name, used for the suffix and in messages
 * @throws {OperationError} naming the file and why each message kind did not fit
 */
export function decodeEntity(name: string, bytes: Uint8Array): RegistrationEntity {
  const role = memberRole(name);
  const expected = role.role === "entity" ? role.expected : undefined;
  const order = [...DECODERS].sort((a, b) => Number(b.kind === expected) - Number(a.kind === expected));
  const reasons: string[] = [];
  for (const decoder of order) {
    try {
      return decoder.decode(name, bytes);
    } catch (err) {
      reasons.push(`not a ${decoder.message}: ${(err as Error).message}`);
    }
  }
  throw new OperationError(`cannot decode ${quote(name)}: ${reasons.join("; ")}`);
}

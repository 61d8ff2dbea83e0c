/**
 * The RPCs of one entity: its create, the schedule check before a scheduled launch plan, and its
 * activation after (`--enableSchedule`).
 *
 * @module
 */
import { create as createMessage, type DescMessage, toBinary } from "@bufbuild/protobuf";
import {
  type RegistrationLaunchPlanCreateRequest,
  RegistrationLaunchPlanCreateRequestSchema,
  type RegistrationTaskCreateRequest,
  RegistrationTaskCreateRequestSchema,
  type RegistrationWorkflowCreateRequest,
  RegistrationWorkflowCreateRequestSchema,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import { type AdminClient, loadRegistrationMethods } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import type { RegistrationEntity } from "./classify.ts";
import { entityId } from "./entity_id.ts";
import { entryFor, INFO, type RegisterEntry } from "./entries.ts";
import { hasSchedule, missingScheduledInputs, missingScheduledInputsMessage } from "./schedule_check.ts";

/**
 * flyteidl.admin.LaunchPlanState.ACTIVE: the enum's number, so that activating a launch plan loads no launch plan
 * descriptor beyond the update call's own (entities_test.ts checks it against flyteidl's enum).
 */
export const LAUNCH_PLAN_ACTIVE = 1;

/** gRPC statuses after which no further create can succeed: stop instead of failing every file. */
const FATAL_STATUSES = new Set(["Unavailable", "Unauthenticated", "PermissionDenied", "Canceled", "DeadlineExceeded"]);

/** How to create one entity. */
export interface CreateOptions {
  /** Activate launch plans that have a schedule once they exist. */
  enableSchedule?: boolean;
}

/** An entity's create request, by the entity's kind. */
type CreateRequest =
  | { kind: "task"; message: RegistrationTaskCreateRequest }
  | { kind: "workflow"; message: RegistrationWorkflowCreateRequest }
  | { kind: "launchPlan"; message: RegistrationLaunchPlanCreateRequest };

/**
 * The clients an entity's RPCs go through: its create through `registration` (the entity as registration
 * decoded it, every field it did not read sent back as it came), the schedule check and activation of a
 * launch plan through `admin`.
 */
export type EntityClients = Pick<AdminClient, "admin" | "registration">;

/** The create request of an entity, by its kind. */
function createRequest(entity: RegistrationEntity): CreateRequest {
  const id = entityId(entity);
  switch (entity.kind) {
    case "task":
      return { kind: "task", message: createMessage(RegistrationTaskCreateRequestSchema, { id, spec: entity.spec }) };
    case "workflow":
      return {
        kind: "workflow",
        message: createMessage(RegistrationWorkflowCreateRequestSchema, { id, spec: entity.spec }),
      };
    case "launchPlan":
      return {
        kind: "launchPlan",
        message: createMessage(RegistrationLaunchPlanCreateRequestSchema, { id, spec: entity.spec.spec }),
      };
  }
}

/** The schema of each kind's create request. */
const REQUEST_SCHEMAS: Record<CreateRequest["kind"], DescMessage> = {
  task: RegistrationTaskCreateRequestSchema,
  workflow: RegistrationWorkflowCreateRequestSchema,
  launchPlan: RegistrationLaunchPlanCreateRequestSchema,
};

/**
 * What the first create of each kind would set up on its way out, done now, for a registration waiting on the
 * network anyway (for its upload location): the create call's service descriptors are loaded, and the create
 * request of the first entity of each kind is built and encoded, then dropped (protobuf-es compiles a message
 * type's encoder on its first use, and the creates share those encoders). Each round of creates then starts
 * without that set-up.
 */
export function prepareCreates(entities: readonly RegistrationEntity[]): void {
  const firsts = new Map<RegistrationEntity["kind"], RegistrationEntity>();
  for (const entity of entities) if (!firsts.has(entity.kind)) firsts.set(entity.kind, entity);
  // Loading first: the modules are read while the requests are encoded.
  void loadRegistrationMethods();
  for (const entity of firsts.values()) {
    try {
      const { kind, message } = createRequest(entity);
      toBinary(REQUEST_SCHEMAS[kind], message);
    } catch {
      // Whatever fails here fails again in the entity's create, which reports it as that file's failure.
    }
  }
}

/**
 * Creates one entity. The admin's refusal becomes a `Failed` entry and `ALREADY_EXISTS` a success;
 * statuses that mean no create can succeed (unreachable, unauthenticated, …) are thrown.
 *
 * No abort signal on purpose: on Ctrl-C calls already sent are allowed to finish, so the report
 * says truthfully what was registered.
 */
export async function createEntity(
  clients: EntityClients,
  entity: RegistrationEntity,
  options: CreateOptions,
): Promise<RegisterEntry> {
  try {
    const existed = await create(clients, createRequest(entity));
    let info: string = existed ? INFO.alreadyExists : INFO.registered;
    if (entity.kind === "launchPlan" && options.enableSchedule && hasSchedule(entity.spec.spec)) {
      // Also after AlreadyExists: re-running with --enableSchedule should leave the schedule on.
      await clients.admin.updateLaunchPlan({ id: entityId(entity), state: LAUNCH_PLAN_ACTIVE });
      info = `${info}; ${INFO.activated}`;
    }
    return entryFor(entity, "Success", info);
  } catch (err) {
    if (err instanceof ScheduleError) return entryFor(entity, "Failed", `Error registering file due to ${err.message}`);
    if (!(err instanceof AdminError) || FATAL_STATUSES.has(err.status)) throw err;
    return entryFor(entity, "Failed", `Error registering file due to ${err.serverMessage}`);
  }
}

class ScheduleError extends Error {}

/** Sends the create; resolves to whether an identical entity already existed. */
async function create({ admin, registration }: EntityClients, request: CreateRequest): Promise<boolean> {
  try {
    switch (request.kind) {
      case "task":
        await registration.createTask(request.message);
        break;
      case "workflow":
        await registration.createWorkflow(request.message);
        break;
      case "launchPlan": {
        const spec = request.message.spec;
        if (spec && hasSchedule(spec)) {
          const workflow = await admin.getWorkflow({ id: spec.workflowId });
          const missing = missingScheduledInputs(spec, workflow);
          if (missing.length > 0) throw new ScheduleError(missingScheduledInputsMessage(missing));
        }
        await registration.createLaunchPlan(request.message);
        break;
      }
    }
    return false;
  } catch (err) {
    if (err instanceof AdminError && err.status === "AlreadyExists" && err.rpc.startsWith("Create")) return true;
    throw err;
  }
}

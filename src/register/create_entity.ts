/**
 * The RPCs of one entity: its create, the schedule check before a scheduled launch plan, and its
 * activation after (`--enableSchedule`).
 *
 * @module
 */
import { create as createMessage, type DescMessage, toBinary } from "@bufbuild/protobuf";
import {
  type LaunchPlanCreateRequest,
  LaunchPlanCreateRequestSchema,
  LaunchPlanState,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { type TaskCreateRequest, TaskCreateRequestSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { type WorkflowCreateRequest, WorkflowCreateRequestSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { type AdminServiceClient, loadAdminMethods } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import type { RegistrationEntity } from "./classify.ts";
import { entityId } from "./entity_id.ts";
import { entryFor, INFO, type RegisterEntry } from "./entries.ts";
import { hasSchedule, missingScheduledInputs, missingScheduledInputsMessage } from "./schedule_check.ts";

/** gRPC statuses after which no further create can succeed: stop instead of failing every file. */
const FATAL_STATUSES = new Set(["Unavailable", "Unauthenticated", "PermissionDenied", "Canceled", "DeadlineExceeded"]);

/** How to create one entity. */
export interface CreateOptions {
  /** Activate launch plans that have a schedule once they exist. */
  enableSchedule?: boolean;
}

/** An entity's create request, by the entity's kind. */
type CreateRequest =
  | { kind: "task"; message: TaskCreateRequest }
  | { kind: "workflow"; message: WorkflowCreateRequest }
  | { kind: "launchPlan"; message: LaunchPlanCreateRequest };

/** The create request of an entity, by its kind. */
function createRequest(entity: RegistrationEntity): CreateRequest {
  const id = entityId(entity);
  switch (entity.kind) {
    case "task":
      return { kind: "task", message: createMessage(TaskCreateRequestSchema, { id, spec: entity.spec }) };
    case "workflow":
      return { kind: "workflow", message: createMessage(WorkflowCreateRequestSchema, { id, spec: entity.spec }) };
    case "launchPlan":
      return {
        kind: "launchPlan",
        message: createMessage(LaunchPlanCreateRequestSchema, { id, spec: entity.spec.spec }),
      };
  }
}

/** The schema of each kind's create request. */
const REQUEST_SCHEMAS: Record<CreateRequest["kind"], DescMessage> = {
  task: TaskCreateRequestSchema,
  workflow: WorkflowCreateRequestSchema,
  launchPlan: LaunchPlanCreateRequestSchema,
};

/** The RPC that creates each kind. */
const CREATE_METHODS = { task: "createTask", workflow: "createWorkflow", launchPlan: "createLaunchPlan" } as const;

/**
 * What the first create of each kind would set up on its way out, done now, for a registration waiting on the
 * network anyway (for its upload location): the create call's service descriptors are loaded, and the create
 * request of the first entity of each kind is built and encoded, then dropped (protobuf-es compiles a message
 * type's encoder on its first use, a few ms for a task's with the many messages a task spec holds, and the
 * creates share those encoders). Each round of creates then starts without that set-up.
 */
export function prepareCreates(entities: readonly RegistrationEntity[]): void {
  const firsts = new Map<RegistrationEntity["kind"], RegistrationEntity>();
  for (const entity of entities) if (!firsts.has(entity.kind)) firsts.set(entity.kind, entity);
  // Loading first: the modules are read while the requests are encoded.
  void loadAdminMethods([...firsts.keys()].map((kind) => CREATE_METHODS[kind]));
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
  admin: AdminServiceClient,
  entity: RegistrationEntity,
  options: CreateOptions,
): Promise<RegisterEntry> {
  try {
    const existed = await create(admin, createRequest(entity));
    let info: string = existed ? INFO.alreadyExists : INFO.registered;
    if (entity.kind === "launchPlan" && options.enableSchedule && hasSchedule(entity.spec.spec)) {
      // Also after AlreadyExists: re-running with --enableSchedule should leave the schedule on.
      await admin.updateLaunchPlan({ id: entityId(entity), state: LaunchPlanState.ACTIVE });
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
async function create(admin: AdminServiceClient, request: CreateRequest): Promise<boolean> {
  try {
    switch (request.kind) {
      case "task":
        await admin.createTask(request.message);
        break;
      case "workflow":
        await admin.createWorkflow(request.message);
        break;
      case "launchPlan": {
        const spec = request.message.spec;
        if (spec && hasSchedule(spec)) {
          const workflow = await admin.getWorkflow({ id: spec.workflowId });
          const missing = missingScheduledInputs(spec, workflow);
          if (missing.length > 0) throw new ScheduleError(missingScheduledInputsMessage(missing));
        }
        await admin.createLaunchPlan(request.message);
        break;
      }
    }
    return false;
  } catch (err) {
    if (err instanceof AdminError && err.status === "AlreadyExists" && err.rpc.startsWith("Create")) return true;
    throw err;
  }
}

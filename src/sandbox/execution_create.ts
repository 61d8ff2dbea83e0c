/**
 * What CreateExecution checks and resolves before an execution exists, in FlyteAdmin's order: the request
 * (project, domain, name format and length, the project ACTIVE and the domain known, spec, the launch entity's
 * identifier and type), then the launch plan
 * (or, for a task, the workflow `.flytegen.<task>` and launch plan FlyteAdmin creates for it on first use), then
 * the inputs against the launch plan.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type ExecutionCreateRequest,
  ExecutionCreateRequestSchema,
  type ExecutionSpec,
} from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import { goText } from "./go_text.ts";
import type { LaunchPlan, LaunchPlanCreateRequest } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Workflow, WorkflowCreateRequest } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { type Identifier, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type LiteralMap, LiteralMapSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { checkAndFetchInputs, expectedInputs } from "./execution_inputs.ts";
import { validateLabels } from "./labels.ts";
import { invalidArgument as invalid, validateLiteralMap, validateNotifications } from "./shared_validation.ts";
import { markSystemGenerated } from "./named_entity_metadata.ts";
import { kubernetesRandomString } from "./random_string.ts";
import type { ProjectTable } from "./projects.ts";
import type { MessageInit } from "../admin/message_init.ts";

/** The longest execution name: a Kubernetes label value. */
const MAX_NAME_LENGTH = 63;
const NAME_PATTERN = /^[a-z][a-z\-0-9]*$/;
const TASK_RETRIES_DEFAULT = 3;

function missing(field: string): ConnectError {
  return invalid(`missing ${field}`);
}

/** A request FlyteAdmin accepts: its launch entity resolved and its inputs complete. */
export interface ResolvedLaunch {
  launchEntity: "launch_plan" | "task";
  launchPlan: LaunchPlan;
  workflow: Workflow;
  /** The task, for a single-task execution. */
  task?: Task;
  /** The inputs the execution runs with: the user's, defaults and fixed inputs. */
  inputs: LiteralMap;
  /** The inputs the user gave, which relaunches reuse. */
  userInputs: LiteralMap;
}

/**
 * What creating an execution needs of the sandbox's store (a `SandboxStore` is one): the entities a request
 * names, and where a task run alone gets the workflow and launch plan FlyteAdmin makes for it.
 *
 * ```ts
 * import { type LaunchableStore, SandboxStore } from "@fctl/fctl/testing";
 *
 * const store: LaunchableStore = new SandboxStore();
 * console.log(typeof store.getLaunchPlan); // "function"
 * ```
 */
export interface LaunchableStore {
  /** The stored task of `id`, or NOT_FOUND. */
  getTask(id: Identifier): Task;
  /** The stored workflow of `id`, or NOT_FOUND. */
  getWorkflow(id: Identifier): Workflow;
  /** The stored launch plan of `id`, or NOT_FOUND. */
  getLaunchPlan(id: Identifier): LaunchPlan;
  /** Stores a workflow as CreateWorkflow does. */
  addWorkflow(init: MessageInit<WorkflowCreateRequest>): Workflow;
  /** Stores a launch plan as CreateLaunchPlan does. */
  addLaunchPlan(init: MessageInit<LaunchPlanCreateRequest>): LaunchPlan;
}

/** Checks the request as FlyteAdmin's execution validator does; the project and domain against `projects`. */
export function validateCreateRequest(request: ExecutionCreateRequest, projects: ProjectTable): void {
  if (request.project === "") throw missing("project");
  if (request.domain === "") throw missing("domain");
  // Go's len counts bytes of UTF-8; its ToLower can change that count (a Kelvin sign is one byte lowercased).
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  if (request.name !== "") {
    const name = request.name.toLowerCase();
    if (bytes(name) > MAX_NAME_LENGTH) {
      throw invalid(`size of name exceeded length ${MAX_NAME_LENGTH} : ${name}`);
    }
    if (!NAME_PATTERN.test(name)) {
      throw invalid(`invalid name format: ${name}, does not match regex '^[a-z][a-z\\-0-9]*$'`);
    }
  }
  if (bytes(request.name) > MAX_NAME_LENGTH) {
    // The name's check passed lowercased, which made it shorter: FlyteAdmin then refuses it printing the request.
    throw invalid(
      `name for ExecutionCreateRequest [${
        goText(ExecutionCreateRequestSchema, request)
      }] exceeded allowed length ${MAX_NAME_LENGTH}`,
    );
  }
  projects.requireProjectAndDomain(request.project, request.domain);
  if (!request.spec) throw missing("spec");
  const entity = request.spec.launchPlan;
  if (!entity) throw missing("id");
  for (const field of ["project", "domain", "name", "version"] as const) {
    if (entity[field] === "") throw missing(field);
  }
  if (entity.resourceType !== ResourceType.LAUNCH_PLAN && entity.resourceType !== ResourceType.TASK) {
    throw invalid(
      `Invalid reference entity resource type [${
        ResourceType[entity.resourceType]
      }], only [map[LAUNCH_PLAN:<nil> TASK:<nil>]] allowed`,
    );
  }
  validateLiteralMap(request.inputs?.literals ?? {}, "inputs");
  const overrides = request.spec.notificationOverrides;
  if (overrides.case === "notifications") validateNotifications(overrides.value.notifications);
  validateLabels(request.spec.labels?.values ?? {});
}

/** Resolves the launch plan (synthesizing one for a task) and the inputs; throws FlyteAdmin's errors. */
export function resolveLaunch(store: LaunchableStore, request: ExecutionCreateRequest): ResolvedLaunch {
  const entity = request.spec!.launchPlan!;
  const userInputs = request.inputs ?? create(LiteralMapSchema);
  if (entity.resourceType === ResourceType.TASK) {
    const task = store.getTask(entity);
    const workflow = taskWorkflow(store, entity, task);
    const launchPlan = taskLaunchPlan(store, entity, request.spec!);
    const interfaceInputs = workflow.closure?.compiledWorkflow?.primary?.template?.interface?.inputs;
    const expected = expectedInputs(launchPlan.spec!, interfaceInputs);
    const inputs = checkAndFetchInputs(userInputs, launchPlan.spec?.fixedInputs, expected);
    return { launchEntity: "task", launchPlan, workflow, task, inputs, userInputs };
  }
  const launchPlan = store.getLaunchPlan(entity);
  const workflow = store.getWorkflow(launchPlan.spec!.workflowId!);
  const interfaceInputs = workflow.closure?.compiledWorkflow?.primary?.template?.interface?.inputs;
  const inputs = checkAndFetchInputs(
    userInputs,
    launchPlan.spec?.fixedInputs,
    expectedInputs(launchPlan.spec!, interfaceInputs),
  );
  return { launchEntity: "launch_plan", launchPlan, workflow, inputs, userInputs };
}

/** FlyteAdmin's name for the workflow and launch plan it makes to run a task. */
export function taskWorkflowName(taskName: string): string {
  return `.flytegen.${taskName}`;
}

/** A node id from a task name: its last 63 characters, letters, digits and dashes only. */
function nodeNameFromTask(taskName: string): string {
  const tail = taskName.length >= MAX_NAME_LENGTH ? taskName.slice(taskName.length - MAX_NAME_LENGTH) : taskName;
  return [...tail].filter((ch) => ch === "-" || /[\p{L}\p{N}]/u.test(ch)).join("");
}

function isNotFound(err: unknown): boolean {
  return err instanceof ConnectError && err.code === Code.NotFound;
}

/** The skeleton workflow FlyteAdmin creates (once per task version) to run a single task, its name SYSTEM_GENERATED. */
function taskWorkflow(store: LaunchableStore, taskId: Identifier, task: Task): Workflow {
  const id = { ...taskId, resourceType: ResourceType.WORKFLOW, name: taskWorkflowName(taskId.name) };
  try {
    return store.getWorkflow(id);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const template = task.closure?.compiledTask?.template;
  const nodeId = nodeNameFromTask(taskId.name);
  const binding = (variable: string, promiseNode: string) => ({
    var: variable,
    binding: { value: { case: "promise" as const, value: { nodeId: promiseNode, var: variable } } },
  });
  const workflow = store.addWorkflow({
    id,
    spec: {
      template: {
        id,
        interface: template?.interface,
        nodes: [{
          id: nodeId,
          metadata: { name: nodeId, retries: template?.metadata?.retries ?? { retries: TASK_RETRIES_DEFAULT } },
          inputs: Object.keys(template?.interface?.inputs?.variables ?? {}).map((name) => binding(name, "")),
          target: { case: "taskNode", value: { reference: { case: "referenceId", value: taskId } } },
        }],
        outputs: Object.keys(template?.interface?.outputs?.variables ?? {}).map((name) => binding(name, nodeId)),
      },
    },
  });
  markSystemGenerated(store, ResourceType.WORKFLOW, id);
  return workflow;
}

/**
 * The launch plan FlyteAdmin creates (once per task version) beside the skeleton workflow, with the auth role and
 * security context of the execution that made it (later executions of the task fall back to them); its name
 * SYSTEM_GENERATED.
 */
function taskLaunchPlan(store: LaunchableStore, taskId: Identifier, spec: ExecutionSpec): LaunchPlan {
  const name = taskWorkflowName(taskId.name);
  const id = { ...taskId, resourceType: ResourceType.LAUNCH_PLAN, name };
  try {
    return store.getLaunchPlan(id);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const launchPlan = store.addLaunchPlan({
    id,
    spec: {
      workflowId: { ...taskId, resourceType: ResourceType.WORKFLOW, name },
      entityMetadata: {},
      defaultInputs: {},
      fixedInputs: {},
      labels: {},
      annotations: {},
      authRole: spec.authRole,
      securityContext: spec.securityContext,
    },
  });
  markSystemGenerated(store, ResourceType.LAUNCH_PLAN, id);
  return launchPlan;
}

/** A generated execution name as FlyteAdmin makes them: `a` and 19 characters Kubernetes uses in random names. */
export function generateExecutionName(): string {
  return `a${kubernetesRandomString(19)}`;
}

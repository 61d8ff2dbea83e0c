/**
 * The sandbox's in-memory entities: projects, tasks, workflows and launch plans with FlyteAdmin's create rules.
 * Seeding through these methods follows the same rules as the RPCs, so tests cannot build impossible states:
 * an entity goes into an ACTIVE project (a fresh store has the demo cluster's `flytesnacks`; others are made with
 * {@link SandboxStore.addProject}, as RegisterProject makes them) and one of the system's domains.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { MessageInit } from "../admin/message_init.ts";
import { Code, ConnectError } from "@connectrpc/connect";
import type { NamedEntityIdentifier } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import {
  type LaunchPlan,
  LaunchPlanClosureSchema,
  type LaunchPlanCreateRequest,
  LaunchPlanCreateRequestSchema,
  LaunchPlanSchema,
  type LaunchPlanSpec,
  LaunchPlanSpecSchema,
  LaunchPlanState,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import {
  type Task,
  type TaskCreateRequest,
  TaskCreateRequestSchema,
  TaskSchema,
  type TaskSpec,
  TaskSpecSchema,
} from "../../proto/gen/flyteidl/admin/task_pb.ts";
import {
  type Workflow,
  type WorkflowCreateRequest,
  WorkflowCreateRequestSchema,
  WorkflowSchema,
  type WorkflowSpec,
  WorkflowSpecSchema,
} from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Project, type ProjectRegisterRequest, ProjectSchema } from "../../proto/gen/flyteidl/admin/project_pb.ts";
import { EntityTable, type Entry } from "./entity_table.ts";
import { compileWorkflow, DEFAULT_MAX_WORKFLOW_NODES } from "./compile.ts";
import { SandboxExecutions } from "./executions.ts";
import { requireIdOf } from "./identifiers.ts";
import { ProjectTable } from "./projects.ts";
import { expectedInputs } from "./execution_inputs.ts";
import { validateLaunchPlanSpec } from "./launch_plan_validation.ts";
import { validateTaskSpec } from "./task_validation.ts";
import { compileTask } from "./task_compile.ts";
import { validateWorkflowSpec } from "./workflow_validation.ts";
import { ParameterMapSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { createMonotonicClock, timestampFromNs } from "./time.ts";

/**
 * What CreateTask accepts (a message or a plain init object).
 *
 * ```ts
 * import { SandboxStore, type TaskInit } from "@fctl/fctl/testing";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const init: TaskInit = {
 *   id: { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: "hello", version: "v1" },
 *   spec: {
 *     template: {
 *       type: "python-task",
 *       metadata: { runtime: { version: "1.16.1" } },
 *       interface: {},
 *       target: { case: "container", value: { image: "python:3.12" } },
 *     },
 *   },
 * };
 * const task = new SandboxStore().addTask(init);
 * console.log(task.closure?.compiledTask?.template?.type); // python-task
 * ```
 */
export type TaskInit = MessageInit<TaskCreateRequest>;
/**
 * What CreateWorkflow accepts.
 *
 * ```ts
 * import { SandboxStore, type WorkflowInit } from "@fctl/fctl/testing";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const id = { project: "flytesnacks", domain: "development", version: "v1" };
 * // One node that only sleeps: it needs no task (a workflow without nodes does not compile).
 * const nap = { id: "n0", target: { case: "gateNode", value: { condition: { case: "sleep", value: {} } } } } as const;
 * const init: WorkflowInit = {
 *   id: { ...id, resourceType: ResourceType.WORKFLOW, name: "nap_wf" },
 *   spec: { template: { id: { ...id, resourceType: ResourceType.WORKFLOW, name: "nap_wf" }, nodes: [nap] } },
 * };
 * console.log(new SandboxStore().addWorkflow(init).id?.name); // nap_wf
 * ```
 */
export type WorkflowInit = MessageInit<WorkflowCreateRequest>;
/**
 * What CreateLaunchPlan accepts.
 *
 * ```ts
 * import { type LaunchPlanInit, SandboxStore } from "@fctl/fctl/testing";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const store = new SandboxStore();
 * const workflowId = {
 *   resourceType: ResourceType.WORKFLOW,
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: "wf",
 *   version: "v1",
 * };
 * const nap = { id: "n0", target: { case: "gateNode", value: { condition: { case: "sleep", value: {} } } } } as const;
 * store.addWorkflow({ id: workflowId, spec: { template: { id: workflowId, nodes: [nap] } } });
 * const init: LaunchPlanInit = { id: { ...workflowId, resourceType: ResourceType.LAUNCH_PLAN }, spec: { workflowId } };
 * console.log(store.addLaunchPlan(init).closure?.state); // 0 (INACTIVE)
 * ```
 */
export type LaunchPlanInit = MessageInit<LaunchPlanCreateRequest>;
/**
 * What RegisterProject accepts as its project: an id (a DNS-1123 label) and a name, optionally a description,
 * labels and a state.
 *
 * ```ts
 * import { type ProjectInit, SandboxStore } from "@fctl/fctl/testing";
 *
 * const init: ProjectInit = { id: "ml", name: "Machine learning", description: "models" };
 * console.log(new SandboxStore().addProject(init).domains.map((domain) => domain.id));
 * // [ "development", "staging", "production" ]
 * ```
 */
export type ProjectInit = MessageInit<NonNullable<ProjectRegisterRequest["project"]>>;

/**
 * A stored task version.
 *
 * ```ts
 * import { startSandbox, type TaskEntry } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * // … register tasks against sandbox.endpoint …
 * const newest: TaskEntry | undefined = sandbox.store.taskEntries().at(-1);
 * console.log(newest?.spec.template?.id?.version);
 * await sandbox.close();
 * ```
 */
export type TaskEntry = Entry<Task, TaskSpec>;
/**
 * A stored workflow version.
 *
 * ```ts
 * import { startSandbox, type WorkflowEntry } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const workflows: WorkflowEntry[] = sandbox.store.workflowEntries();
 * console.log(workflows.map((entry) => entry.message.closure?.compiledWorkflow?.primary?.template?.nodes.length));
 * await sandbox.close();
 * ```
 */
export type WorkflowEntry = Entry<Workflow, WorkflowSpec>;
/**
 * A stored launch plan version.
 *
 * ```ts
 * import { type LaunchPlanEntry, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const launchPlans: LaunchPlanEntry[] = sandbox.store.launchPlanEntries();
 * console.log(launchPlans.map((entry) => `${entry.name}: ${entry.message.closure?.state}`));
 * await sandbox.close();
 * ```
 */
export type LaunchPlanEntry = Entry<LaunchPlan, LaunchPlanSpec>;

function requireSpec<T>(spec: T | undefined): T {
  if (!spec) throw new ConnectError("missing spec", Code.InvalidArgument);
  return spec;
}

/**
 * In-memory FlyteAdmin entities.
 *
 * ```ts
 * import { SandboxStore } from "@fctl/fctl/testing";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const store = new SandboxStore(() => new Date("2026-01-01T00:00:00Z"));
 * const id = { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: "hello", version: "v1" };
 * const template = { type: "python-task", metadata: { runtime: { version: "1.16.1" } }, interface: {} };
 * const task = store.addTask({ id, spec: { template } });
 * console.log(store.getTask(task.id!).closure?.createdAt?.seconds); // 1767225600n
 * store.clear();
 * ```
 */
export class SandboxStore {
  readonly #clock: () => bigint;
  readonly #now: () => Date;
  /** The newest time the clock gave a creation or an update (projects included). */
  #newestNs = -1n;
  readonly #tasks = new EntityTable<Task, TaskSpec>("task", TaskSpecSchema);
  readonly #workflows = new EntityTable<Workflow, WorkflowSpec>("workflow", WorkflowSpecSchema);
  readonly #launchPlans = new EntityTable<LaunchPlan, LaunchPlanSpec>("launch plan", LaunchPlanSpecSchema);
  /** The projects (the demo cluster's seed to start with), which the project RPCs serve and every create checks. */
  readonly projects: ProjectTable;
  /** Executions of these entities, running on the same clock; see {@link SandboxExecutions}. */
  readonly executions: SandboxExecutions;

  /** `now` is read once per created entity; ties get later times so creation order is always visible. */
  constructor(now: () => Date = () => new Date()) {
    const clock = createMonotonicClock(now);
    this.#clock = () => this.#made(clock());
    this.#now = now;
    // Projects keep their own ties, as their own table's; a filter's `now` is still never before what they made.
    const projectClock = createMonotonicClock(now);
    this.projects = new ProjectTable(() => this.#made(projectClock()), () => this.nowNs());
    this.executions = new SandboxExecutions(this, now);
  }

  /**
   * The sandbox's clock now, in nanoseconds: the moment a list filter's time words (`now`, `today`, …) mean, as
   * FlyteAdmin's database reads them on its own clock. Never before the newest creation: creations in the same
   * millisecond get later times (see `createMonotonicClock`), and Postgres's `now` is after what was committed.
   */
  nowNs(): bigint {
    const now = BigInt(this.#now().getTime()) * 1_000_000n;
    return now > this.#newestNs ? now : this.#newestNs;
  }

  /** Notes `ns`, a time the clock gave a creation or an update, and returns it. */
  #made(ns: bigint): bigint {
    if (ns > this.#newestNs) this.#newestNs = ns;
    return ns;
  }

  /** Creates a project, as RegisterProject does (ALREADY_EXISTS for a known id), and returns it as GetProject would. */
  addProject(init: ProjectInit): Project {
    const project = create(ProjectSchema, init);
    this.projects.register(project);
    return this.projects.get(project.id);
  }

  /** Creates a task version, as CreateTask does: its spec checked as FlyteAdmin checks it (task_validation.ts). */
  addTask(init: TaskInit): Task {
    const request = create(TaskCreateRequestSchema, init);
    const id = requireIdOf("task", request.id);
    this.projects.requireProjectAndDomain(id.project, id.domain);
    const spec = validateTaskSpec(request.spec);
    // The template is stored under the request's identifier, whatever identifier it carries, as FlyteAdmin does.
    spec.template.id = id;
    compileTask(spec.template);
    this.#tasks.assertNew(id, spec);
    const createdNs = this.#clock();
    const task = create(TaskSchema, {
      id,
      shortDescription: spec.description?.shortDescription ?? "",
      closure: { compiledTask: { template: spec.template }, createdAt: timestampFromNs(createdNs) },
    });
    return this.#tasks.insert(id, spec, createdNs, task).message;
  }

  /**
   * FlyteAdmin's `registration.maxWorkflowNodes`: the most nodes a registered workflow may have (start and end not
   * counted); 0 for no limit. FlyteAdmin's default, which the demo cluster keeps and the sandbox starts with.
   */
  maxWorkflowNodes: number = DEFAULT_MAX_WORKFLOW_NODES;

  /** Creates a workflow version, as CreateWorkflow does: it must compile (compile.ts), then be new. */
  addWorkflow(init: WorkflowInit): Workflow {
    const request = create(WorkflowCreateRequestSchema, init);
    const id = requireIdOf("workflow", request.id);
    this.projects.requireProjectAndDomain(id.project, id.domain);
    const spec = validateWorkflowSpec(request.spec);
    // The template is stored under the request's identifier, whatever identifier it carries, as FlyteAdmin does.
    spec.template.id = id;
    const compiled = compileWorkflow(spec, {
      task: (ref) => this.#tasks.find(ref)?.message,
      launchPlan: (ref) => this.#launchPlans.find(ref)?.message,
    }, { maxWorkflowNodes: this.maxWorkflowNodes });
    // FlyteAdmin compares with an existing version only once the workflow compiles.
    this.#workflows.assertNew(id, spec);
    const createdNs = this.#clock();
    const workflow = create(WorkflowSchema, {
      id,
      shortDescription: spec.description?.shortDescription ?? "",
      closure: { compiledWorkflow: compiled, createdAt: timestampFromNs(createdNs) },
    });
    return this.#workflows.insert(id, spec, createdNs, workflow).message;
  }

  /** Creates a launch plan version (INACTIVE), as CreateLaunchPlan does; its workflow must exist. */
  addLaunchPlan(init: LaunchPlanInit): LaunchPlan {
    const request = create(LaunchPlanCreateRequestSchema, init);
    // FlyteAdmin checks the workflow's identifier and looks the workflow up before it validates the launch plan.
    const workflow = this.#workflows.get(requireIdOf("workflow", request.spec?.workflowId)).message;
    const id = requireIdOf("launch plan", request.id);
    this.projects.requireProjectAndDomain(id.project, id.domain);
    const spec = requireSpec(request.spec);
    // FlyteAdmin's ValidateLaunchPlan checks the spec against the workflow's inputs (launch_plan_validation.ts) and
    // stores the default inputs augmented with every workflow input neither defaulted nor fixed, as required; its
    // closure's expected inputs are the same. Done before the ALREADY_EXISTS comparison, which FlyteAdmin makes on what
    // it would store.
    const workflowInputs = workflow.closure?.compiledWorkflow?.primary?.template?.interface?.inputs;
    const expected = expectedInputs(spec, workflowInputs);
    validateLaunchPlanSpec(spec, workflowInputs, expected);
    spec.defaultInputs = create(ParameterMapSchema, { parameters: expected });
    this.#launchPlans.assertNew(id, spec);
    const createdNs = this.#clock();
    const createdAt = timestampFromNs(createdNs);
    const launchPlan = create(LaunchPlanSchema, {
      id,
      spec,
      closure: {
        state: LaunchPlanState.INACTIVE,
        expectedInputs: spec.defaultInputs,
        expectedOutputs: workflow.closure?.compiledWorkflow?.primary?.template?.interface?.outputs,
        createdAt,
        updatedAt: createdAt,
      },
    });
    return this.#launchPlans.insert(id, spec, createdNs, launchPlan).message;
  }

  /** A task version, or NOT_FOUND naming the id. */
  getTask(id: Identifier): Task {
    return this.#tasks.get(id).message;
  }

  /** A workflow version, or NOT_FOUND naming the id. */
  getWorkflow(id: Identifier): Workflow {
    return this.#workflows.get(id).message;
  }

  /** A launch plan version, or NOT_FOUND naming the id. */
  getLaunchPlan(id: Identifier): LaunchPlan {
    return this.#launchPlans.get(id).message;
  }

  /** Sets a launch plan's state; activating one version deactivates the other versions of that name. */
  setLaunchPlanState(id: Identifier, state: LaunchPlanState): LaunchPlan {
    const target = this.#launchPlans.get(id);
    const updatedAt = timestampFromNs(this.#clock());
    const setState = (entry: LaunchPlanEntry, value: LaunchPlanState) => {
      const closure = entry.message.closure ??= create(LaunchPlanClosureSchema);
      closure.state = value;
      closure.updatedAt = updatedAt;
    };
    if (state === LaunchPlanState.ACTIVE) {
      const others = this.#launchPlans.entries().filter((entry) =>
        entry !== target && entry.project === target.project && entry.domain === target.domain &&
        entry.name === target.name && entry.message.closure?.state === LaunchPlanState.ACTIVE
      );
      for (const other of others) setState(other, LaunchPlanState.INACTIVE);
    }
    setState(target, state);
    return target.message;
  }

  /**
   * The active version of a launch plan name, as GetActiveLaunchPlan answers: each part of the name required (a
   * missing id is a missing project), NOT_FOUND in FlyteAdmin's words when no version is active.
   */
  activeLaunchPlan(id: Pick<NamedEntityIdentifier, "project" | "domain" | "name"> | undefined): LaunchPlan {
    const name = { project: id?.project ?? "", domain: id?.domain ?? "", name: id?.name ?? "" };
    for (const field of ["project", "domain", "name"] as const) {
      if (name[field] === "") throw new ConnectError(`missing ${field}`, Code.InvalidArgument);
    }
    const active = this.#launchPlans.entries().find((entry) =>
      entry.project === name.project && entry.domain === name.domain && entry.name === name.name &&
      entry.message.closure?.state === LaunchPlanState.ACTIVE
    );
    if (!active) {
      throw new ConnectError(
        `No active launch plan could be found: ${name.project}:${name.domain}:${name.name}`,
        Code.NotFound,
      );
    }
    return active.message;
  }

  /** Stored task versions with their list columns, oldest first. */
  taskEntries(): TaskEntry[] {
    return this.#tasks.entries();
  }

  /** Stored workflow versions with their list columns, oldest first. */
  workflowEntries(): WorkflowEntry[] {
    return this.#workflows.entries();
  }

  /** Stored launch plan versions with their list columns, oldest first. */
  launchPlanEntries(): LaunchPlanEntry[] {
    return this.#launchPlans.entries();
  }

  /** Stored tasks, oldest first. */
  tasks(): Task[] {
    return this.taskEntries().map((entry) => entry.message);
  }

  /** Stored workflows, oldest first. */
  workflows(): Workflow[] {
    return this.workflowEntries().map((entry) => entry.message);
  }

  /** Stored launch plans, oldest first. */
  launchPlans(): LaunchPlan[] {
    return this.launchPlanEntries().map((entry) => entry.message);
  }

  /** Forgets every entity, execution and execution plan; projects stay. */
  clear(): void {
    this.#tasks.clear();
    this.#workflows.clear();
    this.#launchPlans.clear();
    this.executions.clear();
  }
}

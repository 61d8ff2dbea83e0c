/**
 * The sandbox's executions with FlyteAdmin's semantics: created from a launch plan or a task, relaunched,
 * recovered, listed (FlyteAdmin's filters, sort keys, tokens; only ACTIVE ones unless a filter names `state`; a
 * filter on `execution_tag` or `admin_tag` joins the tags, its labels and tags, one row per tag), terminated, given a
 * state (UpdateExecution stores any number, as FlyteAdmin does), and read with their data, node executions and task
 * executions. Each runs the simulated lifecycle of `execution_lifecycle.ts` on the sandbox's clock, as its
 * {@link ExecutionPlan} says.
 *
 * @module
 */
import { clone, create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Notification, ResourceListRequest } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { EventFailureReasonSchema } from "../../proto/gen/flyteidl/admin/event_pb.ts";
import {
  type Execution,
  type ExecutionClosureSchema,
  type ExecutionCreateRequest,
  ExecutionCreateRequestSchema,
  ExecutionMetadata_ExecutionMode,
  ExecutionMetadataSchema,
  type ExecutionRecoverRequest,
  type ExecutionRelaunchRequest,
  ExecutionSchema,
  type ExecutionSpec,
  ExecutionSpecSchema,
  ExecutionState,
  SystemMetadataSchema,
  type WorkflowExecutionGetDataResponse,
  WorkflowExecutionGetDataResponseSchema,
} from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import type {
  NodeExecution,
  NodeExecutionGetDataResponse,
  NodeExecutionListRequest,
} from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import { NodeExecutionGetDataResponseSchema } from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import {
  type TaskExecution,
  type TaskExecutionListRequest,
  TaskExecutionListRequestSchema,
} from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import {
  IdentifierSchema,
  NodeExecutionIdentifierSchema,
  ResourceType,
} from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type SecurityContext, SecurityContextSchema } from "../../proto/gen/flyteidl/core/security_pb.ts";
import {
  ConcurrencyLimitBehavior,
  type LaunchPlan,
  type LaunchPlanSpec,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type {
  Identifier,
  NodeExecutionIdentifier,
  TaskExecutionIdentifier,
  WorkflowExecutionIdentifier,
} from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type LiteralMap, LiteralMapSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { MessageInit } from "../admin/message_init.ts";
import { SANDBOX_BUCKET } from "./data_proxy.ts";
import { defaultLiterals } from "./default_literals.ts";
import {
  ADMIN_TAG_TABLE,
  EXECUTION_TABLE,
  EXECUTION_TAG_TABLE,
  executionJoin,
  type ExecutionRow,
  type ExecutionTagRow,
  LAUNCH_PLAN_TABLE,
  NODE_EXECUTION_TABLE,
  type NodeRow,
  TASK_EXECUTION_TABLE,
  TASK_TABLE,
  type TaskRow,
  WORKFLOW_TABLE,
} from "./execution_columns.ts";
import {
  generateExecutionName,
  type ResolvedLaunch,
  resolveLaunch,
  validateCreateRequest,
} from "./execution_create.ts";
import {
  type FilterSchema,
  matchesFilters,
  pageOf,
  parseOffsetToken,
  parseRequestFilters,
  requireLimit,
  sortComparator,
} from "./execution_filters.ts";
import {
  executionPhaseAt,
  type ExecutionPlan,
  executionSpan,
  isTerminal,
  type PhaseAt,
  type ResolvedPlan,
  resolvePlan,
  type SimPhase,
  type Span,
  type Termination,
} from "./execution_lifecycle.ts";
import {
  layoutNodes,
  nodeExecutionMessage,
  nodeOutputs,
  nodePhaseAt,
  planError,
  type PlannedNode,
  taskExecutionMessages,
} from "./node_executions.ts";
import { goText } from "./go_text.ts";
import { requireFullId } from "./identifiers.ts";
import type { SandboxStore } from "./store.ts";
import { createMonotonicClock, timestampFromNs } from "./time.ts";
import { invalidArgument as invalid } from "./shared_validation.ts";

/**
 * Which executions a plan is for: one execution name, the executions of one launch plan (or task) name, or every
 * execution no other plan names.
 *
 * ```ts
 * import type { PlanSelector } from "@fctl/fctl/testing";
 *
 * const selectors: PlanSelector[] = [{ execution: "nightly-1" }, { launchPlan: "train" }, "default"];
 * console.log(selectors.length);
 * ```
 */
export type PlanSelector = { execution: string } | { launchPlan: string } | "default";

/** What CreateExecution accepts (a message or a plain init object). */
export type ExecutionInit = MessageInit<ExecutionCreateRequest>;

interface ExecutionRecord {
  seq: number;
  id: WorkflowExecutionIdentifier;
  createdNs: bigint;
  spec: ExecutionSpec;
  launch: ResolvedLaunch;
  plan: ResolvedPlan;
  span: Span;
  nodes: PlannedNode[];
  termination?: Termination;
  abortCause: string;
  /** Who aborted it (FlyteAdmin's abort metadata principal). */
  abortedBy: string;
  /**
   * The state UpdateExecution last set, as FlyteAdmin stores it: the request's number, unchecked (ACTIVE, ARCHIVED or
   * any other), which listings compare with ACTIVE when no filter names `state`.
   */
  state: ExecutionState;
  stateChangedNs: bigint;
  /** Who last changed its state (FlyteAdmin's state change details principal); its creator until then. */
  stateChangedBy: string;
  /** The notifications its closure records. */
  notifications: Notification[];
  /** FlyteAdmin's `source_execution_id`: the row of the execution it relaunches, recovers or was launched by; 0. */
  sourceSeq: number;
  /** Whether a node of another execution launched it (FlyteAdmin's `parent_node_execution_id`, which is not kept). */
  hasParentNode: boolean;
}

const NS_PER_MS = 1_000_000n;
/** A stored version's row number: its place among the store's versions of its kind, from 1 (null once forgotten). */
function rowNumber(entries: readonly { message: unknown }[], message: unknown): number | null {
  const index = entries.findIndex((entry) => entry.message === message);
  return index === -1 ? null : index + 1;
}

/** The longest error message ListExecutions returns, in bytes. */
const LISTED_ERROR_MESSAGE_BYTES = 100;

/**
 * FlyteAdmin's TrimErrorMessage for listed executions: a message of more than 100 bytes (UTF-8) cut to its first
 * 100, less the bytes of a character the cut split.
 */
function trimErrorMessage(message: string): string {
  const bytes = new TextEncoder().encode(message);
  if (bytes.length <= LISTED_ERROR_MESSAGE_BYTES) return message;
  // A cut before a continuation byte splits a character: cut before that character's first byte instead.
  let end = LISTED_ERROR_MESSAGE_BYTES;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** Whether a security context names someone to run as: FlyteAdmin takes one that does not as none. */
function namesRunAs(context: SecurityContext | undefined): context is SecurityContext {
  const runAs = context?.runAs;
  return runAs !== undefined &&
    (runAs.k8sServiceAccount !== "" || runAs.iamRole !== "" || runAs.executionIdentity !== "");
}

/**
 * The security context FlyteAdmin's getExecutionConfig resolves and writes into the execution's spec: the request's,
 * else the launch plan's, if it names someone to run as; else the service account and IAM role of the deprecated
 * auth role (the request's, else the launch plan's `auth_role`, `auth` or `role`) if it has any; else an empty run-as.
 */
function resolveSecurityContext(spec: ExecutionSpec, planSpec: LaunchPlanSpec | undefined): SecurityContext {
  if (namesRunAs(spec.securityContext)) return spec.securityContext;
  if (namesRunAs(planSpec?.securityContext)) return planSpec.securityContext;
  const authRole = spec.authRole ?? planSpec?.authRole ??
    (planSpec?.auth
      ? {
        assumableIamRole: planSpec.auth.assumableIamRole,
        kubernetesServiceAccount: planSpec.auth.kubernetesServiceAccount,
      }
      : { assumableIamRole: planSpec?.role ?? "", kubernetesServiceAccount: "" });
  return create(SecurityContextSchema, {
    runAs: { iamRole: authRole.assumableIamRole, k8sServiceAccount: authRole.kubernetesServiceAccount },
  });
}

/**
 * FlyteAdmin's text of an execution's identifier in NOT_FOUND messages: Go's rendering of the core Identifier its
 * repository builds of the project, domain and name (empty fields left out).
 */
function describeExecution(id: { project: string; domain: string; name: string }): string {
  return goText(IdentifierSchema, create(IdentifierSchema, { project: id.project, domain: id.domain, name: id.name }));
}

function requireExecutionId(id: WorkflowExecutionIdentifier | undefined): WorkflowExecutionIdentifier {
  if (!id) throw invalid("missing id");
  for (const field of ["project", "domain", "name"] as const) {
    if (id[field] === "") throw invalid(`missing ${field}`);
  }
  return id;
}

function requireNodeExecutionId(id: NodeExecutionIdentifier | undefined): NodeExecutionIdentifier {
  if (!id) throw invalid("missing id");
  if (!id.executionId) throw invalid("missing execution_id");
  if (id.nodeId === "") throw invalid("missing node_id");
  requireExecutionId(id.executionId);
  return id;
}

function key(id: { project: string; domain: string; name: string }): string {
  return JSON.stringify([id.project, id.domain, id.name]);
}

function durationOf(state: PhaseAt): Duration | undefined {
  if (state.endedNs === undefined || state.startedNs === undefined) return undefined;
  const ns = state.endedNs - state.startedNs;
  return create(DurationSchema, { seconds: ns / 1_000_000_000n, nanos: Number(ns % 1_000_000_000n) });
}

const EXECUTION_SCHEMA: FilterSchema<ExecutionRow> = {
  primary: EXECUTION_TABLE,
  joins: [
    LAUNCH_PLAN_TABLE,
    WORKFLOW_TABLE,
    TASK_TABLE as typeof LAUNCH_PLAN_TABLE,
    EXECUTION_TAG_TABLE,
    ADMIN_TAG_TABLE,
  ],
};
const NODE_SCHEMA: FilterSchema<NodeRow> = { primary: NODE_EXECUTION_TABLE, joins: [executionJoin<NodeRow>()] };
const TASK_SCHEMA: FilterSchema<TaskRow> = {
  primary: TASK_EXECUTION_TABLE,
  joins: [
    TASK_TABLE as unknown as typeof TASK_EXECUTION_TABLE,
    executionJoin<TaskRow>(),
    { ...NODE_EXECUTION_TABLE, read: (row, column) => NODE_EXECUTION_TABLE.read(row.node, column) },
  ],
};

/** The executions behind the execution RPCs; the library's users reach it through {@link SandboxExecutions}. */
export class ExecutionRegistry {
  readonly #store: SandboxStore;
  readonly #now: () => Date;
  readonly #clock: () => bigint;
  readonly #records = new Map<string, ExecutionRecord>();
  readonly #plans = new Map<string, ExecutionPlan>();
  #defaultPlan: ExecutionPlan = {};
  #seq = 0;
  #lastCreatedNs = 0n;

  /** `store` resolves launch plans, workflows and tasks; `now` is the clock every execution runs on. */
  constructor(store: SandboxStore, now: () => Date) {
    this.#store = store;
    this.#now = now;
    this.#clock = createMonotonicClock(now);
  }

  /**
   * Plans how executions run; a plan for one execution wins over one for its launch plan, which wins over the
   * default. An execution follows the plan in force when it is created, or a plan set later for its own name.
   */
  plan(selector: PlanSelector, plan: ExecutionPlan): void {
    const resolved = resolvePlan(plan);
    if (selector === "default") {
      this.#defaultPlan = plan;
      return;
    }
    if ("execution" in selector) {
      this.#plans.set(`execution:${selector.execution}`, plan);
      for (const record of this.#records.values()) {
        if (record.id.name === selector.execution) this.#replan(record, resolved);
      }
    } else {
      this.#plans.set(`launch_plan:${selector.launchPlan}`, plan);
    }
  }

  /**
   * Creates an execution as CreateExecution does and returns its identifier; `principal` is the caller's user id,
   * which FlyteAdmin records in place of any the request names.
   */
  create(init: ExecutionInit, principal = "", relaunchedSeq = 0): WorkflowExecutionIdentifier {
    const request = create(ExecutionCreateRequestSchema, init);
    // Clients before flyteidl 0.15 sent the inputs in the spec.
    if (!request.inputs || Object.keys(request.inputs.literals).length === 0) request.inputs = request.spec?.inputs;
    validateCreateRequest(request, this.#store.projects);
    const launch = resolveLaunch(this.#store, request);
    if (launch.launchEntity === "launch_plan") this.#checkConcurrency(launch.launchPlan);
    const spec = clone(ExecutionSpecSchema, request.spec!);
    const name = request.name !== "" ? request.name : this.#freshName(request);
    const id = { project: request.project, domain: request.domain, name, org: request.org };
    spec.metadata ??= create(ExecutionMetadataSchema);
    spec.metadata.principal = principal;
    const parentSeq = this.#inheritFromParent(spec);
    if (this.#records.has(key(id))) {
      throw new ConnectError(
        `value with matching already exists (duplicate key value violates unique constraint "executions_pkey")`,
        Code.AlreadyExists,
      );
    }
    spec.metadata.systemMetadata = create(SystemMetadataSchema, { namespace: `${id.project}-${id.domain}` });
    const planSpec = launch.launchPlan.spec;
    // The notifications FlyteAdmin records in the closure: the request's, else none if it disables all, else the
    // launch plan's.
    const overrides = spec.notificationOverrides;
    const notifications = overrides.case === "notifications" && overrides.value.notifications.length > 0
      ? overrides.value.notifications
      : overrides.case === "disableAll" && overrides.value
      ? []
      : planSpec?.entityMetadata?.notifications ?? [];
    // Of the execution config FlyteAdmin resolves, only the security context is written into the spec it keeps.
    spec.securityContext = resolveSecurityContext(spec, planSpec);
    const createdNs = this.#clock();
    this.#lastCreatedNs = createdNs;
    const plan = resolvePlan(this.#planFor(name, request.spec!.launchPlan!.name));
    const record: ExecutionRecord = {
      seq: ++this.#seq,
      id: create(ExecutionSchema, { id }).id!,
      createdNs,
      spec,
      launch,
      plan,
      span: executionSpan(createdNs, plan),
      nodes: [],
      abortCause: "",
      abortedBy: "",
      state: ExecutionState.EXECUTION_ACTIVE,
      stateChangedNs: createdNs,
      stateChangedBy: spec.metadata.principal,
      notifications,
      // FlyteAdmin's source execution: the parent's, then (relaunch, recover) the one launched again.
      sourceSeq: relaunchedSeq || parentSeq,
      hasParentNode: spec.metadata.parentNodeExecution !== undefined,
    };
    record.nodes = layoutNodes({ closure: launch.workflow.closure?.compiledWorkflow, span: record.span, plan });
    this.#records.set(key(id), record);
    return record.id;
  }

  /** Runs an execution again with its spec and inputs, as RelaunchExecution does. */
  relaunch(request: ExecutionRelaunchRequest, principal = ""): WorkflowExecutionIdentifier {
    const existing = this.#get(request.id);
    return this.#launchAgain(existing, request.name, principal, ExecutionMetadata_ExecutionMode.RELAUNCH, (spec) => {
      spec.overwriteCache = request.overwriteCache;
    });
  }

  /** Recovers an execution, as RecoverExecution does (a new execution in mode RECOVERED). */
  recover(request: ExecutionRecoverRequest, principal = ""): WorkflowExecutionIdentifier {
    const existing = this.#get(request.id);
    return this.#launchAgain(existing, request.name, principal, ExecutionMetadata_ExecutionMode.RECOVERED, (spec) => {
      if (request.metadata) spec.metadata!.parentNodeExecution = request.metadata.parentNodeExecution;
    });
  }

  /** An execution as GetExecution returns it, or NOT_FOUND. */
  get(id: WorkflowExecutionIdentifier | undefined): Execution {
    return this.#message(this.#get(requireExecutionId(id)), this.#nowNs());
  }

  /** Every execution, oldest first, archived ones included, with its phase now. */
  summaries(): ExecutionSummary[] {
    const now = this.#nowNs();
    return [...this.#records.values()].map((record) => ({
      project: record.id.project,
      domain: record.id.domain,
      name: record.id.name,
      phase: this.#state(record, now).phase,
      archived: record.state === ExecutionState.EXECUTION_ARCHIVED,
    }));
  }

  /** One page of ListExecutions. */
  listPage(request: ResourceListRequest): { executions: Execution[]; token: string } {
    if (!request.id) throw invalid("missing id");
    if (request.id.project === "") throw invalid("missing project");
    if (request.id.domain === "") throw invalid("missing domain");
    requireLimit(request.limit);
    const filters = parseRequestFilters(request.filters, EXECUTION_SCHEMA, this.#nowNs());
    const compare = sortComparator(request.sortBy, EXECUTION_TABLE);
    const offset = parseOffsetToken(request.token, "ListExecutions");
    const showArchived = filters.some((filter) => filter.column === "state");
    // A filter on the tags joins them: one row per tag, of any execution of the same name (FlyteAdmin joins on the
    // name alone), and none for an execution without.
    const joinsTags = filters.some((filter) =>
      filter.table === EXECUTION_TAG_TABLE || filter.table === ADMIN_TAG_TABLE
    );
    const now = this.#nowNs();
    const rows = [...this.#records.values()]
      .filter((record) =>
        record.id.project === request.id!.project && record.id.domain === request.id!.domain &&
        (request.id!.name === "" || record.id.name === request.id!.name) &&
        (showArchived || record.state === ExecutionState.EXECUTION_ACTIVE)
      )
      .map((record) => ({ record, row: this.#row(record, now) }))
      .flatMap((entry) =>
        joinsTags
          ? this.#tagsNamed(entry.record.id.name).map((tag) => ({ ...entry, row: { ...entry.row, tag } }))
          : [entry]
      )
      .filter(({ row }) => matchesFilters(row, filters));
    if (compare) rows.sort((a, b) => compare(a.row, b.row));
    const page = pageOf(rows, offset, request.limit);
    return {
      executions: page.items.map(({ record }) => {
        const message = this.#message(record, now);
        // As ListExecutions: deprecated input fields are cleared from list results, and an error's message trimmed.
        if (message.spec) message.spec.inputs = undefined;
        if (message.closure) message.closure.computedInputs = undefined;
        const result = message.closure?.outputResult;
        if (result?.case === "error") result.value.message = trimErrorMessage(result.value.message);
        return message;
      }),
      token: page.token,
    };
  }

  /**
   * Terminates a running execution, as TerminateExecution does: ABORTING now, ABORTED when the abort completes;
   * `principal` (the caller's user id) is recorded in its abort metadata.
   */
  terminate(id: WorkflowExecutionIdentifier | undefined, cause: string, principal = ""): void {
    const record = this.#get(requireExecutionId(id));
    const now = this.#nowNs();
    const state = this.#state(record, now);
    if (isTerminal(state.phase)) {
      // FlyteAdmin's NewAlreadyInTerminalStateError: the phase it is in, as an EventFailureReason detail.
      throw new ConnectError(
        "Cannot abort an already terminated workflow execution",
        Code.FailedPrecondition,
        undefined,
        [
          {
            desc: EventFailureReasonSchema,
            value: { reason: { case: "alreadyInTerminalState", value: { currentPhase: state.phase } } },
          },
        ],
      );
    }
    // FlyteAdmin rewrites the abort metadata at every call that finds the execution not yet terminal.
    record.abortCause = cause;
    record.abortedBy = principal;
    record.termination ??= { atNs: now, abortedNs: now + record.plan.abortAfterNs };
  }

  /**
   * Sets an execution's state, as UpdateExecution does, recording `principal` (the caller's user id): whatever number
   * the request gives, as FlyteAdmin stores it unchecked (one other than ACTIVE hides the execution from listings
   * without a `state` filter, and GetExecution answers it).
   */
  update(id: WorkflowExecutionIdentifier | undefined, state: ExecutionState, principal = ""): void {
    const record = this.#get(requireExecutionId(id));
    record.state = state;
    record.stateChangedNs = this.#nowNs();
    record.stateChangedBy = principal;
  }

  /** The inputs and (once it succeeded) outputs, as GetExecutionData returns them; outputs empty until then. */
  data(id: WorkflowExecutionIdentifier | undefined): WorkflowExecutionGetDataResponse {
    const record = this.#get(id);
    const state = this.#state(record, this.#nowNs());
    // FlyteAdmin answers with its (empty, signed URLs being off) URL blobs and an empty map for outputs not written.
    return create(WorkflowExecutionGetDataResponseSchema, {
      inputs: {},
      outputs: {},
      fullInputs: record.launch.inputs,
      fullOutputs: state.phase === "SUCCEEDED" ? this.#outputs(record) : {},
    });
  }

  /** One page of ListNodeExecutions: top-level nodes, or the children of `unique_parent_id`. */
  listNodeExecutions(request: NodeExecutionListRequest): { nodeExecutions: NodeExecution[]; token: string } {
    const executionId = request.workflowExecutionId;
    if (!executionId || !executionId.project || !executionId.domain || !executionId.name) {
      throw invalid("missing execution_id");
    }
    requireLimit(request.limit);
    const record = this.#records.get(key(executionId));
    const now = this.#nowNs();
    if (request.uniqueParentId !== "") {
      this.#startedNode(record, { executionId, nodeId: request.uniqueParentId }, now);
    }
    const filters = parseRequestFilters(request.filters, NODE_SCHEMA, this.#nowNs());
    const compare = sortComparator(request.sortBy, NODE_EXECUTION_TABLE);
    const offset = parseOffsetToken(request.token, "ListNodeExecutions");
    if (!record) return { nodeExecutions: [], token: "" };
    const parent = request.uniqueParentId === "" ? undefined : request.uniqueParentId;
    const rows = this.#startedNodes(record, now)
      .filter(({ node }) => node.parentId === parent)
      .filter(({ row }) => matchesFilters(row, filters));
    if (compare) rows.sort((a, b) => compare(a.row, b.row));
    const page = pageOf(rows, offset, request.limit);
    return {
      nodeExecutions: page.items.map(({ node, state }) =>
        nodeExecutionMessage(record.id, node, state, record.plan, this.#dataPrefix(record))
      ),
      token: page.token,
    };
  }

  /** A node execution, or NOT_FOUND (also before the node starts). */
  getNodeExecution(id: NodeExecutionIdentifier | undefined): NodeExecution {
    // FlyteAdmin validates this identifier but only logs a bad one: the lookup then answers NOT_FOUND.
    const nodeId = { executionId: id?.executionId, nodeId: id?.nodeId ?? "" };
    const record = nodeId.executionId && this.#records.get(key(nodeId.executionId));
    const { node, state } = this.#startedNode(record, nodeId, this.#nowNs());
    return nodeExecutionMessage(record!.id, node, state, record!.plan, this.#dataPrefix(record!));
  }

  /** A node execution's inputs and outputs. */
  getNodeExecutionData(id: NodeExecutionIdentifier | undefined): NodeExecutionGetDataResponse {
    // FlyteAdmin validates this identifier but only logs a bad one: the lookup then answers NOT_FOUND.
    const nodeId = { executionId: id?.executionId, nodeId: id?.nodeId ?? "" };
    const record = nodeId.executionId && this.#records.get(key(nodeId.executionId));
    const { node, state } = this.#startedNode(record, nodeId, this.#nowNs());
    const inputs = record!.launch.inputs;
    if (node.nodeId === "start-node") return create(NodeExecutionGetDataResponseSchema, { fullOutputs: inputs });
    if (node.nodeId === "end-node") {
      return create(NodeExecutionGetDataResponseSchema, { fullInputs: this.#outputs(record!) });
    }
    const wanted = node.task?.template?.interface?.inputs?.variables ?? {};
    const literals = Object.fromEntries(Object.entries(inputs.literals).filter(([name]) => name in wanted));
    return create(NodeExecutionGetDataResponseSchema, {
      fullInputs: { literals },
      fullOutputs: nodeOutputs(node, state),
    });
  }

  /** One page of ListTaskExecutions: the attempts of a task node. */
  listTaskExecutions(request: TaskExecutionListRequest): { taskExecutions: TaskExecution[]; token: string } {
    const nodeId = requireNodeExecutionId(request.nodeExecutionId);
    requireLimit(request.limit);
    const filters = parseRequestFilters(request.filters, TASK_SCHEMA, this.#nowNs());
    const compare = sortComparator(request.sortBy, TASK_EXECUTION_TABLE);
    const offset = parseOffsetToken(request.token, "ListTaskExecutions");
    const record = this.#records.get(key(nodeId.executionId!));
    if (!record) return { taskExecutions: [], token: "" };
    const now = this.#nowNs();
    const started = this.#startedNodes(record, now).find(({ node }) => node.nodeId === nodeId.nodeId);
    if (!started) return { taskExecutions: [], token: "" };
    const messages = taskExecutionMessages(
      { executionId: record.id, nodeId: started.node.nodeId },
      started.node,
      record.termination,
      now,
      record.plan,
      this.#dataPrefix(record),
    );
    const rows = messages.map(({ message, state, createdNs }) => ({
      message,
      row: {
        execution: started.row.execution,
        node: started.row,
        task: this.#findTask(message.id!.taskId!),
        taskId: message.id!.taskId!,
        retryAttempt: message.id!.retryAttempt,
        createdNs,
        state,
      } satisfies TaskRow,
    })).filter(({ row }) => matchesFilters(row, filters));
    if (compare) rows.sort((a, b) => compare(a.row, b.row));
    const page = pageOf(rows, offset, request.limit);
    return { taskExecutions: page.items.map(({ message }) => message), token: page.token };
  }

  /** A task execution (one attempt), or NOT_FOUND; its identifier is checked as FlyteAdmin checks it. */
  getTaskExecution(id: TaskExecutionIdentifier | undefined): TaskExecution {
    if (!id) throw invalid("missing id");
    if (!id.nodeExecutionId) throw invalid("missing node_execution_id");
    const nodeId = requireNodeExecutionId(id.nodeExecutionId);
    if (!id.taskId) throw invalid("missing task_id");
    if (id.taskId.resourceType !== ResourceType.TASK) {
      throw invalid(
        `unexpected resource type ${ResourceType[id.taskId.resourceType].toLowerCase()} for identifier [resource_type:${
          ResourceType[id.taskId.resourceType]
        } ${describeExecution(id.taskId)} version:"${id.taskId.version}"], expected task instead`,
      );
    }
    requireFullId(id.taskId);
    const list = nodeId
      ? this.listTaskExecutions(create(TaskExecutionListRequestSchema, { nodeExecutionId: nodeId, limit: 1000 }))
      : undefined;
    const found = list?.taskExecutions.find((attempt) =>
      attempt.id?.retryAttempt === id.retryAttempt && attempt.id.taskId?.name === id.taskId?.name &&
      attempt.id.taskId?.version === id.taskId?.version
    );
    if (!found) {
      throw new ConnectError(
        `missing entity of type task execution with identifier node_id:"${nodeId?.nodeId ?? ""}" retry_attempt:${
          id?.retryAttempt ?? 0
        }`,
        Code.NotFound,
      );
    }
    return found;
  }

  /** Forgets every execution and plan. */
  clear(): void {
    this.#records.clear();
    this.#plans.clear();
    this.#defaultPlan = {};
  }

  /**
   * The clock's time, but never before the newest creation: executions created in the same millisecond get
   * creation times a microsecond apart, and each must be at least QUEUED (or RUNNING) the moment it exists.
   */
  #nowNs(): bigint {
    const now = BigInt(this.#now().getTime()) * NS_PER_MS;
    return now > this.#lastCreatedNs ? now : this.#lastCreatedNs;
  }

  /**
   * The execution FlyteAdmin's repository finds for `id`, or NOT_FOUND: its lookup is gorm's Where on a struct,
   * which drops empty fields, so an identifier with a part missing (where nothing validated it first: relaunch,
   * recover, GetExecutionData) finds the oldest execution matching the parts it has.
   */
  #get(id: WorkflowExecutionIdentifier | undefined): ExecutionRecord {
    const wanted = { project: id?.project ?? "", domain: id?.domain ?? "", name: id?.name ?? "" };
    const matches = (record: ExecutionRecord) =>
      (["project", "domain", "name"] as const).every((field) =>
        wanted[field] === "" || record.id[field] === wanted[field]
      );
    const record = this.#records.get(key(wanted)) ?? [...this.#records.values()].find(matches);
    if (!record) {
      throw new ConnectError(
        `missing entity of type execution with identifier ${describeExecution(wanted)}`,
        Code.NotFound,
      );
    }
    return record;
  }

  /**
   * A launch plan's concurrency policy, as FlyteAdmin applies it: with `max` executions of the launch plan's name
   * (any version) QUEUED or RUNNING in its project and domain, SKIP refuses the new one with ALREADY_EXISTS.
   */
  #checkConcurrency(launchPlan: LaunchPlan): void {
    const policy = launchPlan.spec?.concurrencyPolicy;
    const lpId = launchPlan.id!;
    if (!policy) return;
    const now = this.#nowNs();
    const active =
      [...this.#records.values()].filter((record) =>
        record.launch.launchEntity === "launch_plan" && record.launch.launchPlan.id?.name === lpId.name &&
        record.id.project === lpId.project && record.id.domain === lpId.domain &&
        ["QUEUED", "RUNNING"].includes(this.#state(record, now).phase)
      ).length;
    if (active < policy.max) return;
    if (policy.behavior === ConcurrencyLimitBehavior.SKIP) {
      throw new ConnectError(
        `concurrency limit (${policy.max}) reached for launch plan ${lpId.name}; skipping execution`,
        Code.AlreadyExists,
      );
    }
    if (policy.behavior !== ConcurrencyLimitBehavior.UNSPECIFIED) {
      throw new ConnectError(`unsupported concurrency-limit behavior: ${policy.behavior}`, Code.Unknown);
    }
  }

  /**
   * FlyteAdmin's getInheritedExecMetadata: an execution launched by a node of another (its metadata names that node
   * execution) needs the node execution to exist (NOT_FOUND otherwise), and takes from the parent execution its
   * principal, its nesting plus one and its cluster label.
   */
  #inheritFromParent(spec: ExecutionSpec): number {
    const parent = spec.metadata?.parentNodeExecution;
    if (!parent) return 0;
    const source = parent.executionId && this.#records.get(key(parent.executionId));
    this.#startedNode(source || undefined, parent, this.#nowNs());
    const sourceSpec = (source as ExecutionRecord).spec;
    spec.metadata!.principal = sourceSpec.metadata?.principal ?? "";
    spec.metadata!.nesting = (sourceSpec.metadata?.nesting ?? 0) + 1;
    if (sourceSpec.executionClusterLabel) spec.executionClusterLabel = sourceSpec.executionClusterLabel;
    return (source as ExecutionRecord).seq;
  }

  /**
   * The `execution_tags` rows of executions named `name`, in creation order: each one's labels (key and value),
   * then its tags (the tag as key, an empty value), as FlyteAdmin writes them from the request.
   */
  #tagsNamed(name: string): ExecutionTagRow[] {
    let seq = 0;
    return [...this.#records.values()].flatMap((record) => {
      const tagged = { project: record.id.project, domain: record.id.domain, name: record.id.name };
      const pairs: [string, string][] = [
        ...Object.entries(record.spec.labels?.values ?? {}),
        ...record.spec.tags.map((tag): [string, string] => [tag, ""]),
      ];
      return pairs.map(([key, value]) => ({ ...tagged, seq: ++seq, createdNs: record.createdNs, key, value }));
    }).filter((tag) => tag.name === name);
  }

  #findTask(id: Identifier): Task | undefined {
    try {
      return this.#store.getTask(id);
    } catch {
      return undefined;
    }
  }

  #freshName(request: ExecutionCreateRequest): string {
    for (;;) {
      const name = generateExecutionName();
      if (!this.#records.has(key({ ...request, name }))) return name;
    }
  }

  #planFor(name: string, launchPlanName: string): ExecutionPlan {
    return this.#plans.get(`execution:${name}`) ?? this.#plans.get(`launch_plan:${launchPlanName}`) ??
      this.#defaultPlan;
  }

  #replan(record: ExecutionRecord, plan: ResolvedPlan): void {
    record.plan = plan;
    record.span = executionSpan(record.createdNs, plan);
    record.nodes = layoutNodes({ closure: record.launch.workflow.closure?.compiledWorkflow, span: record.span, plan });
  }

  #launchAgain(
    existing: ExecutionRecord,
    name: string,
    principal: string,
    mode: ExecutionMetadata_ExecutionMode,
    adjust: (spec: ExecutionSpec) => void,
  ): WorkflowExecutionIdentifier {
    const spec = clone(ExecutionSpecSchema, existing.spec);
    spec.metadata ??= create(ExecutionMetadataSchema);
    spec.metadata.mode = mode;
    spec.metadata.referenceExecution = existing.id;
    adjust(spec);
    return this.create(
      {
        project: existing.id.project,
        domain: existing.id.domain,
        name,
        spec,
        inputs: existing.launch.userInputs,
      },
      principal,
      existing.seq,
    );
  }

  #state(record: ExecutionRecord, now: bigint): PhaseAt {
    return executionPhaseAt(record.createdNs, record.span, record.termination, now);
  }

  #dataPrefix(record: ExecutionRecord): string {
    return `s3://${SANDBOX_BUCKET}/metadata/propeller/${record.id.project}-${record.id.domain}-${record.id.name}`;
  }

  #outputs(record: ExecutionRecord): LiteralMap {
    const declared = record.launch.workflow.closure?.compiledWorkflow?.primary?.template?.interface?.outputs;
    return create(LiteralMapSchema, record.plan.outputs ?? defaultLiterals(declared));
  }

  #row(record: ExecutionRecord, now: bigint): ExecutionRow {
    const state = this.#state(record, now);
    const failed = state.phase === "FAILED";
    const prefix = this.#dataPrefix(record);
    return {
      seq: record.seq,
      project: record.id.project,
      domain: record.id.domain,
      name: record.id.name,
      createdNs: record.createdNs,
      state,
      abortCause: record.abortCause,
      mode: record.spec.metadata?.mode ?? 0,
      principal: record.spec.metadata?.principal ?? "",
      executionState: record.state,
      launchEntity: record.launch.launchEntity,
      errorKind: failed ? record.plan.errorKind : undefined,
      errorCode: failed ? planError(record.plan).code : undefined,
      inputsUri: `${prefix}/inputs.pb`,
      userInputsUri: `${prefix}/user_inputs.pb`,
      launchPlan: record.launch.launchPlan,
      workflow: record.launch.workflow,
      task: record.launch.task,
      // The rows its foreign keys name: a stored version's is its place in the store, as the entity listings number
      // them; a task's only for a single-task execution (0 otherwise, as FlyteAdmin leaves it).
      launchPlanId: rowNumber(this.#store.launchPlanEntries(), record.launch.launchPlan),
      workflowId: rowNumber(this.#store.workflowEntries(), record.launch.workflow),
      taskId: record.launch.task ? rowNumber(this.#store.taskEntries(), record.launch.task) : 0,
      sourceExecutionId: record.sourceSeq,
      parentNodeExecutionId: record.hasParentNode ? null : 0,
    };
  }

  /**
   * The `id` FlyteAdmin's `node_executions` row of each node started by `now` has, by execution and unique node id:
   * rows are numbered across all executions in the order their first events arrive, so by start, then by
   * execution and node order (a parent before its first child, which starts with it).
   */
  #nodeRowIds(now: bigint): Map<number, Map<string, number>> {
    const started = [...this.#records.values()].flatMap((record) =>
      record.nodes.flatMap((node, index) =>
        nodePhaseAt(node, record.termination, now) ? [{ seq: record.seq, index, node }] : []
      )
    );
    started.sort((a, b) =>
      a.node.span.startNs < b.node.span.startNs
        ? -1
        : a.node.span.startNs > b.node.span.startNs
        ? 1
        : a.seq - b.seq || a.index - b.index
    );
    const ids = new Map<number, Map<string, number>>();
    started.forEach(({ seq, node }, i) => {
      if (!ids.has(seq)) ids.set(seq, new Map());
      ids.get(seq)!.set(node.nodeId, i + 1);
    });
    return ids;
  }

  #startedNodes(record: ExecutionRecord, now: bigint): { node: PlannedNode; state: PhaseAt; row: NodeRow }[] {
    const execution = this.#row(record, now);
    // Numbering every execution's nodes is costly: done only when a filter or sort reads `id` or `parent_id`.
    let rowIds: Map<string, number> | undefined;
    const rowId = (nodeId: string) => {
      rowIds ??= this.#nodeRowIds(now).get(record.seq) ?? new Map();
      return rowIds.get(nodeId) ?? 0;
    };
    return record.nodes.flatMap((node) => {
      const state = nodePhaseAt(node, record.termination, now);
      if (!state) return [];
      const failed = state.phase === "FAILED";
      const row: NodeRow = {
        execution,
        nodeId: node.nodeId,
        rowId: () => rowId(node.nodeId),
        // FlyteAdmin stores the row of the node its event names as parent (NULL for a top-level node).
        parentRowId: () => node.parentId === undefined ? null : rowId(node.parentId),
        createdNs: node.span.startNs,
        state,
        errorKind: failed ? record.plan.errorKind : undefined,
        errorCode: failed ? planError(record.plan).code : undefined,
      };
      return [{ node, state, row }];
    });
  }

  #startedNode(
    record: ExecutionRecord | undefined,
    id: { executionId?: WorkflowExecutionIdentifier; nodeId: string },
    now: bigint,
  ) {
    const found = record && this.#startedNodes(record, now).find(({ node }) => node.nodeId === id.nodeId);
    if (!found) {
      // Go's rendering of the identifier the repository builds: its fields in declaration order, empty ones left out.
      const shown = goText(
        NodeExecutionIdentifierSchema,
        create(NodeExecutionIdentifierSchema, {
          nodeId: id.nodeId,
          executionId: {
            project: id.executionId?.project,
            domain: id.executionId?.domain,
            name: id.executionId?.name,
          },
        }),
      );
      throw new ConnectError(`missing entity of type node execution with identifier ${shown}`, Code.NotFound);
    }
    return found;
  }

  #message(record: ExecutionRecord, now: bigint): Execution {
    const state = this.#state(record, now);
    const aborting = state.phase === "ABORTING" || state.phase === "ABORTED";
    const outputResult: MessageInitShape<typeof ExecutionClosureSchema>["outputResult"] = state.phase === "FAILED"
      ? { case: "error", value: planError(record.plan) }
      : aborting
      ? { case: "abortMetadata", value: { cause: record.abortCause, principal: record.abortedBy } }
      : state.phase === "SUCCEEDED"
      ? {
        case: "outputs",
        value: { data: { case: "uri", value: `${this.#dataPrefix(record)}/end-node/data/0/outputs.pb` } },
      }
      : { case: undefined };
    return create(ExecutionSchema, {
      id: record.id,
      spec: record.spec,
      closure: {
        phase: WorkflowExecution_Phase[state.phase],
        createdAt: timestampFromNs(record.createdNs),
        updatedAt: timestampFromNs(state.updatedNs),
        startedAt: state.startedNs === undefined ? undefined : timestampFromNs(state.startedNs),
        duration: durationOf(state),
        workflowId: record.launch.workflow.id,
        notifications: record.notifications,
        outputResult,
        stateChangeDetails: {
          state: record.state,
          occurredAt: timestampFromNs(record.stateChangedNs),
          principal: record.stateChangedBy,
        },
      },
    });
  }
}

/**
 * One execution as a test sees it: its identifier and its phase now (`QUEUED`, `RUNNING`, `SUCCEEDED`, `FAILED`,
 * `ABORTING`, `ABORTED`).
 *
 * ```ts
 * import type { ExecutionSummary } from "@fctl/fctl/testing";
 *
 * const summary: ExecutionSummary = { project: "flytesnacks", domain: "development", name: "run-1", phase: "RUNNING", archived: false };
 * console.log(summary.phase);
 * ```
 */
export interface ExecutionSummary {
  /** The execution's project. */
  project: string;
  /** The execution's domain. */
  domain: string;
  /** The execution's name. */
  name: string;
  /** Its phase at the sandbox's current time. */
  phase: SimPhase;
  /** Whether UpdateExecution archived it. */
  archived: boolean;
}

const REGISTRIES = new WeakMap<SandboxExecutions, ExecutionRegistry>();

/**
 * The sandbox's executions, as tests steer them: how each runs (its {@link ExecutionPlan}), and what exists now.
 * Clients create, list, terminate and archive them through the execution RPCs, with FlyteAdmin's semantics.
 *
 * ```ts
 * import { startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const executions = sandbox.store.executions;
 * executions.plan("default", { after: 10 }); // every execution succeeds 10 ms after it is created
 * executions.plan({ launchPlan: "nightly" }, { outcome: "FAILED", message: "exit status 1" });
 * executions.plan({ execution: "stuck" }, { outcome: "never" }); // runs until terminated
 * console.log(executions.summaries()); // []
 * await sandbox.close();
 * ```
 */
export class SandboxExecutions {
  readonly #registry: ExecutionRegistry;

  /** `store` resolves launch plans, workflows and tasks; `now` is the clock every execution runs on. */
  constructor(store: SandboxStore, now: () => Date) {
    this.#registry = new ExecutionRegistry(store, now);
    REGISTRIES.set(this, this.#registry);
  }

  /**
   * Plans how executions run; a plan for one execution name wins over one for its launch plan (or task) name,
   * which wins over the default. An execution follows the plan in force when it is created, or a plan set later
   * for its own name. Throws RangeError for a negative time or fewer than one attempt.
   */
  plan(selector: PlanSelector, plan: ExecutionPlan): void {
    this.#registry.plan(selector, plan);
  }

  /** Every execution, oldest first, archived ones included, with its phase now. */
  summaries(): ExecutionSummary[] {
    return this.#registry.summaries();
  }

  /** Forgets every execution and plan. */
  clear(): void {
    this.#registry.clear();
  }
}

/** The registry behind a store's executions, for the AdminService implementation. */
export function executionRegistry(executions: SandboxExecutions): ExecutionRegistry {
  return REGISTRIES.get(executions)!;
}

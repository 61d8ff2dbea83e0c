/**
 * The sandbox's executions with FlyteAdmin's semantics: created from a launch plan or a task, relaunched,
 * recovered, listed (FlyteAdmin's filters, sort keys, tokens; only ACTIVE ones unless a filter names `state`; a
 * filter on `execution_tag` or `admin_tag` joins the tags, its labels and tags, one row per tag), terminated, given a
 * state (UpdateExecution stores any number, as FlyteAdmin does), and read with their data; their node and task
 * executions are read by `node_execution_reads.ts`. Each runs the simulated lifecycle of `execution_lifecycle.ts` on
 * the sandbox's clock, as its {@link ExecutionPlan} says; `execution_record.ts` is what is kept of each.
 *
 * @module
 */
import { clone, create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ResourceListRequest } from "../../proto/gen/flyteidl/admin/common_pb.ts";
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
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { type SecurityContext, SecurityContextSchema } from "../../proto/gen/flyteidl/core/security_pb.ts";
import {
  ConcurrencyLimitBehavior,
  type LaunchPlan,
  type LaunchPlanSpec,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Identifier, WorkflowExecutionIdentifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { MessageInit } from "../admin/message_init.ts";
import {
  ADMIN_TAG_TABLE,
  EXECUTION_TABLE,
  EXECUTION_TAG_TABLE,
  type ExecutionRow,
  type ExecutionTagRow,
  LAUNCH_PLAN_TABLE,
  TASK_TABLE,
  WORKFLOW_TABLE,
} from "./execution_columns.ts";
import {
  generateExecutionName,
  type LaunchableStore,
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
} from "./execution_lifecycle.ts";
import {
  describeExecution,
  executionDataPrefix,
  executionKey,
  executionOutputs,
  type ExecutionRecord,
  requireExecutionId,
} from "./execution_record.ts";
import { layoutNodes, planError } from "./node_executions.ts";
import { NodeExecutionReads } from "./node_execution_reads.ts";
import type { ProjectTable } from "./projects.ts";
import { createMonotonicClock, timestampFromNs } from "./time.ts";
import { invalidArgument as invalid } from "./shared_validation.ts";

/**
 * What the executions need of the sandbox's store (a `SandboxStore` is one): what creating one needs, the
 * projects it may be created in, and the stored versions of each kind, whose places number the rows FlyteAdmin's
 * filters on an execution's launch plan, workflow or task read.
 *
 * ```ts
 * import { type ExecutionStore, SandboxStore } from "@fctl/fctl/testing";
 *
 * const store: ExecutionStore = new SandboxStore();
 * console.log(store.taskEntries().length); // 0
 * ```
 */
export interface ExecutionStore extends LaunchableStore {
  /** The projects and their domains. */
  readonly projects: ProjectTable;
  /** Every stored task version, oldest first. */
  taskEntries(): readonly { message: unknown }[];
  /** Every stored workflow version, oldest first. */
  workflowEntries(): readonly { message: unknown }[];
  /** Every stored launch plan version, oldest first. */
  launchPlanEntries(): readonly { message: unknown }[];
}

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

/** The executions behind the execution RPCs; the library's users reach it through {@link SandboxExecutions}. */
export class ExecutionRegistry {
  /** Their node and task executions, as the node and task execution RPCs read them. */
  readonly nodes: NodeExecutionReads;
  readonly #store: ExecutionStore;
  readonly #now: () => Date;
  readonly #clock: () => bigint;
  readonly #records = new Map<string, ExecutionRecord>();
  readonly #plans = new Map<string, ExecutionPlan>();
  #defaultPlan: ExecutionPlan = {};
  #seq = 0;
  #lastCreatedNs = 0n;

  /** `store` resolves launch plans, workflows and tasks; `now` is the clock every execution runs on. */
  constructor(store: ExecutionStore, now: () => Date) {
    this.#store = store;
    this.#now = now;
    this.#clock = createMonotonicClock(now);
    this.nodes = new NodeExecutionReads({
      find: (id) => this.#records.get(executionKey(id)),
      records: () => this.#records.values(),
      nowNs: () => this.#nowNs(),
      row: (record, now) => this.#row(record, now),
      findTask: (id) => this.#findTask(id),
    });
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
    const parent = this.#inheritFromParent(spec);
    if (this.#records.has(executionKey(id))) {
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
      sourceSeq: relaunchedSeq || parent.seq,
      parentNodeRowId: parent.nodeRowId,
    };
    record.nodes = layoutNodes({ closure: launch.workflow.closure?.compiledWorkflow, span: record.span, plan });
    this.#records.set(executionKey(id), record);
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
      fullOutputs: state.phase === "SUCCEEDED" ? executionOutputs(record) : {},
    });
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
    const record = this.#records.get(executionKey(wanted)) ?? [...this.#records.values()].find(matches);
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
   * principal, its nesting plus one and its cluster label. Returns the parent execution's row id and the node
   * execution's (FlyteAdmin's `source_execution_id` and `parent_node_execution_id`), 0 and 0 without a parent.
   */
  #inheritFromParent(spec: ExecutionSpec): { seq: number; nodeRowId: number } {
    const parent = spec.metadata?.parentNodeExecution;
    if (!parent) return { seq: 0, nodeRowId: 0 };
    const source = parent.executionId && this.#records.get(executionKey(parent.executionId));
    // Its row id now, which stays its own: nodes that start later are numbered after it.
    const nodeRowId = this.nodes.startedNode(source || undefined, parent, this.#nowNs()).row.rowId();
    const sourceSpec = (source as ExecutionRecord).spec;
    spec.metadata!.principal = sourceSpec.metadata?.principal ?? "";
    spec.metadata!.nesting = (sourceSpec.metadata?.nesting ?? 0) + 1;
    if (sourceSpec.executionClusterLabel) spec.executionClusterLabel = sourceSpec.executionClusterLabel;
    return { seq: (source as ExecutionRecord).seq, nodeRowId };
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
      if (!this.#records.has(executionKey({ ...request, name }))) return name;
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

  #row(record: ExecutionRecord, now: bigint): ExecutionRow {
    const state = this.#state(record, now);
    const failed = state.phase === "FAILED";
    const prefix = executionDataPrefix(record);
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
      parentNodeExecutionId: record.parentNodeRowId,
    };
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
        value: { data: { case: "uri", value: `${executionDataPrefix(record)}/end-node/data/0/outputs.pb` } },
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
  constructor(store: ExecutionStore, now: () => Date) {
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

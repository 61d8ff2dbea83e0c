/**
 * The filter tables of the execution lists: how each FlyteAdmin column reads from a sandbox execution, node
 * execution or task execution, and from the launch plan, workflow, task and tags an execution joins.
 *
 * @module
 */
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Workflow } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  type ColumnValue,
  EXECUTION_COLUMNS,
  type FilterTable,
  LAUNCH_PLAN_COLUMNS,
  NODE_EXECUTION_COLUMNS,
  TASK_COLUMNS,
  TASK_EXECUTION_COLUMNS,
  WORKFLOW_COLUMNS,
} from "./execution_filters.ts";
import type { PhaseAt } from "./execution_lifecycle.ts";
import { timestampToNs } from "./time.ts";

/** An execution's columns at the moment of a list. */
export interface ExecutionRow {
  seq: number;
  project: string;
  domain: string;
  name: string;
  createdNs: bigint;
  state: PhaseAt;
  abortCause: string;
  mode: number;
  principal: string;
  /** UpdateExecution's state (ExecutionState's number, any value a request gave). */
  executionState: number;
  launchEntity: "launch_plan" | "task";
  errorKind?: string;
  errorCode?: string;
  inputsUri: string;
  userInputsUri: string;
  launchPlan?: LaunchPlan;
  workflow: Workflow;
  task?: Task;
  /** Its `launch_plan_id`, `workflow_id`, `task_id`, `source_execution_id` and `parent_node_execution_id`. */
  launchPlanId: number | null;
  workflowId: number | null;
  taskId: number | null;
  sourceExecutionId: number;
  parentNodeExecutionId: number;
  /** The `execution_tags` row joined to it, when a filter names that table. */
  tag?: ExecutionTagRow;
}

/**
 * A row of FlyteAdmin's `execution_tags`: one per label (its key and value) and per tag (the tag as key, an empty
 * value) an execution was created with.
 */
export interface ExecutionTagRow {
  seq: number;
  project: string;
  domain: string;
  name: string;
  createdNs: bigint;
  key: string;
  value: string;
}

function timeOf(ts: Timestamp | undefined): bigint | null {
  return ts ? timestampToNs(ts) : null;
}

/** The columns every phase-carrying record shares, under the table's own time column names. */
function phaseColumn(state: PhaseAt, createdNs: bigint, column: string, prefix: string): ColumnValue | undefined {
  switch (column) {
    case "phase":
      return state.phase;
    case "created_at":
    case `${prefix}_created_at`:
      return createdNs;
    case "updated_at":
    case `${prefix}_updated_at`:
      return state.updatedNs;
    case "started_at":
      return state.startedNs ?? null;
    case "duration":
      return state.endedNs !== undefined && state.startedNs !== undefined ? state.endedNs - state.startedNs : 0n;
    default:
      return undefined;
  }
}

/** `executions`. */
export const EXECUTION_TABLE: FilterTable<ExecutionRow> = {
  entity: "e",
  prefix: "execution",
  columns: EXECUTION_COLUMNS,
  read(row, column) {
    const shared = phaseColumn(row.state, row.createdNs, column, "execution");
    if (shared !== undefined) return shared;
    switch (column) {
      case "id":
        return row.seq;
      case "execution_project":
        return row.project;
      case "execution_domain":
        return row.domain;
      case "execution_name":
        return row.name;
      case "launch_plan_id":
        return row.launchPlanId;
      case "workflow_id":
        return row.workflowId;
      case "task_id":
        return row.taskId;
      case "source_execution_id":
        return row.sourceExecutionId;
      case "parent_node_execution_id":
        return row.parentNodeExecutionId;
      case "abort_cause":
        return row.abortCause;
      case "mode":
        return row.mode;
      case "cluster":
        return "";
      case "user":
        return row.principal;
      case "state":
        return row.executionState;
      case "launch_entity":
        return row.launchEntity;
      case "error_kind":
        return row.errorKind ?? null;
      case "error_code":
        return row.errorCode ?? null;
      case "inputs_uri":
        return row.inputsUri;
      case "user_inputs_uri":
        return row.userInputsUri;
      default:
        return null;
    }
  },
};

/** The columns of a versioned entity the execution joins (launch plan, workflow, task). */
function entityColumn(
  id: Identifier | undefined,
  createdAt: Timestamp | undefined,
  updatedAt: Timestamp | undefined,
  column: string,
): ColumnValue {
  switch (column) {
    case "project":
    case "domain":
    case "name":
    case "version":
      return id?.[column] ?? null;
    case "created_at":
      return timeOf(createdAt);
    case "updated_at":
      return timeOf(updatedAt ?? createdAt);
    default:
      return null;
  }
}

/** `launch_plans`, joined on the execution's launch plan (a single-task execution has none). */
export const LAUNCH_PLAN_TABLE: FilterTable<ExecutionRow> = {
  entity: "l",
  prefix: "launch_plan",
  columns: LAUNCH_PLAN_COLUMNS,
  read(row, column) {
    const plan = row.launchEntity === "launch_plan" ? row.launchPlan : undefined;
    if (!plan) return undefined;
    if (column === "state") return plan.closure?.state ?? 0;
    return entityColumn(plan.id, plan.closure?.createdAt, plan.closure?.updatedAt, column);
  },
};

/** `workflows`, joined on the execution's workflow. */
export const WORKFLOW_TABLE: FilterTable<ExecutionRow> = {
  entity: "w",
  prefix: "workflow",
  columns: WORKFLOW_COLUMNS,
  read(row, column) {
    if (column === "short_description") return row.workflow.shortDescription;
    return entityColumn(row.workflow.id, row.workflow.closure?.createdAt, undefined, column);
  },
};

/** `tasks`, joined on a single-task execution's task. */
export const TASK_TABLE: FilterTable<{ task?: Task }> = {
  entity: "t",
  prefix: "task",
  columns: TASK_COLUMNS,
  read(row, column) {
    const task = row.task;
    if (!task) return undefined;
    if (column === "short_description") return task.shortDescription;
    if (column === "type") return task.closure?.compiledTask?.template?.type ?? "";
    return entityColumn(task.id, task.closure?.createdAt, undefined, column);
  },
};

/** A node execution's columns at the moment of a list. */
export interface NodeRow {
  execution: ExecutionRow;
  nodeId: string;
  /** Its `id`: its place among all executions' node executions in the order they started. */
  rowId: () => number;
  /** Its `parent_id`: the `id` of the node execution it runs under, null for a top-level node. */
  parentRowId: () => number | null;
  createdNs: bigint;
  state: PhaseAt;
  errorKind?: string;
  errorCode?: string;
}

/** `node_executions`. */
export const NODE_EXECUTION_TABLE: FilterTable<NodeRow> = {
  entity: "ne",
  prefix: "node_execution",
  columns: NODE_EXECUTION_COLUMNS,
  read(row, column) {
    const shared = phaseColumn(row.state, row.createdNs, column, "node_execution");
    if (shared !== undefined) return shared;
    switch (column) {
      case "node_id":
        return row.nodeId;
      case "id":
        return row.rowId();
      case "parent_id":
        return row.parentRowId();
      case "error_kind":
        return row.errorKind ?? null;
      case "error_code":
        return row.errorCode ?? null;
      default:
        return EXECUTION_TABLE.columns.has(column) && column.startsWith("execution_")
          ? EXECUTION_TABLE.read(row.execution, column)
          : null;
    }
  },
};

/** `executions`, joined from a node or task execution. */
export function executionJoin<T extends { execution: ExecutionRow }>(): FilterTable<T> {
  return { ...EXECUTION_TABLE, read: (row, column) => EXECUTION_TABLE.read(row.execution, column) } as FilterTable<T>;
}

/** A task execution's columns at the moment of a list. */
export interface TaskRow {
  execution: ExecutionRow;
  node: NodeRow;
  task?: Task;
  taskId: Identifier;
  retryAttempt: number;
  createdNs: bigint;
  state: PhaseAt;
}

/** `task_executions`. */
export const TASK_EXECUTION_TABLE: FilterTable<TaskRow> = {
  entity: "te",
  prefix: "task_execution",
  columns: TASK_EXECUTION_COLUMNS,
  read(row, column) {
    const shared = phaseColumn(row.state, row.createdNs, column, "task_execution");
    if (shared !== undefined) return shared;
    switch (column) {
      case "project":
      case "domain":
      case "name":
      case "version":
        return row.taskId[column];
      case "retry_attempt":
        return row.retryAttempt;
      case "node_id":
        return row.node.nodeId;
      default:
        return column.startsWith("execution_") ? EXECUTION_TABLE.read(row.execution, column) : null;
    }
  },
};

const TAG_BASE_COLUMNS = ["id", "created_at", "updated_at", "deleted_at"];

function tagColumn(tag: ExecutionTagRow | undefined, column: string): ColumnValue | undefined {
  if (!tag) return undefined;
  switch (column) {
    case "id":
      return tag.seq;
    case "created_at":
    case "updated_at":
      return tag.createdNs;
    case "execution_project":
      return tag.project;
    case "execution_domain":
      return tag.domain;
    case "execution_name":
      return tag.name;
    case "key":
      return tag.key;
    case "value":
      return tag.value;
    default:
      return null;
  }
}

/** `execution_tags`, which ListExecutions joins on the execution's name alone when a filter names it. */
export const EXECUTION_TAG_TABLE: FilterTable<ExecutionRow> = {
  entity: "et",
  prefix: "execution_tag",
  columns: new Set([...TAG_BASE_COLUMNS, "execution_project", "execution_domain", "execution_name", "key", "value"]),
  read: (row, column) => tagColumn(row.tag, column),
};

/** `admin_tags`, whose filters FlyteAdmin turns into ones on `execution_tags` (its `name` is their `key`). */
export const ADMIN_TAG_TABLE: FilterTable<ExecutionRow> = {
  entity: "at",
  prefix: "admin_tag",
  columns: new Set([...TAG_BASE_COLUMNS, "name"]),
  read: (row, column) => tagColumn(row.tag, column === "name" ? "key" : column),
};

/**
 * The node and task executions of the sandbox's executions, as ListNodeExecutions, GetNodeExecution,
 * GetNodeExecutionData, ListTaskExecutions and GetTaskExecution read them: the nodes started by now, with their
 * rows for FlyteAdmin's filters and sort keys (the `id` and `parent_id` of FlyteAdmin's `node_executions` rows
 * included), their data, and each task node's attempts.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  NodeExecution,
  NodeExecutionGetDataResponse,
  NodeExecutionListRequest,
} from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import { NodeExecutionGetDataResponseSchema } from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import {
  type TaskExecution,
  type TaskExecutionListRequest,
  TaskExecutionListRequestSchema,
} from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import {
  type Identifier,
  type NodeExecutionIdentifier,
  NodeExecutionIdentifierSchema,
  ResourceType,
  type TaskExecutionIdentifier,
  type WorkflowExecutionIdentifier,
} from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import {
  executionJoin,
  type ExecutionRow,
  NODE_EXECUTION_TABLE,
  type NodeRow,
  TASK_EXECUTION_TABLE,
  TASK_TABLE,
  type TaskRow,
} from "./execution_columns.ts";
import {
  type FilterSchema,
  matchesFilters,
  pageOf,
  parseOffsetToken,
  parseRequestFilters,
  requireLimit,
  sortComparator,
} from "./execution_filters.ts";
import type { PhaseAt } from "./execution_lifecycle.ts";
import {
  describeExecution,
  executionDataPrefix,
  executionOutputs,
  type ExecutionRecord,
  requireNodeExecutionId,
} from "./execution_record.ts";
import { goText } from "./go_text.ts";
import { requireFullId } from "./identifiers.ts";
import {
  nodeExecutionMessage,
  nodeOutputs,
  nodePhaseAt,
  planError,
  type PlannedNode,
  taskExecutionMessages,
} from "./node_executions.ts";
import { invalidArgument as invalid } from "./shared_validation.ts";

const NODE_SCHEMA: FilterSchema<NodeRow> = { primary: NODE_EXECUTION_TABLE, joins: [executionJoin<NodeRow>()] };
const TASK_SCHEMA: FilterSchema<TaskRow> = {
  primary: TASK_EXECUTION_TABLE,
  joins: [
    TASK_TABLE as unknown as typeof TASK_EXECUTION_TABLE,
    executionJoin<TaskRow>(),
    { ...NODE_EXECUTION_TABLE, read: (row, column) => NODE_EXECUTION_TABLE.read(row.node, column) },
  ],
};

/** What the reads need of the executions (`executions.ts` gives it). */
export interface ExecutionView {
  /** The execution of exactly this project, domain and name, if any. */
  find(id: { project: string; domain: string; name: string }): ExecutionRecord | undefined;
  /** Every execution, in creation order. */
  records(): Iterable<ExecutionRecord>;
  /** The sandbox's time, in nanoseconds. */
  nowNs(): bigint;
  /** The execution's row for FlyteAdmin's filters and sort keys, at `now`. */
  row(record: ExecutionRecord, now: bigint): ExecutionRow;
  /** The stored task of `id`, if any. */
  findTask(id: Identifier): Task | undefined;
}

/** The node and task execution reads over the executions of `view`. */
export class NodeExecutionReads {
  readonly #view: ExecutionView;

  constructor(view: ExecutionView) {
    this.#view = view;
  }

  /** One page of ListNodeExecutions: top-level nodes, or the children of `unique_parent_id`. */
  listNodeExecutions(request: NodeExecutionListRequest): { nodeExecutions: NodeExecution[]; token: string } {
    const executionId = request.workflowExecutionId;
    if (!executionId || !executionId.project || !executionId.domain || !executionId.name) {
      throw invalid("missing execution_id");
    }
    requireLimit(request.limit);
    const record = this.#view.find(executionId);
    const now = this.#view.nowNs();
    if (request.uniqueParentId !== "") {
      this.startedNode(record, { executionId, nodeId: request.uniqueParentId }, now);
    }
    const filters = parseRequestFilters(request.filters, NODE_SCHEMA, this.#view.nowNs());
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
        nodeExecutionMessage(record.id, node, state, record.plan, executionDataPrefix(record))
      ),
      token: page.token,
    };
  }

  /** A node execution, or NOT_FOUND (also before the node starts). */
  getNodeExecution(id: NodeExecutionIdentifier | undefined): NodeExecution {
    // FlyteAdmin validates this identifier but only logs a bad one: the lookup then answers NOT_FOUND.
    const nodeId = { executionId: id?.executionId, nodeId: id?.nodeId ?? "" };
    const record = nodeId.executionId && this.#view.find(nodeId.executionId);
    const { node, state } = this.startedNode(record, nodeId, this.#view.nowNs());
    return nodeExecutionMessage(record!.id, node, state, record!.plan, executionDataPrefix(record!));
  }

  /** A node execution's inputs and outputs. */
  getNodeExecutionData(id: NodeExecutionIdentifier | undefined): NodeExecutionGetDataResponse {
    // FlyteAdmin validates this identifier but only logs a bad one: the lookup then answers NOT_FOUND.
    const nodeId = { executionId: id?.executionId, nodeId: id?.nodeId ?? "" };
    const record = nodeId.executionId && this.#view.find(nodeId.executionId);
    const { node, state } = this.startedNode(record, nodeId, this.#view.nowNs());
    const inputs = record!.launch.inputs;
    if (node.nodeId === "start-node") return create(NodeExecutionGetDataResponseSchema, { fullOutputs: inputs });
    if (node.nodeId === "end-node") {
      return create(NodeExecutionGetDataResponseSchema, { fullInputs: executionOutputs(record!) });
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
    const filters = parseRequestFilters(request.filters, TASK_SCHEMA, this.#view.nowNs());
    const compare = sortComparator(request.sortBy, TASK_EXECUTION_TABLE);
    const offset = parseOffsetToken(request.token, "ListTaskExecutions");
    const record = this.#view.find(nodeId.executionId!);
    if (!record) return { taskExecutions: [], token: "" };
    const now = this.#view.nowNs();
    const started = this.#startedNodes(record, now).find(({ node }) => node.nodeId === nodeId.nodeId);
    if (!started) return { taskExecutions: [], token: "" };
    const messages = taskExecutionMessages(
      { executionId: record.id, nodeId: started.node.nodeId },
      started.node,
      record.termination,
      now,
      record.plan,
      executionDataPrefix(record),
    );
    const rows = messages.map(({ message, state, createdNs }) => ({
      message,
      row: {
        execution: started.row.execution,
        node: started.row,
        task: this.#view.findTask(message.id!.taskId!),
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

  /**
   * The `id` FlyteAdmin's `node_executions` row of each node started by `now` has, by execution and unique node id:
   * rows are numbered across all executions in the order their first events arrive, so by start, then by
   * execution and node order (a parent before its first child, which starts with it).
   */
  #nodeRowIds(now: bigint): Map<number, Map<string, number>> {
    const started = [...this.#view.records()].flatMap((record) =>
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
    const execution = this.#view.row(record, now);
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

  /** The node execution of `id` once its node has started, or NOT_FOUND. */
  startedNode(
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
}

/**
 * Node and task executions of a sandbox execution, derived from its workflow's compiled nodes as the propeller
 * would report them: `start-node`, then each node in turn (a sub-workflow node's nodes, or a branch node's first
 * case, as its children), then `end-node` when the workflow succeeds. Only a sub-workflow node is marked a parent
 * (`is_parent_node`), as flytepropeller marks them: a branch node's case is listed under its id all the same, but
 * `get execution --details` stops at the branch, as flytectl's does against FlyteAdmin; an array node is marked an
 * array. Each node execution's id is the one
 * flytepropeller reports (`node_execution_ids.ts`): a child's is `<parent's id>-0-<its id>`, where a branch's case
 * has the id the compiler gave it (`<branch>-<node>`, `connections.ts`), so that the first case `n0` of branch `b0`
 * runs as `b0-0-b0-n0`; an id longer than 20 characters is hashed. A task attempt's log link names its pod as
 * flytepropeller names it (`taskExecutionName`: `<execution>-<node id>-<attempt>`, hashed past 50). Nodes share the execution's running time
 * equally; the last one carries a failure; a task node's attempts share its time, the earlier ones failing.
 *
 * @module
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { type NodeExecution, NodeExecutionSchema } from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import { type TaskExecution, TaskExecutionSchema } from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import type { CompiledTask, CompiledWorkflowClosure } from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import {
  ExecutionError_ErrorKind,
  NodeExecution_Phase,
  TaskExecution_Phase,
} from "../../proto/gen/flyteidl/core/execution_pb.ts";
import {
  type Identifier,
  type NodeExecutionIdentifier,
  ResourceType,
  type WorkflowExecutionIdentifier,
} from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import type { LiteralMapSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { Node } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { END_NODE, START_NODE } from "./connections.ts";
import { defaultLiterals } from "./default_literals.ts";
import { idKey } from "./identifiers.ts";
import { taskExecutionName, uniqueNodeId } from "./node_execution_ids.ts";
import {
  type PhaseAt,
  type ResolvedPlan,
  type Span,
  spanPhaseAt,
  splitSpan,
  type Termination,
} from "./execution_lifecycle.ts";
import { timestampFromNs } from "./time.ts";

/** A node of an execution, laid out in time. */
export interface PlannedNode {
  /** The node execution's id: flytepropeller's unique id of the node (`uniqueNodeId`). */
  nodeId: string;
  /** The node's id in its workflow template. */
  specNodeId: string;
  /** The unique id of the parent node, for nodes of a sub-workflow. */
  parentId?: string;
  /** Whether FlyteAdmin's metadata says so: a sub-workflow node's execution. */
  isParentNode: boolean;
  /** Whether it is an array node's execution. */
  isArray?: boolean;
  span: Span;
  /** The task a task node runs. */
  task?: CompiledTask;
  /** Each attempt's span, for task nodes. */
  attempts: Span[];
  /** What the node produces when it succeeds. */
  outputs?: VariableMap;
}

/** What laying out needs of an execution. */
export interface NodeLayoutInput {
  closure: CompiledWorkflowClosure | undefined;
  span: Span;
  plan: ResolvedPlan;
}

/** Every node an execution runs, in the order they start. */
export function layoutNodes(input: NodeLayoutInput): PlannedNode[] {
  const { closure, span, plan } = input;
  const tasks = new Map((closure?.tasks ?? []).flatMap((task) => {
    const id = task.template?.id;
    return id ? [[idKey(id), task] as const] : [];
  }));
  const subWorkflows = new Map((closure?.subWorkflows ?? []).flatMap((workflow) => {
    const id = workflow.template?.id;
    return id ? [[idKey(id), workflow.template!.nodes] as const] : [];
  }));
  const planned: PlannedNode[] = [{
    nodeId: "start-node",
    specNodeId: "start-node",
    isParentNode: false,
    span: { startNs: span.startNs, endNs: span.startNs, result: "SUCCEEDED" },
    attempts: [],
  }];
  const visit = (compiledNodes: Node[], within: Span, parentId: string | undefined, depth: number) => {
    // The compiled start and end nodes are not run: the execution's own start and end stand for them.
    const nodes = compiledNodes.filter((node) => node.id !== START_NODE && node.id !== END_NODE);
    const parts = splitSpan(within, nodes.length);
    parts.forEach((part, i) => {
      const node = nodes[i];
      const last = i === nodes.length - 1;
      const nodeSpan: Span = { ...part, result: last ? within.result : "SUCCEEDED" };
      // The sandbox runs every node once: its children run in the parent's attempt 0.
      const nodeId = uniqueNodeId(parentId, 0, node.id);
      const target = node.target;
      const children = childNodes(node, subWorkflows);
      const task = target.case === "taskNode" && target.value.reference.case === "referenceId"
        ? tasks.get(idKey(target.value.reference.value))
        : undefined;
      planned.push({
        nodeId,
        specNodeId: node.id,
        parentId,
        // flytepropeller marks a node a parent only when it runs a sub-workflow (a branch's case is its child all the
        // same, listed under its id), and an array node as an array, not a parent (`ArrayNode.EventVersion` 0).
        isParentNode: target.case === "workflowNode" && target.value.reference.case === "subWorkflowRef",
        isArray: target.case === "arrayNode",
        span: nodeSpan,
        task,
        attempts: task ? attemptSpans(nodeSpan, plan.attempts) : [],
        outputs: task?.template?.interface?.outputs,
      });
      // Deeply nested sub-workflows are laid out like any other; the depth only guards against a cycle.
      if (children.length > 0 && depth < 10) visit(children, nodeSpan, nodeId, depth + 1);
    });
  };
  visit(closure?.primary?.template?.nodes ?? [], span, undefined, 0);
  if (span.endNs !== null && span.result === "SUCCEEDED") {
    planned.push({
      nodeId: "end-node",
      specNodeId: "end-node",
      isParentNode: false,
      span: { startNs: span.endNs, endNs: span.endNs, result: "SUCCEEDED" },
      attempts: [],
    });
  }
  return planned;
}

/**
 * The nodes a node runs below it: a sub-workflow's nodes, or a branch's first case (the sandbox evaluates no
 * conditions).
 */
function childNodes(node: Node, subWorkflows: Map<string, Node[]>): Node[] {
  const target = node.target;
  if (target.case === "workflowNode" && target.value.reference.case === "subWorkflowRef") {
    return subWorkflows.get(idKey(target.value.reference.value)) ?? [];
  }
  const taken = target.case === "branchNode" ? target.value.ifElse?.case?.thenNode : undefined;
  return taken ? [taken] : [];
}

function attemptSpans(span: Span, attempts: number): Span[] {
  const parts = splitSpan(span, attempts);
  return parts.map((part, i) => ({ ...part, result: i === parts.length - 1 ? span.result : "FAILED" }));
}

function durationBetween(fromNs: bigint | undefined, toNs: bigint | undefined): Duration | undefined {
  if (fromNs === undefined || toNs === undefined) return undefined;
  const ns = toNs - fromNs;
  return create(DurationSchema, { seconds: ns / 1_000_000_000n, nanos: Number(ns % 1_000_000_000n) });
}

/** The closure times of something at a phase. */
function times(state: PhaseAt, createdNs: bigint) {
  return {
    createdAt: timestampFromNs(createdNs),
    updatedAt: timestampFromNs(state.updatedNs),
    startedAt: state.startedNs === undefined ? undefined : timestampFromNs(state.startedNs),
    duration: state.endedNs === undefined ? undefined : durationBetween(state.startedNs, state.endedNs),
  };
}

/** The error a failed node or attempt reports. */
export function planError(plan: ResolvedPlan, message = plan.message) {
  return {
    code: plan.errorKind === "USER" ? "USER:Unknown" : "SYSTEM:Unknown",
    message,
    kind: plan.errorKind === "USER" ? ExecutionError_ErrorKind.USER : ExecutionError_ErrorKind.SYSTEM,
  };
}

/** A node's state at `nowNs`, or undefined before it starts. */
export function nodePhaseAt(node: PlannedNode, termination: Termination | undefined, nowNs: bigint) {
  return spanPhaseAt(node.span, termination, nowNs);
}

/** The NodeExecution message of a started node. */
export function nodeExecutionMessage(
  executionId: WorkflowExecutionIdentifier,
  node: PlannedNode,
  state: PhaseAt,
  plan: ResolvedPlan,
  dataPrefix: string,
): NodeExecution {
  const failed = state.phase === "FAILED";
  return create(NodeExecutionSchema, {
    id: { executionId, nodeId: node.nodeId },
    inputUri: `${dataPrefix}/${node.nodeId}/data/inputs.pb`,
    closure: {
      phase: NodeExecution_Phase[state.phase as keyof typeof NodeExecution_Phase],
      ...times(state, node.span.startNs),
      outputResult: failed
        ? { case: "error", value: planError(plan) }
        : state.phase === "SUCCEEDED" && node.outputs
        ? { case: "outputUri", value: `${dataPrefix}/${node.nodeId}/data/0/outputs.pb` }
        : { case: undefined },
    },
    metadata: {
      retryGroup: node.parentId ? "0" : "",
      specNodeId: node.specNodeId,
      isParentNode: node.isParentNode,
      isArray: node.isArray ?? false,
    },
  });
}

/** The data of a started node: its inputs (the execution's for start-node and top-level nodes) and outputs. */
export function nodeOutputs(node: PlannedNode, state: PhaseAt): MessageInitShape<typeof LiteralMapSchema> {
  return state.phase === "SUCCEEDED" && node.outputs ? defaultLiterals(node.outputs) : {};
}

/** The task attempts of a task node that have started by `nowNs`, with their states and creation times. */
export function taskExecutionMessages(
  nodeExecutionId: Pick<NodeExecutionIdentifier, "executionId" | "nodeId">,
  node: PlannedNode,
  termination: Termination | undefined,
  nowNs: bigint,
  plan: ResolvedPlan,
  dataPrefix: string,
): { message: TaskExecution; state: PhaseAt; createdNs: bigint }[] {
  const taskId: Identifier | undefined = node.task?.template?.id;
  if (!taskId) return [];
  const messages: { message: TaskExecution; state: PhaseAt; createdNs: bigint }[] = [];
  node.attempts.forEach((attempt, retryAttempt) => {
    const state = spanPhaseAt(attempt, termination, nowNs);
    if (!state) return;
    const podName = taskExecutionName(nodeExecutionId.executionId?.name ?? "", node.nodeId, retryAttempt);
    const namespace = `${nodeExecutionId.executionId?.project}-${nodeExecutionId.executionId?.domain}`;
    const last = retryAttempt === node.attempts.length - 1;
    const message = create(TaskExecutionSchema, {
      id: { taskId: { ...taskId, resourceType: ResourceType.TASK }, nodeExecutionId, retryAttempt },
      inputUri: `${dataPrefix}/${node.nodeId}/data/inputs.pb`,
      isParent: false,
      closure: {
        phase: TaskExecution_Phase[state.phase as keyof typeof TaskExecution_Phase],
        ...times(state, attempt.startNs),
        taskType: node.task?.template?.type ?? "",
        logs: [{
          name: "Kubernetes Logs (User)",
          uri: `http://localhost:30082/#!/log/${namespace}/${podName}/pod?namespace=${namespace}`,
        }],
        outputResult: state.phase === "FAILED"
          ? { case: "error", value: planError(plan, last ? plan.message : `attempt ${retryAttempt + 1} failed`) }
          : state.phase === "SUCCEEDED" && node.outputs
          ? { case: "outputUri", value: `${dataPrefix}/${node.nodeId}/data/${retryAttempt}/outputs.pb` }
          : { case: undefined },
      },
    });
    messages.push({ message, state, createdNs: attempt.startNs });
  });
  return messages;
}

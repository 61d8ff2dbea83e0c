/**
 * `executionDetails`: an execution's node tree, as flytectl's `get execution --details` reads it, with fctl's fixes:
 * every page of node and task executions is read (flytectl reads only the first 100 of each), and `nodeId` naming no
 * node is an error naming the node ids that exist.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { OperationError, quote } from "../errors.ts";
import type { NodeExecution } from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import type { TaskExecution } from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import type { LiteralMap } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type ExecutionName, getExecution } from "./get_execution.ts";

/** The page size of each list call, flytectl's. */
const PAGE = 100;
/** Nodes of one level read at once: a wide workflow takes a few round trips, not one per node in turn. */
const NODES_AT_ONCE = 8;

/**
 * One node of an execution's tree: a parent node (a sub-workflow, a branch) has child nodes; any other node has its
 * task executions (attempts, by retry attempt), inputs and outputs.
 *
 * ```ts
 * import { connect, executionDetails, type NodeDetails } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const nodes: NodeDetails[] = await executionDetails(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: "f8a1b2c3d4",
 * });
 * for (const node of nodes) console.log(node.nodeExecution.id?.nodeId, node.taskExecutions.length);
 * ```
 */
export interface NodeDetails {
  /** The node execution, its closure holding phase and times. */
  nodeExecution: NodeExecution;
  /** The nodes below a parent node, by creation time. */
  childNodes: NodeDetails[];
  /** The node's task attempts, by retry attempt. */
  taskExecutions: TaskExecution[];
  /** The node's inputs (GetNodeExecutionData's `fullInputs`). */
  inputs?: LiteralMap;
  /** The node's outputs (GetNodeExecutionData's `fullOutputs`). */
  outputs?: LiteralMap;
}

/**
 * What to read besides the execution's name.
 *
 * ```ts
 * import type { ExecutionDetailsOptions } from "@fctl/fctl";
 *
 * const options: ExecutionDetailsOptions = { nodeId: "n0" };
 * console.log(options.nodeId);
 * ```
 */
export interface ExecutionDetailsOptions {
  /** Only this node (found at any depth, by its unique node id). */
  nodeId?: string;
  /** Cancels the calls. */
  signal?: AbortSignal;
}

/** A time in nanoseconds for sorting; a missing one sorts first. */
function timeNs(ts: { seconds: bigint; nanos: number } | undefined): bigint {
  return ts ? ts.seconds * 1_000_000_000n + BigInt(ts.nanos) : -1n;
}

/** Every page of a listing, following the admin's tokens. */
async function allPages<T>(list: (token: string) => Promise<{ items: T[]; token: string }>): Promise<T[]> {
  const items: T[] = [];
  let token = "";
  do {
    const page = await list(token);
    items.push(...page.items);
    // A token that does not move would loop for ever: FlyteAdmin's never repeats, another server's might.
    if (page.token === token || page.items.length === 0) break;
    token = page.token;
  } while (token !== "");
  return items;
}

/** `fn` of each item, at most `limit` at once, results in the items' order; after a failure none is started. */
async function mapInOrder<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The nodes below `parentId` ("" for the top level), each with its children or attempts and data. */
async function readNodes(
  client: AdminClient,
  id: ExecutionName,
  parentId: string,
  signal: AbortSignal | undefined,
): Promise<NodeDetails[]> {
  const nodes = await allPages(async (token) => {
    const response = await client.admin.listNodeExecutions(
      { workflowExecutionId: id, uniqueParentId: parentId, limit: PAGE, token },
      { signal },
    );
    return { items: response.nodeExecutions, token: response.token };
  });
  nodes.sort((a, b) => Number(timeNs(a.closure?.createdAt) - timeNs(b.closure?.createdAt)));
  return await mapInOrder(nodes, NODES_AT_ONCE, (nodeExecution) => readNode(client, id, nodeExecution, signal));
}

/** One node: a parent node's children; any other node's attempts and data. */
async function readNode(
  client: AdminClient,
  id: ExecutionName,
  nodeExecution: NodeExecution,
  signal: AbortSignal | undefined,
): Promise<NodeDetails> {
  const nodeId = nodeExecution.id?.nodeId ?? "";
  if (nodeExecution.metadata?.isParentNode) {
    return { nodeExecution, childNodes: await readNodes(client, id, nodeId, signal), taskExecutions: [] };
  }
  const nodeExecutionId = { executionId: id, nodeId };
  const [taskExecutions, data] = await Promise.all([
    allPages(async (token) => {
      const response = await client.admin.listTaskExecutions({ nodeExecutionId, limit: PAGE, token }, { signal });
      return { items: response.taskExecutions, token: response.token };
    }),
    client.admin.getNodeExecutionData({ id: nodeExecutionId }, { signal }),
  ]);
  taskExecutions.sort((a, b) => (a.id?.retryAttempt ?? 0) - (b.id?.retryAttempt ?? 0));
  return { nodeExecution, childNodes: [], taskExecutions, inputs: data.fullInputs, outputs: data.fullOutputs };
}

/** Every node id of the tree, depth first. */
function nodeIds(nodes: NodeDetails[]): string[] {
  return nodes.flatMap((node) => [node.nodeExecution.id?.nodeId ?? "", ...nodeIds(node.childNodes)]);
}

/** The node of `nodeId`, at any depth. */
function findNode(nodes: NodeDetails[], nodeId: string): NodeDetails | undefined {
  for (const node of nodes) {
    if (node.nodeExecution.id?.nodeId === nodeId) return node;
    const below = findNode(node.childNodes, nodeId);
    if (below) return below;
  }
  return undefined;
}

/**
 * Reads an execution's node tree: its nodes by creation time, a parent node's children below it, every other node's
 * task attempts with their logs, and its inputs and outputs. Checks first that the execution exists.
 *
 * ```ts
 * import { connect, executionDetails } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const id = { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" };
 * const [node] = await executionDetails(flyte.client, id, { nodeId: "n0" });
 * console.log(node.taskExecutions.map((attempt) => attempt.closure?.phase));
 * ```
 *
 * @throws {NotFoundError} no such execution
 * @throws {OperationError} `nodeId` names no node of the execution (the message lists those it has)
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export async function executionDetails(
  client: AdminClient,
  id: ExecutionName,
  options: ExecutionDetailsOptions = {},
): Promise<NodeDetails[]> {
  await getExecution(client, id, options.signal);
  const nodes = await readNodes(client, { project: id.project, domain: id.domain, name: id.name }, "", options.signal);
  if (options.nodeId === undefined) return nodes;
  const node = findNode(nodes, options.nodeId);
  if (node) return [node];
  const ids = nodeIds(nodes);
  throw new OperationError(
    `node ${quote(options.nodeId)} not found in execution ${quote(id.name)}: ` +
      (ids.length ? `its nodes are ${ids.join(", ")}` : "it has no nodes yet"),
  );
}

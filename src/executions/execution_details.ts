/**
 * `executionDetails`: an execution's node tree, as flytectl's `get execution --details` reads it, with fctl's fixes:
 * every page of node and task executions is read (flytectl reads only the first 100 of each), and `nodeId` naming no
 * node is an error naming the node ids that exist. What the admin answers is bounded: a listing that repeats a page
 * token, a node listed below itself, nesting deeper than {@link MAX_DEPTH} levels and a tree of more than
 * {@link MAX_EXECUTIONS} node and task executions are errors, where a broken or hostile server would otherwise keep
 * fctl reading (and holding what it read) for ever.
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
 * The most node and task executions one tree is read to. Far beyond a real execution's (a dynamic workflow of
 * thousands of tasks has thousands of each), and small enough to hold in memory.
 */
export const MAX_EXECUTIONS = 100_000;
/**
 * The deepest nesting of parent nodes read. Each level costs a round trip; real executions nest sub-workflows,
 * branches and dynamic workflows a few levels deep, recursive dynamic workflows perhaps some dozens.
 */
export const MAX_DEPTH = 1_000;

/** What one read of a tree has read so far, and where: the bounds' state. */
interface TreeRead {
  client: AdminClient;
  id: ExecutionName;
  signal: AbortSignal | undefined;
  /** Node and task executions read so far. */
  executions: number;
}

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

/**
 * Every page of a listing, following the admin's tokens; `what` names the listing in errors. A token that comes
 * back would loop for ever (FlyteAdmin's never do); the executions read count against {@link MAX_EXECUTIONS}.
 */
async function allPages<T>(
  read: TreeRead,
  what: string,
  list: (token: string) => Promise<{ items: T[]; token: string }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let token = "";
  for (;;) {
    const page = await list(token);
    items.push(...page.items);
    read.executions += page.items.length;
    if (read.executions > MAX_EXECUTIONS) {
      throw new OperationError(
        `execution ${quote(read.id.name)} has more than ${MAX_EXECUTIONS} node and task executions: ` +
          `the most fctl reads for its details`,
      );
    }
    if (page.token === "" || page.items.length === 0) break;
    if (seen.has(page.token)) {
      throw new OperationError(
        `the admin answered page token ${quote(page.token)} of ${what} of execution ${quote(read.id.name)} ` +
          `a second time: a listing that repeats its tokens never ends`,
      );
    }
    seen.add(page.token);
    token = page.token;
  }
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

/**
 * The nodes below the last of `ancestors` (the node ids from the top; none for the top level), each with its
 * children or attempts and data.
 */
async function readNodes(read: TreeRead, ancestors: readonly string[]): Promise<NodeDetails[]> {
  const parentId = ancestors.at(-1) ?? "";
  const below = parentId === "" ? "the top level" : `node ${quote(parentId)}`;
  const nodes = await allPages(read, `the nodes below ${below}`, async (token) => {
    const response = await read.client.admin.listNodeExecutions(
      { workflowExecutionId: read.id, uniqueParentId: parentId, limit: PAGE, token },
      { signal: read.signal },
    );
    return { items: response.nodeExecutions, token: response.token };
  });
  nodes.sort((a, b) => Number(timeNs(a.closure?.createdAt) - timeNs(b.closure?.createdAt)));
  return await mapInOrder(nodes, NODES_AT_ONCE, (nodeExecution) => readNode(read, ancestors, nodeExecution));
}

/** One node below `ancestors`: a parent node's children; any other node's attempts and data. */
async function readNode(
  read: TreeRead,
  ancestors: readonly string[],
  nodeExecution: NodeExecution,
): Promise<NodeDetails> {
  const nodeId = nodeExecution.id?.nodeId ?? "";
  if (nodeExecution.metadata?.isParentNode) {
    // Node ids are unique in an execution (flytepropeller prefixes a nested node's with its parents'), so a node
    // among its own ancestors is a loop, which would be listed level after level for ever.
    if (ancestors.includes(nodeId)) {
      throw new OperationError(
        `the admin listed node ${quote(nodeId)} of execution ${quote(read.id.name)} below itself ` +
          `(${[...ancestors, nodeId].join(" > ")})`,
      );
    }
    if (ancestors.length >= MAX_DEPTH) {
      throw new OperationError(
        `execution ${quote(read.id.name)} nests its nodes more than ${MAX_DEPTH} levels deep ` +
          `(at node ${quote(nodeId)}): the deepest fctl reads for its details`,
      );
    }
    return { nodeExecution, childNodes: await readNodes(read, [...ancestors, nodeId]), taskExecutions: [] };
  }
  const nodeExecutionId = { executionId: read.id, nodeId };
  const [taskExecutions, data] = await Promise.all([
    allPages(read, `the task executions of node ${quote(nodeId)}`, async (token) => {
      const response = await read.client.admin.listTaskExecutions(
        { nodeExecutionId, limit: PAGE, token },
        { signal: read.signal },
      );
      return { items: response.taskExecutions, token: response.token };
    }),
    read.client.admin.getNodeExecutionData({ id: nodeExecutionId }, { signal: read.signal }),
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
 * @throws {OperationError} `nodeId` names no node of the execution (the message lists those it has), or the admin's
 *   answers pass a bound (a repeated page token, a node below itself, more than {@link MAX_DEPTH} levels or
 *   {@link MAX_EXECUTIONS} executions)
 * @throws {AdminError} any other call the admin refused, or that could not be made
 */
export async function executionDetails(
  client: AdminClient,
  id: ExecutionName,
  options: ExecutionDetailsOptions = {},
): Promise<NodeDetails[]> {
  await getExecution(client, id, options.signal);
  const name = { project: id.project, domain: id.domain, name: id.name };
  const nodes = await readNodes({ client, id: name, signal: options.signal, executions: 0 }, []);
  if (options.nodeId === undefined) return nodes;
  const node = findNode(nodes, options.nodeId);
  if (node) return [node];
  const ids = nodeIds(nodes);
  throw new OperationError(
    `node ${quote(options.nodeId)} not found in execution ${quote(id.name)}: ` +
      (ids.length ? `its nodes are ${ids.join(", ")}` : "it has no nodes yet"),
  );
}

/**
 * A workflow's graph as Graphviz DOT (`get workflow -o dot`), drawn from its compiled closure the way flytectl
 * draws it: start and end nodes, a box per task, a cluster with a diamond per branch (edges labelled with the
 * conditions), a cluster per sub-workflow, edges from the compiled connections. Where flytectl panics (launch-plan,
 * gate and array nodes) fctl draws a box naming the node and its kind.
 *
 * Other differences from flytectl, each so that the same workflow always gives the same, valid DOT:
 * - edges are sorted by (from, to) (flytectl writes them in Go's random map order);
 * - `lhead`/`ltail` only on an edge that enters or leaves a cluster (flytectl also writes `lhead=""` on edges
 *   of top-level tasks: it records clusters under names it looks up differently);
 * - identifiers and labels are quoted and escaped as DOT needs (flytectl writes them raw: a quote breaks the file);
 * - a branch's error box sits in the branch's cluster; branch clusters inside sub-workflows are prefixed like
 *   their nodes; a case node whose id is a workflow node's gets its own name (see `#drawNode`; Flyte's compiler
 *   stores cases as `<branch>-<node>`, so only a closure it did not compile has such a case).
 *
 * The closure comes from the admin, so its drawing is bounded: a sub-workflow that runs itself (which Flyte's compiler
 * refuses) is an error, as is a graph of more than {@link MAX_GRAPH_NODES} nodes (a sub-workflow is drawn once per node
 * that runs it, so a small closure of sub-workflows each running the next twice would otherwise draw billions).
 *
 * @module
 */
import type {
  CompiledTask,
  CompiledWorkflow,
  CompiledWorkflowClosure,
} from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Node } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { OperationError } from "../errors.ts";
import { conditionText } from "./condition_text.ts";
import { type DotAttributes, DotDocument } from "./dot_document.ts";

/** The most nodes one DOT text holds: far more than a person can read, few enough to write. */
export const MAX_GRAPH_NODES = 100_000;
/**
 * The most nodes fctl lays out and draws itself (`-o svg`): Graphviz lays out a tree of 6,000 in about 3 s on one
 * core, without a way to interrupt it, and a tree of 20,000 exhausts its stack.
 */
export const MAX_DRAWN_NODES = 5_000;

const START_NODE = "start-node";
const END_NODE = "end-node";
const CLUSTER_PREFIX = "cluster_";

/** What one (sub-)workflow's drawing knows: its nodes by Flyte id, and which cluster each drawn node sits in. */
interface Scope {
  /** Flyte node id → the DOT node that stands for it (a sub-workflow node: its start node). */
  drawn: Map<string, string>;
  /** DOT node → the cluster it is drawn in (`""`: the graph itself). */
  clusterOf: Map<string, string>;
}

const box = (label: string): DotAttributes => ({ shape: { text: "box" }, label: { text: label, quoted: true } });

function identifierKey(id: Identifier | undefined): string {
  return JSON.stringify([id?.resourceType ?? 0, id?.project, id?.domain, id?.name, id?.version]);
}

function describe(id: Identifier | undefined): string {
  return id ? `${id.project}/${id.domain}/${id.name} version ${id.version}` : "(no identifier)";
}

/** `-` becomes `_` in DOT names (flytectl's rule, so `start-node` is `start_node`). */
const sanitize = (name: string) => name.replaceAll("-", "_");
const prefixed = (prefix: string, id: string) => prefix ? `${prefix}_${id}` : id;

class GraphBuilder {
  readonly dot = new DotDocument();
  readonly #tasks = new Map<string, CompiledTask>();
  readonly #subWorkflows = new Map<string, CompiledWorkflow>();
  /** The DOT names of every workflow's own nodes, which a branch's inner node must not take. */
  readonly #reserved = new Set<string>();
  /** The sub-workflows being drawn, outermost first (by {@link identifierKey}). */
  readonly #drawing: string[] = [];
  /** Nodes drawn so far, against {@link maxNodes}. */
  #nodes = 0;

  constructor(closure: CompiledWorkflowClosure, readonly maxNodes: number) {
    // A task or sub-workflow without a template id cannot be referenced: a node naming it fails below.
    for (const task of closure.tasks) if (task.template?.id) this.#tasks.set(identifierKey(task.template.id), task);
    for (const sub of closure.subWorkflows) {
      if (sub.template?.id) this.#subWorkflows.set(identifierKey(sub.template.id), sub);
    }
  }

  /** Draws `workflow` inside `cluster`, its DOT names prefixed with `prefix`; returns the scope it drew. */
  drawWorkflow(cluster: string, prefix: string, workflow: CompiledWorkflow): Scope {
    const scope: Scope = { drawn: new Map(), clusterOf: new Map() };
    const nodes = workflow.template?.nodes ?? [];
    for (const node of nodes) this.#reserved.add(sanitize(prefixed(prefix, node.id)));
    for (const node of nodes) this.#drawNode(cluster, prefix, node, scope);
    const connections = workflow.connections;
    for (const id of [...scope.drawn.keys()]) {
      for (const to of connections?.downstream[id]?.ids ?? []) this.#connect(cluster, id, to, scope);
      for (const from of connections?.upstream[id]?.ids ?? []) this.#connect(cluster, from, id, scope);
    }
    return scope;
  }

  /**
   * An edge of the compiled connections. An end that sits in another cluster than the edge's own (a branch, a
   * sub-workflow) is named in `lhead`/`ltail`, so a renderer with `compound=true` can end the edge at the cluster.
   */
  #connect(cluster: string, fromId: string, toId: string, scope: Scope): void {
    const from = scope.drawn.get(fromId);
    const to = scope.drawn.get(toId);
    if (from === undefined || to === undefined) {
      const missing = from === undefined ? fromId : toId;
      throw new OperationError(
        `the workflow's connection ${JSON.stringify(fromId)} -> ${JSON.stringify(toId)} names node ` +
          `${JSON.stringify(missing)}, which the workflow does not have`,
      );
    }
    if (this.dot.hasEdge(from, to)) return;
    const attributes: DotAttributes = {};
    const tail = scope.clusterOf.get(from);
    const head = scope.clusterOf.get(to);
    if (tail && tail !== cluster) attributes.ltail = { text: tail, quoted: true };
    if (head && head !== cluster) attributes.lhead = { text: head, quoted: true };
    this.dot.addEdge(from, to, attributes);
  }

  /**
   * Draws one node; `branch` is the diamond of the branch that holds it, if any. flytekit numbers a branch's cases
   * like the workflow's own nodes (`n0` inside `n0`), which Flyte's compiler renames `<branch>-<node>`; a closure it
   * did not compile may keep them, and such a case is named after its branch instead (`n0_n0`), where flytectl
   * would draw the two as one.
   */
  #drawNode(cluster: string, prefix: string, node: Node, scope: Scope, branch?: string): string {
    if (++this.#nodes > this.maxNodes) {
      throw new OperationError(
        `the workflow's graph has more than ${this.maxNodes} nodes (a sub-workflow is drawn once for each node ` +
          `that runs it): too many to draw` +
          (this.maxNodes < MAX_GRAPH_NODES
            ? `; -o dot writes up to ${MAX_GRAPH_NODES} for a Graphviz of your own`
            : ""),
      );
    }
    let name = sanitize(prefixed(prefix, node.id));
    if (branch !== undefined && (this.#reserved.has(name) || this.dot.hasNode(name))) name = `${branch}_${name}`;
    let drawn = name;
    let drawnIn = cluster;
    if (node.id === START_NODE || node.id === END_NODE) {
      const start = node.id === START_NODE;
      this.dot.addNode(cluster, name, {
        shape: { text: "doublecircle" },
        color: { text: start ? "green" : "red" },
        label: { text: start ? "start" : "end" },
      });
    } else {
      const target = node.target;
      switch (target.case) {
        case "taskNode": {
          const ref = target.value.reference.case === "referenceId" ? target.value.reference.value : undefined;
          const task = this.#tasks.get(identifierKey(ref));
          if (!task) throw new OperationError(`failed to find task [${describe(ref)}] in closure`);
          const attributes: DotAttributes = { shape: { text: "box" } };
          const label = node.metadata?.name;
          if (label) {
            const short = label.slice(label.lastIndexOf(".") + 1);
            attributes.label = { text: `${short} [${task.template?.type ?? ""}]`, quoted: true };
          }
          this.dot.addNode(cluster, name, attributes);
          break;
        }
        case "branchNode": {
          // Prefixed inside sub-workflows (flytectl does not, and merges two drawings of one sub-workflow).
          const clusterLabel = sanitize(prefixed(prefix, node.metadata?.name || node.id));
          drawnIn = `${CLUSTER_PREFIX}${clusterLabel}`;
          this.dot.addSubgraph(cluster, drawnIn, { label: { text: clusterLabel } });
          this.#drawBranch(drawnIn, prefix, node, name, scope);
          break;
        }
        case "workflowNode": {
          const reference = target.value.reference;
          if (reference.case === "launchplanRef") {
            this.dot.addNode(cluster, name, box(`${node.id} [launch plan]`));
            break;
          }
          const sub = reference.case === "subWorkflowRef"
            ? this.#subWorkflows.get(identifierKey(reference.value))
            : undefined;
          if (!sub) throw new OperationError(`sub-workflow [${describe(reference.value)}] not found in closure`);
          const key = identifierKey(reference.value);
          if (this.#drawing.includes(key)) {
            throw new OperationError(
              `sub-workflow [${describe(reference.value)}] runs itself (node ${JSON.stringify(node.id)}): ` +
                `a compiled closure cannot, and its drawing would never end`,
            );
          }
          drawnIn = `${CLUSTER_PREFIX}${name}`;
          this.dot.addSubgraph(cluster, drawnIn, { label: { text: name } });
          this.#drawing.push(key);
          const inner = this.drawWorkflow(drawnIn, name, sub);
          this.#drawing.pop();
          const start = inner.drawn.get(START_NODE);
          if (start === undefined) {
            // A sub-workflow compiled without a start node: something inside the cluster must stand for it.
            this.dot.addNode(drawnIn, name, box(`${node.id} [sub-workflow]`));
          } else {
            drawn = start;
          }
          break;
        }
        case "gateNode":
          this.dot.addNode(cluster, name, box(`${node.id} [${target.value.condition.case ?? "gate"}]`));
          break;
        case "arrayNode":
          this.dot.addNode(cluster, name, box(`${node.id} [array]`));
          break;
        default:
          this.dot.addNode(cluster, name, box(`${node.id} [unknown]`));
      }
    }
    // A branch's inner node never takes the id from a workflow's own node of the same id.
    if (branch === undefined || !scope.drawn.has(node.id)) scope.drawn.set(node.id, drawn);
    scope.clusterOf.set(drawn, drawnIn);
    return drawn;
  }

  /** A branch: a diamond in its cluster, with an edge to each case's node labelled with its condition. */
  #drawBranch(cluster: string, prefix: string, node: Node, diamond: string, scope: Scope): void {
    const attributes: DotAttributes = { shape: { text: "diamond" } };
    if (node.metadata?.name) attributes.label = { text: `[${node.metadata.name}]`, quoted: true };
    this.dot.addNode(cluster, diamond, attributes);
    const ifElse = node.target.case === "branchNode" ? node.target.value.ifElse : undefined;
    if (!ifElse) return;

    const branchTo = (to: string, label: string) => {
      if (this.dot.hasEdge(diamond, to)) return;
      const edge: DotAttributes = { label: { text: label, quoted: true } };
      const head = scope.clusterOf.get(to);
      if (head && head !== cluster) edge.lhead = { text: head, quoted: true };
      this.dot.addEdge(diamond, to, edge);
    };
    if (ifElse.case?.thenNode) {
      const then = this.#drawNode(cluster, prefix, ifElse.case.thenNode, scope, diamond);
      branchTo(then, conditionText(ifElse.case.condition));
    }
    if (ifElse.default.case === "error") {
      // In the branch's cluster (flytectl puts it at the top of the graph whatever the nesting).
      const errorNode = `${diamond}_error`;
      this.dot.addNode(cluster, errorNode, {
        shape: { text: "box" },
        color: { text: "red" },
        label: { text: ifElse.default.value.message, quoted: true },
      });
      scope.clusterOf.set(errorNode, cluster);
      branchTo(errorNode, "orElse - Fail");
    } else if (ifElse.default.case === "elseNode") {
      branchTo(this.#drawNode(cluster, prefix, ifElse.default.value, scope, diamond), "orElse");
    }
    for (const other of ifElse.other) {
      if (!other.thenNode) continue;
      branchTo(this.#drawNode(cluster, prefix, other.thenNode, scope, diamond), conditionText(other.condition));
    }
  }
}

/**
 * The DOT text of a workflow's compiled closure (`closure.compiledWorkflow` of an `admin.Workflow`). A missing
 * closure (a listing's workflows carry none) draws an empty graph. `maxNodes` bounds the graph's nodes (at most
 * {@link MAX_GRAPH_NODES}; {@link MAX_DRAWN_NODES} for a graph to lay out and draw).
 *
 * @throws {OperationError} when a node names a task or sub-workflow the closure does not hold, or a connection
 *   names a node the workflow does not have, a sub-workflow runs itself, or the graph has more than `maxNodes` nodes
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { CompiledWorkflowClosureSchema } from "../../proto/gen/flyteidl/core/compiler_pb.ts";
 * import { workflowDot } from "./graph_dot.ts";
 *
 * const closure = create(CompiledWorkflowClosureSchema, {
 *   primary: {
 *     template: { nodes: [{ id: "start-node" }, { id: "end-node" }] },
 *     connections: { downstream: { "start-node": { ids: ["end-node"] } } },
 *   },
 * });
 * console.log(workflowDot(closure));
 * // strict digraph  {
 * // 	start_node->end_node;
 * // 	end_node [ color=red, label=end, shape=doublecircle ];
 * // 	start_node [ color=green, label=start, shape=doublecircle ];
 * // }
 * ```
 */
export function workflowDot(
  closure: CompiledWorkflowClosure | undefined,
  maxNodes: number = MAX_GRAPH_NODES,
): string {
  if (!closure?.primary) return new DotDocument().toString();
  const builder = new GraphBuilder(closure, Math.min(maxNodes, MAX_GRAPH_NODES));
  builder.drawWorkflow("", "", closure.primary);
  return builder.dot.toString();
}

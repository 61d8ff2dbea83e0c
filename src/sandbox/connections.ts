/**
 * What Flyte's workflow compiler adds to a workflow template, so that the sandbox's closures look like
 * FlyteAdmin's: the `start-node` and `end-node` (the end node's inputs are the workflow's outputs) before the
 * template's nodes, and the connections between nodes. As the compiler does:
 * - an edge, both ways, from every node a top-level node's explicit `upstream_node_ids` and its bindings' promises
 *   name to that node, and from every node the workflow's outputs come from to the end node;
 * - a branch's inner nodes (at any depth) get upstream entries from their bindings' promises only, and so does the
 *   workflow's failure node (no node of the graph: nothing leads to it); so does an approval gate that is an array
 *   node's sub-node (or a case of a branch that is one), whose interface the compiler reads from its bindings;
 * - a top-level node with nothing upstream hangs from the start node, one with nothing downstream leads to the end
 *   node;
 * - a promise of no node (older flytekit leaves the workflow's inputs' node empty) is rewritten to `start-node`,
 *   and every node's `upstream_node_ids` are sorted; every id list is sorted;
 * - each node of a branch's cases (the if, each else-if, the else) is renamed `<branch>-<node>`, as the compiler
 *   renames it when it makes the branch's interface: a case of a case is renamed after its renamed branch
 *   (`b-ib-t0`), and the connections, the closure's `if_else` and the node executions of a run
 *   (`node_executions.ts`) all use these ids. A branch run by an array node names its cases after itself.
 * Types, interfaces and reachability are not checked.
 *
 * @module
 */
import { clone, create } from "@bufbuild/protobuf";
import { type CompiledWorkflow, CompiledWorkflowSchema } from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import type { Binding, BindingData } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import {
  type Node,
  NodeSchema,
  type WorkflowTemplate,
  WorkflowTemplateSchema,
} from "../../proto/gen/flyteidl/core/workflow_pb.ts";

/** The id of the node that stands for the workflow's inputs. */
export const START_NODE = "start-node";
/** The id of the node that stands for the workflow's outputs. */
export const END_NODE = "end-node";

/** The nodes a binding's promises name, each empty node id rewritten to {@link START_NODE} in place. */
function promisedNodes(data: BindingData | undefined): string[] {
  switch (data?.value.case) {
    case "promise":
      data.value.value.nodeId ||= START_NODE;
      return [data.value.value.nodeId];
    case "collection":
      return data.value.value.bindings.flatMap(promisedNodes);
    case "map":
      return Object.values(data.value.value.bindings).flatMap(promisedNodes);
    default:
      return [];
  }
}

const bindingNodes = (bindings: Binding[]) => bindings.flatMap((binding) => promisedNodes(binding.binding));

/** A branch node's cases' nodes and its else node; none for another node. */
export function branchCases(node: Node | undefined): Node[] {
  if (node?.target.case !== "branchNode") return [];
  const ifElse = node.target.value.ifElse;
  return [
    ...(ifElse?.case?.thenNode ? [ifElse.case.thenNode] : []),
    ...(ifElse?.other ?? []).flatMap((block) => block.thenNode ? [block.thenNode] : []),
    ...(ifElse?.default.case === "elseNode" ? [ifElse.default.value] : []),
  ];
}

/**
 * Renames each node of a branch's cases `<branch>-<node>`, then its own cases after its new id; an array node's
 * sub-node keeps its id, its cases are named after it. The compiler renames them as it makes each branch's
 * interface, which it makes once for every node of a workflow that compiles.
 */
function renameCases(node: Node): void {
  if (node.target.case === "arrayNode" && node.target.value.node) return renameCases(node.target.value.node);
  for (const inner of branchCases(node)) {
    inner.id = `${node.id}-${inner.id}`;
    renameCases(inner);
  }
}

/** Id lists by node, each set kept sorted when written. */
class Edges {
  readonly upstream = new Map<string, Set<string>>();
  readonly downstream = new Map<string, Set<string>>();

  addUpstream(from: string, to: string): void {
    (this.upstream.get(to) ?? this.upstream.set(to, new Set()).get(to)!).add(from || START_NODE);
  }

  addDownstream(from: string, to: string): void {
    const provider = from || START_NODE;
    (this.downstream.get(provider) ?? this.downstream.set(provider, new Set()).get(provider)!).add(to);
  }

  /** An execution edge: both lists. */
  add(from: string, to: string): void {
    this.addDownstream(from, to);
    this.addUpstream(from, to);
  }

  static lists(map: Map<string, Set<string>>): Record<string, { ids: string[] }> {
    return Object.fromEntries([...map].map(([id, ids]) => [id, { ids: [...ids].sort() }]));
  }
}

/**
 * The upstream entries working out a node's interface adds (the compiler's ValidateUnderlyingInterface): an approval
 * gate's interface comes from its bindings, whose promises it adds upstream of it; a branch's from its cases', and
 * an array node's from its sub-node's, whatever they add. So an array node's gate sub-node, which nothing else
 * visits, has its own upstream entries; a branch sub-node has none of its own.
 */
function interfaceEdges(node: Node, edges: Edges): void {
  const target = node.target;
  if (target.case === "gateNode" && target.value.condition.case === "approve") {
    for (const from of bindingNodes(node.inputs)) edges.addUpstream(from, node.id);
  } else if (target.case === "arrayNode" && target.value.node) {
    interfaceEdges(target.value.node, edges);
  } else {
    for (const inner of branchCases(node)) interfaceEdges(inner, edges);
  }
}

/**
 * Sorts a node's explicit dependencies and, for a branch, gives its inner nodes (and theirs) their upstream
 * entries: the compiler's checks of one node, as far as they change the closure.
 */
function visitNode(node: Node, edges: Edges): void {
  node.upstreamNodeIds.sort();
  interfaceEdges(node, edges);
  for (const inner of branchCases(node)) {
    visitNode(inner, edges);
    for (const from of bindingNodes(inner.inputs)) edges.addUpstream(from, inner.id);
  }
}

/**
 * One workflow template compiled as Flyte's compiler compiles it: a copy with the start and end nodes, its
 * branches' case nodes renamed (once for each of the `compiles` times the compiler compiled it: it compiles a
 * sub-workflow in place, and may compile one more than once), and its connections. The template itself is left as
 * it is.
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { WorkflowTemplateSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
 * import { compileTemplate } from "./connections.ts";
 *
 * const compiled = compileTemplate(create(WorkflowTemplateSchema, { nodes: [{ id: "n0" }] }));
 * console.log(compiled.template?.nodes.map((node) => node.id)); // ["start-node", "end-node", "n0"]
 * console.log(compiled.connections?.downstream); // { "start-node": { ids: ["n0"] }, n0: { ids: ["end-node"] } }
 * ```
 */
export function compileTemplate(template: WorkflowTemplate, compiles = 1): CompiledWorkflow {
  const compiled = clone(WorkflowTemplateSchema, template);
  const edges = new Edges();
  const topLevel = compiled.nodes;
  // Each compile renames the cases again: a sub-workflow compiled twice has `b-b-t0`.
  for (let i = 0; i < compiles; i++) {
    for (const node of topLevel) renameCases(node);
    if (compiled.failureNode) renameCases(compiled.failureNode);
  }
  for (const node of topLevel) visitNode(node, edges);
  for (const node of topLevel) {
    for (const from of node.upstreamNodeIds) edges.add(from, node.id);
    for (const from of bindingNodes(node.inputs)) edges.add(from, node.id);
  }
  for (const from of bindingNodes(compiled.outputs)) edges.add(from, END_NODE);
  const failure = compiled.failureNode;
  if (failure) {
    visitNode(failure, edges);
    for (const from of bindingNodes(failure.inputs)) edges.addUpstream(from, failure.id);
  }
  for (const node of topLevel) {
    if (!edges.upstream.has(node.id)) edges.add(START_NODE, node.id);
    if (!edges.downstream.has(node.id)) edges.add(node.id, END_NODE);
  }
  compiled.nodes = [
    create(NodeSchema, { id: START_NODE }),
    create(NodeSchema, { id: END_NODE, inputs: compiled.outputs }),
    ...topLevel,
  ];
  return create(CompiledWorkflowSchema, {
    template: compiled,
    connections: { upstream: Edges.lists(edges.upstream), downstream: Edges.lists(edges.downstream) },
  });
}

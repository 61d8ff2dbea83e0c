/**
 * Test helpers: real workflows from the shared fixtures (packages made by Flyte's own tooling), compiled the way
 * FlyteAdmin compiles them: the sandbox's closure (template, sub-workflows, tasks) plus what Flyte's compiler adds,
 * the start and end nodes and the connections between nodes.
 *
 * @module
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { unpackTar } from "modern-tar";
import { fileURLToPath } from "node:url";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task, TaskSpec } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Workflow, WorkflowSpec } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import {
  type CompiledWorkflow,
  type CompiledWorkflowClosure,
  CompiledWorkflowClosureSchema,
  ConnectionSetSchema,
} from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { BindingData } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type Node, NodeSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { decodeEntity } from "../register/classify.ts";
import { compileWorkflow } from "../sandbox/compile.ts";

/** Path of a file of the shared fixtures. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../../shared/fixtures/flytectl/${name}`, import.meta.url));
}

const key = (id: Identifier | undefined) => JSON.stringify([id?.project, id?.domain, id?.name, id?.version]);

/** The entities of a `.tgz` package of the shared fixtures. */
async function readPackage(name: string) {
  const gz = await Deno.readFile(fixture(name));
  const tar = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).bytes();
  const tasks = new Map<string, TaskSpec>();
  const workflows = new Map<string, WorkflowSpec>();
  const launchPlans = new Map<string, LaunchPlan>();
  for (const entry of await unpackTar(tar)) {
    if (!entry.header.name.endsWith(".pb") || !entry.data) continue;
    const entity = decodeEntity(entry.header.name, entry.data);
    if (entity.kind === "task") tasks.set(key(entity.spec.template?.id), entity.spec);
    if (entity.kind === "workflow") workflows.set(key(entity.spec.template?.id), entity.spec);
    if (entity.kind === "launchPlan") launchPlans.set(key(entity.spec.id), entity.spec);
  }
  return { tasks, workflows, launchPlans };
}

function promises(data: BindingData | undefined): string[] {
  switch (data?.value.case) {
    case "promise":
      return [data.value.value.nodeId || "start-node"]; // Older flytekit leaves the workflow's inputs' node empty.
    case "collection":
      return data.value.value.bindings.flatMap(promises);
    case "map":
      return Object.values(data.value.value.bindings).flatMap(promises);
    default:
      return [];
  }
}

/** The nodes a node's inputs and explicit dependencies come from. */
function dependencies(node: Node): string[] {
  return [...node.inputs.flatMap((input) => promises(input.binding)), ...node.upstreamNodeIds];
}

/** The nodes a branch holds (its cases' nodes, and theirs). */
function branchNodes(node: Node): Node[] {
  if (node.target.case !== "branchNode") return [];
  const ifElse = node.target.value.ifElse;
  const inner = [
    ...(ifElse?.case?.thenNode ? [ifElse.case.thenNode] : []),
    ...(ifElse?.other ?? []).flatMap((block) => block.thenNode ? [block.thenNode] : []),
    ...(ifElse?.default.case === "elseNode" ? [ifElse.default.value] : []),
  ];
  return inner.flatMap((n) => [n, ...branchNodes(n)]);
}

/**
 * What Flyte's compiler adds to a workflow template: the start and end nodes, and the connections (an edge from
 * every node a node's inputs come from; a node with nothing upstream hangs from the start node, one with nothing
 * downstream leads to the end node; a branch's inner nodes get their upstream list only).
 */
export function addConnections(workflow: CompiledWorkflow): void {
  const template = workflow.template!;
  const upstream = new Map<string, Set<string>>();
  const downstream = new Map<string, Set<string>>();
  const edge = (from: string, to: string) => {
    (upstream.get(to) ?? upstream.set(to, new Set()).get(to)!).add(from);
    (downstream.get(from) ?? downstream.set(from, new Set()).get(from)!).add(to);
  };
  for (const node of template.nodes) for (const from of dependencies(node)) edge(from, node.id);
  for (const output of template.outputs) for (const from of promises(output.binding)) edge(from, "end-node");
  for (const node of template.nodes) {
    if (!upstream.has(node.id)) edge("start-node", node.id);
    if (!downstream.has(node.id)) edge(node.id, "end-node");
  }
  const inner = new Map<string, Set<string>>();
  for (const node of template.nodes.flatMap(branchNodes)) {
    if (!upstream.has(node.id)) inner.set(node.id, new Set(dependencies(node)));
  }
  template.nodes = [
    create(NodeSchema, { id: "start-node" }),
    create(NodeSchema, { id: "end-node", inputs: template.outputs }),
    ...template.nodes,
  ];
  const lists = (map: Map<string, Set<string>>) =>
    Object.fromEntries([...map].map(([id, ids]) => [id, { ids: [...ids].sort() }]));
  workflow.connections = create(ConnectionSetSchema, {
    upstream: lists(new Map([...upstream, ...inner])),
    downstream: lists(downstream),
  });
}

/**
 * Every workflow of a fixture package (by its full name), compiled: the sandbox's closure with start
 * and end nodes and connections in the primary workflow and each sub-workflow.
 */
export async function compiledFixtureWorkflows(packageName: string): Promise<Map<string, CompiledWorkflowClosure>> {
  const entities = await readPackage(packageName);
  const lookup = {
    task: (id: Identifier) => {
      const spec = entities.tasks.get(key(id));
      return spec ? { closure: { compiledTask: { template: spec.template } } } as unknown as Task : undefined;
    },
    launchPlan: (id: Identifier) => entities.launchPlans.get(key(id)),
    workflow: (id: Identifier) => {
      const spec = entities.workflows.get(key(id));
      return spec
        ? { closure: { compiledWorkflow: { primary: { template: spec.template } } } } as unknown as Workflow
        : undefined;
    },
  };
  const compiled = new Map<string, CompiledWorkflowClosure>();
  for (const spec of entities.workflows.values()) {
    const init: MessageInitShape<typeof CompiledWorkflowClosureSchema> = compileWorkflow(spec, lookup);
    const closure = create(CompiledWorkflowClosureSchema, init);
    for (const workflow of [closure.primary!, ...closure.subWorkflows]) addConnections(workflow);
    compiled.set(spec.template!.id!.name, closure);
  }
  return compiled;
}

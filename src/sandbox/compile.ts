/**
 * FlyteAdmin's workflow compilation at CreateWorkflow, as FlyteAdmin does it: the sub-workflows of the spec are
 * indexed (two of one id refused), the tasks and launch plans the workflow needs (its sub-workflows' too) are looked
 * up, the first one missing refused as NOT_FOUND would name it; then Flyte's compiler checks the workflow
 * (`workflow_checks.ts`) and the sandbox answers its collected errors; then the node limit. Every refusal is
 * INVALID_ARGUMENT "failed to compile workflow for [<id>] with err: …", as FlyteAdmin wraps it.
 *
 * The closure carries the primary workflow, the spec's sub-workflows and the referenced tasks, each workflow
 * compiled with its start and end nodes, its branches' cases renamed `<branch>-<node>` and its connections
 * (`connections.ts`); of nodes sharing an id, the compiler keeps the first. The compiler compiles a sub-workflow in
 * place once for each compile of each workflow that runs it, renaming its cases each time: one that the primary
 * workflow and one of its sub-workflows both run has its cases renamed twice (`b-b-t0`), as FlyteAdmin stores it.
 * A sub-workflow of the spec the compiler never compiles (no node runs it, or only an array node, or only such a
 * sub-workflow) is stored as the spec gives it, as FlyteAdmin stores it: no start and end nodes, no connections,
 * its cases and node ids as they were.
 *
 * @module
 */
import { clone, create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Workflow, WorkflowSpec } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import type {
  CompiledTask,
  CompiledWorkflowClosureSchema,
  CompiledWorkflowSchema,
} from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Node, type WorkflowTemplate, WorkflowTemplateSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { CompileErrors } from "./compile_errors.ts";
import { branchCases, compileTemplate, END_NODE, START_NODE } from "./connections.ts";
import { identifierText, idKey, notFound } from "./identifiers.ts";
import { checkWorkflow, uniqueNodes } from "./workflow_checks.ts";

/** The key fields of a template without an identifier. */
const EMPTY_ID = { project: "", domain: "", name: "", version: "" };

/** FlyteAdmin's default `registration.maxWorkflowNodes`, which the demo cluster keeps. */
export const DEFAULT_MAX_WORKFLOW_NODES = 100;

/** How compilation finds stored entities. */
export interface ReferenceLookup {
  task(id: Identifier): Task | undefined;
  launchPlan(id: Identifier): LaunchPlan | undefined;
  /** Unused: as FlyteAdmin does, a sub-workflow must come with the spec, never from the stored workflows. */
  workflow?(id: Identifier): Workflow | undefined;
}

/** How compilation is configured, as FlyteAdmin's registration settings are. */
export interface CompileOptions {
  /** Most nodes the primary workflow may have (start and end not counted); 0 for no limit. */
  maxWorkflowNodes?: number;
}

/** The tasks and launch plans a workflow needs, and its sub-workflow references the spec lacks. */
interface Requirements {
  tasks: Map<string, Identifier>;
  launchPlans: Map<string, Identifier>;
  missingSubWorkflows: { nodeId: string; ref: Identifier }[];
}

/**
 * Builds the compiled closure, or throws INVALID_ARGUMENT with FlyteAdmin's message for what does not compile.
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { WorkflowSpecSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
 * import { compileWorkflow } from "./compile.ts";
 *
 * // One node that only sleeps, so that it needs no task or launch plan.
 * const nap = { id: "n0", target: { case: "gateNode", value: { condition: { case: "sleep", value: {} } } } } as const;
 * const spec = create(WorkflowSpecSchema, { template: { id: { name: "wf", version: "v1" }, nodes: [nap] } });
 * const closure = compileWorkflow(spec, { task: () => undefined, launchPlan: () => undefined });
 * console.log(closure.primary?.template?.nodes?.map((node) => node.id)); // ["start-node", "end-node", "n0"]
 * ```
 */
export function compileWorkflow(
  spec: WorkflowSpec,
  lookup: ReferenceLookup,
  options: CompileOptions = {},
): MessageInitShape<typeof CompiledWorkflowClosureSchema> {
  const template = spec.template ?? create(WorkflowTemplateSchema);
  const refused = (text: string) =>
    new ConnectError(
      `failed to compile workflow for [${template.id ? identifierText(template.id) : ""}] with err: ${text}`,
      Code.InvalidArgument,
    );
  const subWorkflows = indexSubWorkflows(spec.subWorkflows, refused);
  const requirements = collectRequirements(template, subWorkflows);
  // FlyteAdmin loads the tasks, then the launch plans, in the compiler's order, and stops at the first missing.
  const tasks = new Map<string, Task>();
  for (const ref of sortedIds(requirements.tasks)) {
    const task = lookup.task(ref);
    if (!task) throw refused(notFound("task", ref).rawMessage);
    tasks.set(idKey(ref), task);
  }
  const launchPlans = new Map<string, LaunchPlan>();
  for (const ref of sortedIds(requirements.launchPlans)) {
    const launchPlan = lookup.launchPlan(ref);
    if (!launchPlan) throw refused(notFound("launch plan", ref).rawMessage);
    launchPlans.set(idKey(ref), launchPlan);
  }
  const errors = new CompileErrors();
  for (const { nodeId, ref } of requirements.missingSubWorkflows) {
    errors.collect("WorkflowReferenceNotFound", nodeId, `Referenced Workflow [${identifierText(ref)}] not found.`);
  }
  if (errors.size === 0) {
    checkWorkflow(template, {
      task: (ref) => tasks.get(idKey(ref))?.closure?.compiledTask?.template,
      launchPlan: (ref) => launchPlans.get(idKey(ref)),
      subWorkflow: (ref) => subWorkflows.get(idKey(ref)),
    }, errors);
  }
  if (errors.size > 0) throw refused(errors.text());
  const primary = compileTemplate(withUniqueNodes(template));
  const limit = options.maxWorkflowNodes ?? DEFAULT_MAX_WORKFLOW_NODES;
  const userNodes = (primary.template?.nodes.length ?? 2) - 2;
  if (limit > 0 && userNodes > limit) {
    throw new ConnectError(
      `number of nodes in workflow [${template.id ? identifierText(template.id) : ""}] exceeds limit ` +
        `(${userNodes} > ${limit})`,
      Code.InvalidArgument,
    );
  }
  const compiledTasks: CompiledTask[] = [...tasks.values()].flatMap((task) =>
    task.closure?.compiledTask ? [task.closure.compiledTask] : []
  );
  const compiles = subWorkflowCompiles(template, subWorkflows);
  const compiledSubWorkflows: MessageInitShape<typeof CompiledWorkflowSchema>[] = spec.subWorkflows.map((sub) => {
    const count = sub.id ? compiles.get(idKey(sub.id)) : undefined;
    // The closure holds the spec's sub-workflows themselves, compiled in place: one never compiled stays as given.
    return count ? compileTemplate(withUniqueNodes(sub), count) : { template: clone(WorkflowTemplateSchema, sub) };
  });
  return { primary, subWorkflows: compiledSubWorkflows, tasks: compiledTasks };
}

/** The spec's sub-workflows by identifier; two of one id are the compiler's DuplicateId. */
function indexSubWorkflows(
  templates: readonly WorkflowTemplate[],
  refused: (text: string) => ConnectError,
): Map<string, WorkflowTemplate> {
  const index = new Map<string, WorkflowTemplate>();
  const errors = new CompileErrors();
  for (const template of templates) {
    const key = idKey(template.id ?? EMPTY_ID);
    if (index.has(key)) {
      const id = template.id ? identifierText(template.id) : "";
      errors.collect("DuplicateId", id, "Trying to insert two nodes with the same id.");
    } else index.set(key, template);
  }
  if (errors.size > 0) throw refused(`failed to get workflow requirements with err ${errors.text()}`);
  return index;
}

/** The references of the workflow's nodes, following the sub-workflows it runs (each once), as the compiler does. */
function collectRequirements(template: WorkflowTemplate, subWorkflows: Map<string, WorkflowTemplate>): Requirements {
  const requirements: Requirements = { tasks: new Map(), launchPlans: new Map(), missingSubWorkflows: [] };
  const followed = new Set<string>();
  const visitWorkflow = (workflow: WorkflowTemplate) => {
    for (const node of workflow.nodes) visitNode(node);
    if (workflow.failureNode) visitNode(workflow.failureNode);
  };
  const visitNode = (node: Node | undefined): void => {
    const target = node?.target;
    switch (target?.case) {
      case "taskNode":
        if (target.value.reference.case === "referenceId") {
          requirements.tasks.set(idKey(target.value.reference.value), target.value.reference.value);
        }
        return;
      case "workflowNode": {
        const ref = target.value.reference;
        if (ref.case === "launchplanRef") requirements.launchPlans.set(idKey(ref.value), ref.value);
        if (ref.case === "subWorkflowRef") {
          const sub = subWorkflows.get(idKey(ref.value));
          if (!sub) requirements.missingSubWorkflows.push({ nodeId: node!.id, ref: ref.value });
          else if (!followed.has(idKey(ref.value))) {
            followed.add(idKey(ref.value));
            visitWorkflow(sub);
          }
        }
        return;
      }
      case "branchNode": {
        const ifElse = target.value.ifElse;
        visitNode(ifElse?.case?.thenNode);
        for (const block of ifElse?.other ?? []) visitNode(block.thenNode);
        if (ifElse?.default.case === "elseNode") visitNode(ifElse.default.value);
        return;
      }
      case "arrayNode":
        visitNode(target.value.node);
        return;
    }
  };
  visitWorkflow(template);
  return requirements;
}

/** The most times a sub-workflow's cases are renamed: past it, a reference graph is taken as absurd, not followed. */
const MAX_COMPILES = 16;

/**
 * How many times Flyte's compiler compiles each sub-workflow, each time in place (so renaming its branches' cases
 * again). It remembers the sub-workflows it compiled for one compile of one workflow only: each compile of a
 * workflow compiles once each sub-workflow its nodes run (its top-level nodes, its branches' cases, its failure
 * node; an array node's sub-node is not compiled), so a sub-workflow run by the workflow and by one of its
 * sub-workflows is compiled twice. A sub-workflow in a cycle of references counts as compiled once (the compiler
 * never ends one).
 */
function subWorkflowCompiles(template: WorkflowTemplate, subWorkflows: Map<string, WorkflowTemplate>) {
  const runs = (workflow: WorkflowTemplate): Set<string> => {
    const keys = new Set<string>();
    const visit = (node: Node | undefined, topLevel = false) => {
      // The compiler checks nothing more of a node of the start or end node's id (a case has been renamed by then).
      if (topLevel && (node?.id === START_NODE || node?.id === END_NODE)) return;
      const target = node?.target;
      if (target?.case === "workflowNode" && target.value.reference.case === "subWorkflowRef") {
        const key = idKey(target.value.reference.value);
        if (subWorkflows.has(key)) keys.add(key);
      }
      for (const inner of branchCases(node)) visit(inner);
    };
    for (const node of workflow.nodes) visit(node, true);
    visit(workflow.failureNode, true);
    return keys;
  };
  // The reference graph from the primary workflow (key ""), then the counts in topological order.
  const edges = new Map<string, Set<string>>();
  const pending = [""];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (edges.has(key)) continue;
    const next = runs(key === "" ? template : subWorkflows.get(key)!);
    edges.set(key, next);
    pending.push(...next);
  }
  const incoming = new Map<string, number>();
  for (const next of edges.values()) for (const key of next) incoming.set(key, (incoming.get(key) ?? 0) + 1);
  const compiles = new Map<string, number>([["", 1]]);
  const ready = [""];
  while (ready.length > 0) {
    const key = ready.pop()!;
    for (const next of edges.get(key)!) {
      compiles.set(next, Math.min(MAX_COMPILES, (compiles.get(next) ?? 0) + compiles.get(key)!));
      incoming.set(next, incoming.get(next)! - 1);
      if (incoming.get(next) === 0) ready.push(next);
    }
  }
  // A sub-workflow a cycle reaches was never ready: its count is the cycle's own, not known.
  for (const [key, count] of incoming) if (count > 0) compiles.set(key, 1);
  return compiles;
}

/** Identifiers in the compiler's order: by resource type, project, domain, name, version. */
function sortedIds(ids: Map<string, Identifier>): Identifier[] {
  const fields = ["project", "domain", "name", "version"] as const;
  return [...ids.values()].sort((a, b) => {
    if (a.resourceType !== b.resourceType) return a.resourceType - b.resourceType;
    for (const field of fields) if (a[field] !== b[field]) return a[field] < b[field] ? -1 : 1;
    return 0;
  });
}

/** The template with the first node of each id, as the compiler keeps them. */
function withUniqueNodes(template: WorkflowTemplate): WorkflowTemplate {
  const nodes = uniqueNodes(template.nodes);
  return nodes.length === template.nodes.length ? template : { ...template, nodes };
}

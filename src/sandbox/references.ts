/**
 * Finds what a workflow refers to, so registration order mistakes surface as FlyteAdmin reports them.
 *
 * @module
 */
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Node, WorkflowTemplate } from "../../proto/gen/flyteidl/core/workflow_pb.ts";

/** Entities that a workflow's nodes reference. */
export interface WorkflowReferences {
  tasks: Identifier[];
  launchPlans: Identifier[];
  subWorkflows: Identifier[];
}

/** Collects references from every node of the templates, including branches, array nodes and failure nodes. */
export function collectReferences(templates: WorkflowTemplate[]): WorkflowReferences {
  const refs: WorkflowReferences = { tasks: [], launchPlans: [], subWorkflows: [] };
  for (const template of templates) {
    for (const node of template.nodes) visit(node, refs);
    if (template.failureNode) visit(template.failureNode, refs);
  }
  return refs;
}

function visit(node: Node | undefined, refs: WorkflowReferences): void {
  if (!node) return;
  const target = node.target;
  switch (target.case) {
    case "taskNode":
      if (target.value.reference.case === "referenceId") refs.tasks.push(target.value.reference.value);
      return;
    case "workflowNode": {
      const ref = target.value.reference;
      if (ref.case === "launchplanRef") refs.launchPlans.push(ref.value);
      if (ref.case === "subWorkflowRef") refs.subWorkflows.push(ref.value);
      return;
    }
    case "branchNode": {
      const ifElse = target.value.ifElse;
      visit(ifElse?.case?.thenNode, refs);
      for (const block of ifElse?.other ?? []) visit(block.thenNode, refs);
      if (ifElse?.default.case === "elseNode") visit(ifElse.default.value, refs);
      return;
    }
    case "arrayNode":
      visit(target.value.node, refs);
      return;
  }
}

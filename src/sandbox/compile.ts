/**
 * The part of FlyteAdmin's workflow compilation the sandbox needs: every reference must resolve, and the
 * closure carries the primary workflow, sub-workflows and referenced tasks, each workflow compiled with its start
 * and end nodes and connections (`connections.ts`).
 *
 * @module
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
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
import { compileTemplate } from "./connections.ts";
import { describeId, idKey } from "./identifiers.ts";
import { collectReferences } from "./references.ts";

/** How compilation finds stored entities. */
export interface ReferenceLookup {
  task(id: Identifier): Task | undefined;
  launchPlan(id: Identifier): LaunchPlan | undefined;
  workflow(id: Identifier): Workflow | undefined;
}

/** Builds the compiled closure, or throws INVALID_ARGUMENT naming every reference that does not exist. */
export function compileWorkflow(
  spec: WorkflowSpec,
  lookup: ReferenceLookup,
): MessageInitShape<typeof CompiledWorkflowClosureSchema> {
  const refs = collectReferences([...(spec.template ? [spec.template] : []), ...spec.subWorkflows]);
  const missing: string[] = [];
  const tasks = new Map<string, CompiledTask>();
  for (const ref of refs.tasks) {
    const compiled = lookup.task(ref)?.closure?.compiledTask;
    if (compiled) tasks.set(idKey(ref), compiled);
    else missing.push(`task ${describeId(ref)}`);
  }
  for (const ref of refs.launchPlans) {
    if (!lookup.launchPlan(ref)) missing.push(`launch plan ${describeId(ref)}`);
  }
  const subWorkflows = resolveSubWorkflows(spec, refs.subWorkflows, lookup, missing);
  if (missing.length > 0) {
    const unique = [...new Set(missing)].join(", ");
    throw new ConnectError(`workflow references entities that do not exist: ${unique}`, Code.InvalidArgument);
  }
  return { primary: spec.template && compileTemplate(spec.template), subWorkflows, tasks: [...tasks.values()] };
}

/** Sub-workflow references resolve to `spec.sub_workflows` first, then to stored workflows. */
function resolveSubWorkflows(
  spec: WorkflowSpec,
  refs: Identifier[],
  lookup: ReferenceLookup,
  missing: string[],
): MessageInitShape<typeof CompiledWorkflowSchema>[] {
  const inline = new Set(spec.subWorkflows.flatMap((template) => template.id ? [idKey(template.id)] : []));
  const resolved: MessageInitShape<typeof CompiledWorkflowSchema>[] = spec.subWorkflows.map((template) =>
    compileTemplate(template)
  );
  for (const ref of refs) {
    if (inline.has(idKey(ref))) continue;
    // A stored workflow's primary was compiled when it was registered.
    const stored = lookup.workflow(ref)?.closure?.compiledWorkflow?.primary;
    if (stored) resolved.push(stored);
    else missing.push(`workflow ${describeId(ref)}`);
  }
  return resolved;
}

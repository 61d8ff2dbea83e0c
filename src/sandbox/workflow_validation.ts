/**
 * What CreateWorkflow refuses before it compiles a workflow, as FlyteAdmin's ValidateWorkflow does: after the
 * identifier and the project (which the store checks first), only a spec without a template.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { WorkflowSpec } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import type { WorkflowTemplate } from "../../proto/gen/flyteidl/core/workflow_pb.ts";

/**
 * Returns the spec with its template, or throws INVALID_ARGUMENT `missing spec` (FlyteAdmin's words for a spec
 * or a template that is absent).
 *
 * ```ts
 * import { validateWorkflowSpec } from "./workflow_validation.ts";
 *
 * try {
 *   validateWorkflowSpec(undefined);
 * } catch (err) {
 *   console.log((err as Error).message); // [invalid_argument] missing spec
 * }
 * ```
 */
export function validateWorkflowSpec(spec: WorkflowSpec | undefined): WorkflowSpec & { template: WorkflowTemplate } {
  if (!spec?.template) throw new ConnectError("missing spec", Code.InvalidArgument);
  return spec as WorkflowSpec & { template: WorkflowTemplate };
}

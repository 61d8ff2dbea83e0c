/**
 * How workflows look as documents: canonical proto3 JSON of each (`-o json`, `-o yaml`); the tables' columns are
 * `workflow_columns.ts`, which builds none of a whole workflow's descriptors. The names of a project and domain are
 * named entities (named_entity_view.ts, re-exported here).
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Workflow, WorkflowSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";

export { NAMED_ENTITY_COLUMNS, namedEntityJson } from "./named_entity_view.ts";

/**
 * Canonical proto3 JSON of a workflow, as `fctl get workflow -o json` prints it.
 *
 * ```ts
 * import { connect, getWorkflow, workflowJson } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getWorkflow(flyte.client, { project: "flytesnacks", domain: "development", name: "wf", latest: true });
 * if (result.kind === "one") console.log(JSON.stringify(workflowJson(result.workflow)));
 * ```
 */
export function workflowJson(workflow: Workflow): JsonValue {
  return toJson(WorkflowSchema, workflow);
}

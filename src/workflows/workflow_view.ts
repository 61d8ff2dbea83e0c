/**
 * How workflows look, as flytectl shows them: a workflow's versions, one workflow with its inputs and outputs;
 * canonical proto3 JSON of each. The names of a project and domain are named entities (named_entity_view.ts,
 * re-exported here).
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Workflow, WorkflowSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { VARIABLE_LINE_WIDTH, variableLines } from "../get/variable_lines.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";

export { NAMED_ENTITY_COLUMNS, namedEntityJson } from "./named_entity_view.ts";

/** A workflow's versions: VERSION NAME CREATED AT (a listed closure holds no more). */
export const WORKFLOW_VERSION_COLUMNS: readonly Column<Workflow>[] = [
  { header: "VERSION", cell: (w) => w.id?.version ?? "", keep: true },
  { header: "NAME", cell: (w) => w.id?.name ?? "", keep: true, wrap: true },
  { header: "CREATED AT", cell: (w) => formatTimestamp(w.closure?.createdAt) },
];

/** One workflow: VERSION NAME INPUTS OUTPUTS CREATED AT, in flytectl's order. */
export const WORKFLOW_COLUMNS: readonly Column<Workflow>[] = [
  WORKFLOW_VERSION_COLUMNS[0],
  WORKFLOW_VERSION_COLUMNS[1],
  {
    header: "INPUTS",
    cell: (w) => variableLines(w.closure?.compiledWorkflow?.primary?.template?.interface?.inputs),
    maxLineWidth: VARIABLE_LINE_WIDTH,
  },
  {
    header: "OUTPUTS",
    cell: (w) => variableLines(w.closure?.compiledWorkflow?.primary?.template?.interface?.outputs),
    maxLineWidth: VARIABLE_LINE_WIDTH,
  },
  WORKFLOW_VERSION_COLUMNS[2],
];

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

/**
 * How a workflow's versions look in a table, as flytectl shows them, over what the columns read of a workflow: a
 * row (see `AdminRowsClient`), the fields they show, or a whole workflow. The names of a project and domain are
 * named entities (named_entity_view.ts).
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { variableColumn, type VariableDescriptions } from "../get/variable_lines.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";

/** What the columns read of a workflow: a row (`WorkflowRow`) has it, and so has a whole flyteidl `Workflow`. */
export interface WorkflowCells {
  id?: { name: string; version: string };
  closure?: {
    compiledWorkflow?: {
      primary?: { template?: { interface?: { inputs?: VariableDescriptions; outputs?: VariableDescriptions } } };
    };
    createdAt?: Timestamp;
  };
}

/** A workflow's versions: VERSION NAME CREATED AT (a listed closure holds no more). */
export const WORKFLOW_VERSION_COLUMNS: readonly Column<WorkflowCells>[] = [
  { header: "VERSION", cell: (w) => w.id?.version ?? "", keep: true },
  { header: "NAME", cell: (w) => w.id?.name ?? "", keep: true, wrap: true },
  { header: "CREATED AT", cell: (w) => formatTimestamp(w.closure?.createdAt) },
];

/** One workflow: VERSION NAME INPUTS OUTPUTS CREATED AT, in flytectl's order. */
export const WORKFLOW_COLUMNS: readonly Column<WorkflowCells>[] = [
  WORKFLOW_VERSION_COLUMNS[0],
  WORKFLOW_VERSION_COLUMNS[1],
  variableColumn("INPUTS", (w) => w.closure?.compiledWorkflow?.primary?.template?.interface?.inputs),
  variableColumn("OUTPUTS", (w) => w.closure?.compiledWorkflow?.primary?.template?.interface?.outputs),
  WORKFLOW_VERSION_COLUMNS[2],
];

/**
 * How executions look, as in flytectl: NAME, LAUNCH PLAN NAME, VERSION, TYPE, PHASE, SCHEDULED TIME, STARTED,
 * ELAPSED TIME (Go's `1m2s`), ABORT DATA (TRUNC) and ERROR DATA (TRUNC), both cut at 100 characters.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Execution, ExecutionSchema } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";
import { durationText } from "./duration_text.ts";

/** flytectl's cut of the abort cause and error message. */
const TRUNCATED = 100;

function cut(text: string | undefined): string {
  return [...(text ?? "")].slice(0, TRUNCATED).join("");
}

/** The abort cause: `abort_metadata.cause`, or the deprecated `abort_cause` an older admin sets. */
function abortCause(e: Execution): string {
  const result = e.closure?.outputResult;
  if (result?.case === "abortMetadata") return result.value.cause;
  return result?.case === "abortCause" ? result.value : "";
}

/** The columns of an execution, one row each. */
export const EXECUTION_COLUMNS: readonly Column<Execution>[] = [
  { header: "NAME", cell: (e) => e.id?.name ?? "", keep: true },
  { header: "LAUNCH PLAN NAME", cell: (e) => e.spec?.launchPlan?.name ?? "", wrap: true },
  { header: "VERSION", cell: (e) => e.spec?.launchPlan?.version ?? "" },
  { header: "TYPE", cell: (e) => ResourceType[e.spec?.launchPlan?.resourceType ?? 0] ?? "", dropRank: 1 },
  { header: "PHASE", cell: (e) => WorkflowExecution_Phase[e.closure?.phase ?? 0] ?? "" },
  { header: "SCHEDULED TIME", cell: (e) => formatTimestamp(e.spec?.metadata?.scheduledAt), dropRank: 2 },
  { header: "STARTED", cell: (e) => formatTimestamp(e.closure?.startedAt) },
  { header: "ELAPSED TIME", cell: (e) => durationText(e.closure?.duration) },
  {
    header: "ABORT DATA (TRUNC)",
    cell: (e) => cut(abortCause(e)),
    wrap: true,
    dropRank: 3,
  },
  {
    header: "ERROR DATA (TRUNC)",
    cell: (e) => cut(e.closure?.outputResult.case === "error" ? e.closure.outputResult.value.message : ""),
    wrap: true,
  },
];

/**
 * Canonical proto3 JSON of an execution, as `fctl get execution -o json` prints it.
 *
 * ```ts
 * import { connect, executionJson, getExecution } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const execution = await getExecution(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" });
 * console.log(JSON.stringify(executionJson(execution)));
 * ```
 */
export function executionJson(execution: Execution): JsonValue {
  return toJson(ExecutionSchema, execution);
}

/**
 * How executions look in a table, as in flytectl: NAME, LAUNCH PLAN NAME, VERSION, TYPE, PHASE, SCHEDULED TIME,
 * STARTED, ELAPSED TIME (Go's `1m2s`), ABORT DATA (TRUNC) and ERROR DATA (TRUNC), both cut at 100 characters, over
 * what they read of an execution: a row (see `AdminRowsClient`), the fields they show, or a whole execution.
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
// The rows' copy of flyteidl's phases (the same names and numbers, checked by rows_test.ts): flyteidl's own lives
// in a file whose descriptors a table has no use for.
import { WorkflowExecutionRow_Phase } from "../../proto/gen/fctl/rows/execution_rows_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";
import { durationText } from "./duration_text.ts";

/** What the columns read of an execution: a row (`ExecutionRow`) has it, and so has a whole flyteidl `Execution`. */
export interface ExecutionCells {
  id?: { name: string };
  spec?: {
    launchPlan?: { name: string; version: string; resourceType: number };
    metadata?: { scheduledAt?: Timestamp };
  };
  closure?: {
    phase: number;
    startedAt?: Timestamp;
    duration?: { seconds: bigint; nanos: number };
    /** The cells read an error or an abort cause; a whole execution's outputs are a case they show nothing of. */
    outputResult:
      | { case: "error"; value: { message: string } }
      | { case: "abortCause"; value: string }
      | { case: "abortMetadata"; value: { cause: string } }
      | { case: "outputs" | "outputData"; value: unknown }
      | { case: undefined; value?: undefined };
  };
}

/** flytectl's cut of the abort cause and error message. */
const TRUNCATED = 100;

function cut(text: string | undefined): string {
  return [...(text ?? "")].slice(0, TRUNCATED).join("");
}

/** The abort cause: `abort_metadata.cause`, or the deprecated `abort_cause` an older admin sets. */
function abortCause(e: ExecutionCells): string {
  const result = e.closure?.outputResult;
  if (result?.case === "abortMetadata") return result.value.cause;
  return result?.case === "abortCause" ? result.value : "";
}

/** The columns of an execution, one row each. */
export const EXECUTION_COLUMNS: readonly Column<ExecutionCells>[] = [
  { header: "NAME", cell: (e) => e.id?.name ?? "", keep: true },
  { header: "LAUNCH PLAN NAME", cell: (e) => e.spec?.launchPlan?.name ?? "", wrap: true },
  { header: "VERSION", cell: (e) => e.spec?.launchPlan?.version ?? "" },
  { header: "TYPE", cell: (e) => ResourceType[e.spec?.launchPlan?.resourceType ?? 0] ?? "", dropRank: 1 },
  { header: "PHASE", cell: (e) => WorkflowExecutionRow_Phase[e.closure?.phase ?? 0] ?? "" },
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

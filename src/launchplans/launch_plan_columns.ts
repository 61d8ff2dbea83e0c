/**
 * How launch plans look in a table, as in flytectl: a listing's VERSION NAME TYPE CREATED AT, and a named launch
 * plan's VERSION NAME STATE SCHEDULE INPUTS OUTPUTS CREATED AT, over what they read of a launch plan: a row (see
 * `AdminRowsClient`), the fields they show, or a whole launch plan. fctl: STATE is the admin's `closure.state`
 * (flytectl shows the deprecated `spec.state`), the schedule is text (flytectl prints a Go map), and flytectl's
 * TYPE column of a named launch plan (always empty) is left out.
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
// The rows' copies of flyteidl's enums (the same names and numbers, checked by rows_test.ts): flyteidl's own live
// in files whose descriptors a table has no use for (launch_plan.proto's is a launch plan's whole tree).
import { FixedRateUnitRow, LaunchPlanStateRow } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { variableColumn, type VariableDescriptions } from "../get/variable_lines.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";

/** What the SCHEDULE column reads of a flyteidl `Schedule`, or of a row's (`ScheduleRow`). */
export interface ScheduleCells {
  ScheduleExpression:
    | { case: "cronExpression"; value: string }
    | { case: "cronSchedule"; value: { schedule: string; offset: string } }
    | { case: "rate"; value: { value: number; unit: number } }
    | { case: undefined; value?: undefined };
  kickoffTimeInputArg: string;
}

/** What the columns read of a launch plan: a row (`LaunchPlanRow`) has it, and so has a whole flyteidl `LaunchPlan`. */
export interface LaunchPlanCells {
  id?: { name: string; version: string; resourceType: number };
  spec?: { entityMetadata?: { schedule?: ScheduleCells } };
  closure?: {
    state: number;
    expectedInputs?: { parameters: Readonly<Record<string, { var?: { description: string } }>> };
    expectedOutputs?: VariableDescriptions;
    createdAt?: Timestamp;
  };
}

/**
 * A schedule as one line: `cron(0 * * * *)` (with `offset P1D` when the cron schedule has one), `rate(5 MINUTE)`
 * for a fixed rate, and ` kickoff input x` when the launch plan passes the time to an input; "" without one.
 */
export function scheduleText(schedule: ScheduleCells | undefined): string {
  const s = schedule?.ScheduleExpression;
  let text: string;
  switch (s?.case) {
    case "cronExpression":
      text = `cron(${s.value})`;
      break;
    case "cronSchedule":
      text = `cron(${s.value.schedule})${s.value.offset ? ` offset ${s.value.offset}` : ""}`;
      break;
    case "rate":
      text = `rate(${s.value.value} ${FixedRateUnitRow[s.value.unit] ?? s.value.unit})`;
      break;
    default:
      return "";
  }
  return schedule?.kickoffTimeInputArg ? `${text} kickoff input ${schedule.kickoffTimeInputArg}` : text;
}

/** The variables of a parameter map (a launch plan's expected inputs), for {@link variableColumn}. */
function parameterVariables(
  map: NonNullable<LaunchPlanCells["closure"]>["expectedInputs"],
): VariableDescriptions | undefined {
  if (!map) return undefined;
  const variables = Object.fromEntries(
    Object.entries(map.parameters).flatMap(([name, p]) => p.var ? [[name, p.var]] : []),
  );
  return { variables };
}

const VERSION: Column<LaunchPlanCells> = { header: "VERSION", cell: (lp) => lp.id?.version ?? "", keep: true };
const NAME: Column<LaunchPlanCells> = { header: "NAME", cell: (lp) => lp.id?.name ?? "", keep: true, wrap: true };
const CREATED_AT: Column<LaunchPlanCells> = {
  header: "CREATED AT",
  cell: (lp) => formatTimestamp(lp.closure?.createdAt),
};

/** A listing of launch plans: VERSION NAME TYPE CREATED AT. */
export const LAUNCH_PLAN_LIST_COLUMNS: readonly Column<LaunchPlanCells>[] = [
  VERSION,
  NAME,
  { header: "TYPE", cell: (lp) => ResourceType[lp.id?.resourceType ?? 0] ?? "" },
  CREATED_AT,
];

/** A named launch plan's versions, or one: VERSION NAME STATE SCHEDULE INPUTS OUTPUTS CREATED AT. */
export const LAUNCH_PLAN_COLUMNS: readonly Column<LaunchPlanCells>[] = [
  VERSION,
  NAME,
  { header: "STATE", cell: (lp) => LaunchPlanStateRow[lp.closure?.state ?? 0] ?? "" },
  { header: "SCHEDULE", cell: (lp) => scheduleText(lp.spec?.entityMetadata?.schedule), wrap: true },
  variableColumn("INPUTS", (lp) => parameterVariables(lp.closure?.expectedInputs)),
  variableColumn("OUTPUTS", (lp) => lp.closure?.expectedOutputs),
  CREATED_AT,
];

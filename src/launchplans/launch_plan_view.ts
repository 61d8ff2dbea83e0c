/**
 * How launch plans look, as in flytectl: a listing's VERSION NAME TYPE CREATED AT, and a named launch plan's
 * VERSION NAME STATE SCHEDULE INPUTS OUTPUTS CREATED AT. fctl: STATE is the admin's `closure.state` (flytectl
 * shows the deprecated `spec.state`), the schedule is text (flytectl prints a Go map), and flytectl's TYPE column
 * of a named launch plan (always empty) is left out.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type LaunchPlan, LaunchPlanSchema, LaunchPlanState } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { FixedRateUnit, type Schedule } from "../../proto/gen/flyteidl/admin/schedule_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { ParameterMap, VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { VARIABLE_LINE_WIDTH, variableLines } from "../get/variable_lines.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";

/**
 * A schedule as one line: `cron(0 * * * *)` (with `offset P1D` when the cron schedule has one), `rate(5 MINUTE)`
 * for a fixed rate, and ` kickoff input x` when the launch plan passes the time to an input; "" without one.
 */
export function scheduleText(schedule: Schedule | undefined): string {
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
      text = `rate(${s.value.value} ${FixedRateUnit[s.value.unit] ?? s.value.unit})`;
      break;
    default:
      return "";
  }
  return schedule?.kickoffTimeInputArg ? `${text} kickoff input ${schedule.kickoffTimeInputArg}` : text;
}

/** The variables of a parameter map (a launch plan's expected inputs), for {@link variableLines}. */
function parameterVariables(map: ParameterMap | undefined): VariableMap | undefined {
  if (!map) return undefined;
  const variables = Object.fromEntries(
    Object.entries(map.parameters).flatMap(([name, p]) => p.var ? [[name, p.var]] : []),
  );
  return { variables } as VariableMap;
}

const VERSION: Column<LaunchPlan> = { header: "VERSION", cell: (lp) => lp.id?.version ?? "", keep: true };
const NAME: Column<LaunchPlan> = { header: "NAME", cell: (lp) => lp.id?.name ?? "", keep: true, wrap: true };
const CREATED_AT: Column<LaunchPlan> = { header: "CREATED AT", cell: (lp) => formatTimestamp(lp.closure?.createdAt) };

/** A listing of launch plans: VERSION NAME TYPE CREATED AT. */
export const LAUNCH_PLAN_LIST_COLUMNS: readonly Column<LaunchPlan>[] = [
  VERSION,
  NAME,
  { header: "TYPE", cell: (lp) => ResourceType[lp.id?.resourceType ?? 0] ?? "" },
  CREATED_AT,
];

/** A named launch plan's versions, or one: VERSION NAME STATE SCHEDULE INPUTS OUTPUTS CREATED AT. */
export const LAUNCH_PLAN_COLUMNS: readonly Column<LaunchPlan>[] = [
  VERSION,
  NAME,
  { header: "STATE", cell: (lp) => LaunchPlanState[lp.closure?.state ?? 0] ?? "" },
  { header: "SCHEDULE", cell: (lp) => scheduleText(lp.spec?.entityMetadata?.schedule), wrap: true },
  {
    header: "INPUTS",
    cell: (lp) => variableLines(parameterVariables(lp.closure?.expectedInputs)),
    maxLineWidth: VARIABLE_LINE_WIDTH,
  },
  {
    header: "OUTPUTS",
    cell: (lp) => variableLines(lp.closure?.expectedOutputs),
    maxLineWidth: VARIABLE_LINE_WIDTH,
  },
  CREATED_AT,
];

/**
 * Canonical proto3 JSON of a launch plan, as `fctl get launchplan -o json` prints it.
 *
 * ```ts
 * import { connect, getLaunchPlan, launchPlanJson } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getLaunchPlan(flyte.client, { project: "flytesnacks", domain: "development", name: "wf", latest: true });
 * if (result.kind === "one") console.log(JSON.stringify(launchPlanJson(result.launchPlan)));
 * ```
 */
export function launchPlanJson(launchPlan: LaunchPlan): JsonValue {
  return toJson(LaunchPlanSchema, launchPlan);
}

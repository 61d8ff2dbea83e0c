/**
 * The filter tables of the launch plan listing. FlyteAdmin joins each launch plan to its workflow, so a filter
 * names a column of `launch_plans` (`state`, `schedule_type`, `launch_plan.version`) or, with the `workflow.`
 * prefix, of `workflows` (`workflow.name`, what `get launchplan --workflow W` sends); any other entity is refused
 * (`'t' entity is not allowed in filters`).
 *
 * @module
 */
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Workflow } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { type FilterSchema, type FilterTable, LAUNCH_PLAN_COLUMNS } from "./execution_filters.ts";
import { type Listed, listed, type Row, versionColumn, WORKFLOW_VERSIONS } from "./filters.ts";
import { timestampToNs } from "./time.ts";

/** A launch plan version with the workflow version it launches (the inner join's other side). */
export interface ListedLaunchPlan extends Listed<LaunchPlan> {
  workflow?: Listed<Workflow>;
}

/** FlyteAdmin's `schedule_type` column: CRON for a cron expression or schedule, RATE for a rate, else NONE. */
function scheduleType(launchPlan: LaunchPlan): string {
  const expression = launchPlan.spec?.entityMetadata?.schedule?.ScheduleExpression;
  if ((expression?.case === "cronExpression" && expression.value !== "") || expression?.case === "cronSchedule") {
    return "CRON";
  }
  return expression?.case === "rate" ? "RATE" : "NONE";
}

/** `launch_plans`. Columns the sandbox does not keep (spec, closure, digest: bytes) are NULL. */
export const LAUNCH_PLAN_VERSIONS: FilterTable<ListedLaunchPlan> = {
  entity: "l",
  prefix: "launch_plan",
  columns: LAUNCH_PLAN_COLUMNS,
  read(row, column) {
    const launchPlan = row.entry.message;
    const updatedAt = launchPlan.closure?.updatedAt;
    const shared = versionColumn(row, column, updatedAt ? timestampToNs(updatedAt) : undefined);
    if (shared !== undefined) return shared;
    switch (column) {
      case "state":
        return launchPlan.closure?.state ?? 0;
      case "workflow_id":
        return row.workflow?.seq ?? null;
      case "schedule_type":
        return scheduleType(launchPlan);
      case "launch_condition_type":
        // SCHED exactly when the launch plan has a schedule, NULL otherwise, as FlyteAdmin stores it.
        return scheduleType(launchPlan) === "NONE" ? null : "SCHED";
      default:
        return null;
    }
  },
};

/** ListLaunchPlans' tables: launch plans, joined to their workflows. */
export const LAUNCH_PLAN_SCHEMA: FilterSchema<ListedLaunchPlan> = {
  primary: LAUNCH_PLAN_VERSIONS,
  joins: [{
    ...WORKFLOW_VERSIONS,
    read: (row, column) => row.workflow ? WORKFLOW_VERSIONS.read(row.workflow, column) : undefined,
  }],
};

function key(id: { project: string; domain: string; name: string; version: string } | undefined): string {
  return JSON.stringify([id?.project, id?.domain, id?.name, id?.version]);
}

/** The launch plans, each with its workflow; one whose workflow is not stored is left out, as the inner join does. */
export function listedLaunchPlans(
  launchPlans: (Row & { message: LaunchPlan })[],
  workflows: (Row & { message: Workflow })[],
): ListedLaunchPlan[] {
  const byId = new Map(listed(workflows).map((workflow) => [key(workflow.entry), workflow]));
  return listed(launchPlans)
    .map((row) => ({ ...row, workflow: byId.get(key(row.entry.message.spec?.workflowId)) }))
    .filter((row) => row.workflow !== undefined);
}

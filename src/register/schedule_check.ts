/**
 * The check flytectl makes before creating a scheduled launch plan: a schedule starts executions
 * with no one to type inputs, so every workflow input except the kickoff-time input must have a
 * default or a fixed value in the launch plan.
 *
 * @module
 */
import type { RegistrationLaunchPlanSpec as LaunchPlanSpec } from "../../proto/gen/fctl/registration/entities_pb.ts";
import type { Workflow } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";

/** Whether a launch plan spec carries a schedule (only those are checked and activated). */
export function hasSchedule(spec: LaunchPlanSpec | undefined): boolean {
  return spec?.entityMetadata?.schedule !== undefined;
}

/**
 * The workflow inputs a scheduled launch plan leaves without a value, sorted; empty when the launch
 * plan has no schedule or every input is covered.
 *
 * @param workflow the registered workflow, as GetWorkflow returns it (its compiled interface is authoritative)
 */
export function missingScheduledInputs(spec: LaunchPlanSpec, workflow: Workflow): string[] {
  const schedule = spec.entityMetadata?.schedule;
  if (!schedule) return [];
  const kickoff = schedule.kickoffTimeInputArg;
  const template = workflow.closure?.compiledWorkflow?.primary?.template;
  const inputs = Object.keys(template?.interface?.inputs?.variables ?? {});
  const covered = new Set<string>(Object.keys(spec.fixedInputs?.literals ?? {}));
  for (const [name, parameter] of Object.entries(spec.defaultInputs?.parameters ?? {})) {
    if (parameter.behavior.case === "default") covered.add(name);
  }
  return inputs.filter((name) => name !== kickoff && !covered.has(name)).sort();
}

/** flytectl's message for {@link missingScheduledInputs}, so scripts matching it keep working. */
export function missingScheduledInputsMessage(missing: readonly string[]): string {
  return `param values are missing on scheduled workflow for the following params [${missing.join(" ")}]. ` +
    "Either specify them having a default or fixed value";
}

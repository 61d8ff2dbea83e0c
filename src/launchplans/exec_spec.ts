/**
 * A launch plan's execution spec (`get launchplan NAME --execFile FILE`, as flytectl writes it): its default inputs
 * (every workflow input not fixed) with their defaults, decoded, or the type's default value for a required one,
 * marked `# required`; fixed inputs are not the user's to set and are left out.
 *
 * @module
 */
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { literalValue } from "../get/literal_value.ts";
import { defaultValue, type ExecSpec, type SpecValue } from "../tasks/exec_spec.ts";

/**
 * The spec of `launchPlan`: inputs sorted by name, then flytectl's keys (`workflow` is the launch plan's name).
 *
 * ```ts
 * import { connect, getLaunchPlan, launchPlanExecSpec, renderSpec } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const scope = { project: "flytesnacks", domain: "development" };
 * const result = await getLaunchPlan(flyte.client, { ...scope, name: "core.basic.wf", latest: true });
 * if (result.kind === "one") console.log(await renderSpec(launchPlanExecSpec(result.launchPlan, new Date())));
 * ```
 */
export function launchPlanExecSpec(launchPlan: LaunchPlan, now: Date): ExecSpec {
  const parameters = launchPlan.spec?.defaultInputs?.parameters ?? {};
  const inputs: { [key: string]: SpecValue } = {};
  const comments = new Map<string, string>();
  for (const name of Object.keys(parameters).sort()) {
    const { var: variable, behavior } = parameters[name];
    const given = behavior.case === "default" ? literalValue(behavior.value) : undefined;
    inputs[name] = given === undefined ? defaultValue(variable?.type, now) : given;
    const notes = [];
    if (behavior.case === "required" && behavior.value) notes.push("required");
    if (variable?.description && variable.description !== name) notes.push(variable.description);
    if (notes.length > 0) comments.set(name, notes.join("\n"));
  }
  return {
    document: {
      iamRoleARN: "",
      inputs,
      envs: {},
      kubeServiceAcct: "",
      targetDomain: "",
      targetProject: "",
      version: launchPlan.id?.version ?? "",
      workflow: launchPlan.id?.name ?? "",
    },
    comments,
  };
}

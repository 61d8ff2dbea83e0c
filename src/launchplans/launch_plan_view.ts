/**
 * How launch plans look as documents: canonical proto3 JSON (`-o json`, `-o yaml`); the tables' columns are
 * `launch_plan_columns.ts`, which builds none of a whole launch plan's descriptors.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type LaunchPlan, LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";

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

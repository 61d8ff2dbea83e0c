/**
 * A launch plan's default inputs read from its table row (launch_plan_inputs.ts) against the whole launch plan's:
 * field by field the same message, for real launch plans of every input type and for bytes a decoder must merge.
 */
import { equal, ok } from "node:assert/strict";
import { create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { LaunchPlanSpecSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ParameterMapSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { LaunchPlanSpecRowSchema } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import { createAdminClient } from "../admin/client.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { registerCore } from "../../tests/entity_fixtures.ts";
import { seedAdmin, typedLaunchPlanName } from "../../scripts/bench_seed.ts";
import { typedParameters } from "../../scripts/bench_typed_launch_plan.ts";
import { DEFAULT_INPUTS_FIELD, defaultInputsOf } from "./launch_plan_inputs.ts";

Deno.test("the row leaves default_inputs to its unknown fields, at flyteidl's number", () => {
  equal(LaunchPlanSpecSchema.field.defaultInputs.number, DEFAULT_INPUTS_FIELD);
  ok(LaunchPlanSpecRowSchema.fields.every((field) => field.number !== DEFAULT_INPUTS_FIELD));
});

Deno.test("default inputs sent twice are merged as a decoder of the whole spec merges them; none are empty", async () => {
  const typed = typedParameters();
  const names = Object.keys(typed);
  const half = (from: number, to: number) =>
    toBinary(
      LaunchPlanSpecSchema,
      create(LaunchPlanSpecSchema, {
        defaultInputs: { parameters: Object.fromEntries(names.slice(from, to).map((name) => [name, typed[name]])) },
      }),
    );
  const bytes = new Uint8Array([...half(0, 8), ...half(5, names.length)]);
  const whole = fromBinary(LaunchPlanSpecSchema, bytes).defaultInputs!;
  equal(Object.keys(whole.parameters).length, names.length);
  ok(equals(ParameterMapSchema, await defaultInputsOf(fromBinary(LaunchPlanSpecRowSchema, bytes)), whole));
  ok(equals(ParameterMapSchema, await defaultInputsOf(undefined), create(ParameterMapSchema)));
  const none = fromBinary(LaunchPlanSpecRowSchema, toBinary(LaunchPlanSpecSchema, create(LaunchPlanSpecSchema)));
  ok(equals(ParameterMapSchema, await defaultInputsOf(none), create(ParameterMapSchema)));
});

Deno.test("every launch plan's default inputs read from its row are the whole launch plan's, got or listed", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await registerCore(sandbox, ["v1"]);
    await seedAdmin(sandbox, { projects: 0, workflows: 0, launchPlans: 0, executions: 0, typedLaunchPlans: 1 });
    const request = { id: { project: "flytesnacks", domain: "development" }, limit: 100 };
    const [whole, rows] = [await client.admin.listLaunchPlans(request), await client.rows.listLaunchPlans(request)];
    ok(whole.launchPlans.length > 10, `${whole.launchPlans.length} launch plans registered`);
    equal(rows.launchPlans.length, whole.launchPlans.length);
    const typed = whole.launchPlans.find((lp) => lp.id?.name === typedLaunchPlanName(0));
    equal(Object.keys(typed?.spec?.defaultInputs?.parameters ?? {}).length, Object.keys(typedParameters()).length);
    for (const [i, launchPlan] of whole.launchPlans.entries()) {
      const expected = launchPlan.spec?.defaultInputs ?? create(ParameterMapSchema);
      const name = launchPlan.id?.name;
      ok(equals(ParameterMapSchema, await defaultInputsOf(rows.launchPlans[i].spec), expected), `${name} listed`);
      const row = await client.rows.getLaunchPlan({ id: launchPlan.id });
      ok(equals(ParameterMapSchema, await defaultInputsOf(row.spec), expected), `${name} got`);
    }
  } finally {
    client.close();
    await sandbox.close();
  }
});

/**
 * A launch plan's default inputs (flyteidl's `ParameterMap`: each input's type, default and whether it is required)
 * from the row the launch plan tables read (`LaunchPlanRow`), which leaves them out: `create execution` converts its
 * inputs by their types and needs nothing else of the launch plan. Reading the whole launch plan would build the
 * descriptors of every message it holds (schedules, notifications, security, fixed inputs, its closure) before the
 * call could go out; the row's are a few small messages, and the parameters' own load while the call is out. The
 * row keeps the bytes of the fields it leaves out (see `src/get/left_out_field.ts`).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { LaunchPlanSpecRow } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import type { ParameterMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { leftOutField } from "../get/left_out_field.ts";

/** The number of `flyteidl.admin.LaunchPlanSpec.default_inputs`, which `LaunchPlanSpecRow` leaves out. */
export const DEFAULT_INPUTS_FIELD = 3;

/**
 * The default inputs of the launch plan whose spec row is `spec`, as the whole launch plan's
 * `spec.defaultInputs` has them (empty when the admin sent none). Their descriptors load with the first call, from
 * flyteidl's `interface_pb.ts`.
 */
export async function defaultInputsOf(spec: LaunchPlanSpecRow | undefined): Promise<ParameterMap> {
  const { ParameterMapSchema } = await import("../../proto/gen/flyteidl/core/interface_pb.ts");
  return leftOutField(spec, DEFAULT_INPUTS_FIELD, ParameterMapSchema) ?? create(ParameterMapSchema);
}

/** The number of `flyteidl.admin.LaunchPlanSpec.fixed_inputs`, which `LaunchPlanSpecRow` leaves out. */
export const FIXED_INPUTS_FIELD = 4;

/**
 * The names of the inputs the launch plan whose spec row is `spec` fixes (`spec.fixedInputs`): no execution may set
 * them. Decoded with flyteidl's `literals_pb.ts`, which the input conversion loads anyway.
 */
export async function fixedInputNames(spec: LaunchPlanSpecRow | undefined): Promise<string[]> {
  const { LiteralMapSchema } = await import("../../proto/gen/flyteidl/core/literals_pb.ts");
  return Object.keys(leftOutField(spec, FIXED_INPUTS_FIELD, LiteralMapSchema)?.literals ?? {});
}

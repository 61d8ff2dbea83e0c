/**
 * A launch plan's default inputs (flyteidl's `ParameterMap`: each input's type, default and whether it is required)
 * from the row the launch plan tables read (`LaunchPlanRow`), which leaves them out: `create execution` converts its
 * inputs by their types and needs nothing else of the launch plan. Reading the whole launch plan would build the
 * descriptors of every message it holds (schedules, notifications, security, fixed inputs, its closure) before the
 * call could go out; the row's are a few small messages, and the parameters' own load while the call is out.
 *
 * A field a row does not declare is not lost: it is kept, as the bytes that were received, among the row's unknown
 * fields, and these bytes decode into flyteidl's own message as a reader of the whole launch plan would decode them.
 *
 * @module
 */
import { fromBinary } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import type { LaunchPlanSpecRow } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import type { ParameterMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";

/** The number of `flyteidl.admin.LaunchPlanSpec.default_inputs`, which `LaunchPlanSpecRow` leaves out. */
export const DEFAULT_INPUTS_FIELD = 3;

/**
 * The default inputs of the launch plan whose spec row is `spec`, as the whole launch plan's
 * `spec.defaultInputs` has them (empty when the admin sent none). Their descriptors load with the first call, from
 * flyteidl's `interface_pb.ts`.
 */
export async function defaultInputsOf(spec: LaunchPlanSpecRow | undefined): Promise<ParameterMap> {
  const { ParameterMapSchema } = await import("../../proto/gen/flyteidl/core/interface_pb.ts");
  // A message field sent more than once is merged, occurrence after occurrence; their bytes one after the other
  // decode as that merge. Each unknown field's bytes are its length prefix, then its value.
  const values = (spec?.$unknown ?? [])
    .filter((field) => field.no === DEFAULT_INPUTS_FIELD && field.wireType === WireType.LengthDelimited)
    .map((field) => new BinaryReader(field.data).bytes());
  const bytes = new Uint8Array(values.reduce((size, value) => size + value.length, 0));
  let at = 0;
  for (const value of values) {
    bytes.set(value, at);
    at += value.length;
  }
  return fromBinary(ParameterMapSchema, bytes);
}

/**
 * How executions look as documents: canonical proto3 JSON (`-o json`, `-o yaml`); the table's columns are
 * `execution_columns.ts`, which builds none of a whole execution's descriptors.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Execution, ExecutionSchema } from "../../proto/gen/flyteidl/admin/execution_pb.ts";

/**
 * Canonical proto3 JSON of an execution, as `fctl get execution -o json` prints it.
 *
 * ```ts
 * import { connect, executionJson, getExecution } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const execution = await getExecution(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" });
 * console.log(JSON.stringify(executionJson(execution)));
 * ```
 */
export function executionJson(execution: Execution): JsonValue {
  return toJson(ExecutionSchema, execution);
}

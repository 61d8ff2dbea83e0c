/**
 * How tasks look as documents: canonical proto3 JSON (`-o json`, `-o yaml`); the table's columns are
 * `task_columns.ts`, which builds none of a whole task's descriptors.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Task, TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";

/**
 * Canonical proto3 JSON of a task, as `fctl get task -o json` prints it (camelCase names, enums by name,
 * 64-bit integers as strings, default values left out).
 *
 * ```ts
 * import { connect, getTask, taskJson } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getTask(flyte.client, { project: "flytesnacks", domain: "development", name: "hello", latest: true });
 * if (result.kind === "one") console.log(JSON.stringify(taskJson(result.task), null, 2));
 * ```
 */
export function taskJson(task: Task): JsonValue {
  return toJson(TaskSchema, task);
}

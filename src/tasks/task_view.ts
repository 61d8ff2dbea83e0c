/**
 * How tasks look: flytectl's table columns and canonical proto3 JSON.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Task, TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";
import { VARIABLE_LINE_WIDTH, variableLines } from "../get/variable_lines.ts";

/** The task table's columns, in flytectl's order. */
export const TASK_COLUMNS: readonly Column<Task>[] = [
  // What identifies a task is never cut: the other columns shrink first, and a name too long to leave them room
  // wraps.
  { header: "VERSION", cell: (t) => t.id?.version ?? "", keep: true },
  { header: "NAME", cell: (t) => t.id?.name ?? "", keep: true, wrap: true },
  { header: "TYPE", cell: (t) => t.closure?.compiledTask?.template?.type ?? "" },
  {
    header: "INPUTS",
    cell: (t) => variableLines(t.closure?.compiledTask?.template?.interface?.inputs),
    maxLineWidth: VARIABLE_LINE_WIDTH,
  },
  {
    header: "OUTPUTS",
    cell: (t) => variableLines(t.closure?.compiledTask?.template?.interface?.outputs),
    maxLineWidth: VARIABLE_LINE_WIDTH,
  },
  // Wide headers over short values: on a terminal too narrow for every cell whole, these are left out (the count
  // line says so) rather than cutting the columns that tell tasks apart; headers are never cut.
  {
    header: "DISCOVERABLE",
    cell: (t) => String(t.closure?.compiledTask?.template?.metadata?.discoverable ?? false),
    dropRank: 2,
  },
  {
    header: "DISCOVERY VERSION",
    cell: (t) => t.closure?.compiledTask?.template?.metadata?.discoveryVersion ?? "",
    dropRank: 1,
  },
  { header: "CREATED AT", cell: (t) => formatTimestamp(t.closure?.createdAt) },
];

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

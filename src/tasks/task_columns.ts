/**
 * How tasks look in a table: flytectl's columns, over what they read of a task: a row (see `AdminRowsClient`),
 * the fields they show, or a whole task.
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { Column } from "../output/table.ts";
import { formatTimestamp } from "../output/timestamp.ts";
import { variableColumn, type VariableDescriptions } from "../get/variable_lines.ts";

/** What the columns read of a task: a row (`TaskRow`) has it, and so has a whole flyteidl `Task`. */
export interface TaskCells {
  id?: { name: string; version: string };
  closure?: {
    compiledTask?: {
      template?: {
        type: string;
        metadata?: { discoverable: boolean; discoveryVersion: string };
        interface?: { inputs?: VariableDescriptions; outputs?: VariableDescriptions };
      };
    };
    createdAt?: Timestamp;
  };
}

/** The task table's columns, in flytectl's order. */
export const TASK_COLUMNS: readonly Column<TaskCells>[] = [
  // What identifies a task is never cut: the other columns shrink first, and a name too long to leave them room
  // wraps.
  { header: "VERSION", cell: (t) => t.id?.version ?? "", keep: true },
  { header: "NAME", cell: (t) => t.id?.name ?? "", keep: true, wrap: true },
  { header: "TYPE", cell: (t) => t.closure?.compiledTask?.template?.type ?? "" },
  variableColumn("INPUTS", (t) => t.closure?.compiledTask?.template?.interface?.inputs),
  variableColumn("OUTPUTS", (t) => t.closure?.compiledTask?.template?.interface?.outputs),
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

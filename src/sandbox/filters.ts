/**
 * The filter tables of the task and workflow listings: how each column of FlyteAdmin's `tasks` and `workflows`
 * tables reads from a stored version. Filters, sort keys and their refusals are FlyteAdmin's, as for executions
 * (see `execution_filters.ts`): a filter names a column of the table, with or without the entity's prefix
 * (`task.name`, `name`), and anything else is refused as FlyteAdmin refuses it (`'t.owner' is invalid filter`).
 *
 * @module
 */
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Workflow } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { type ColumnValue, type FilterTable, TASK_COLUMNS, WORKFLOW_COLUMNS } from "./execution_filters.ts";

/**
 * The columns of a stored entity that filters and sorting can see.
 *
 * ```ts
 * import type { Row } from "@fctl/fctl/testing";
 *
 * const row: Row = { project: "flytesnacks", domain: "development", name: "hello", version: "v1", createdNs: 0n };
 * console.log(row.name);
 * ```
 */
export interface Row {
  /** The project, the `project` field of filters. */
  project: string;
  /** The domain, the `domain` field of filters. */
  domain: string;
  /** The entity's name, the `name` field of filters. */
  name: string;
  /** The version; empty for the rows of the List*Ids methods, which list names. */
  version: string;
  /** Creation time in nanoseconds since the epoch. */
  createdNs: bigint;
}

/** A stored version as a listing sees it: the version and its row id (FlyteAdmin's `id` column, creation order). */
export interface Listed<M> {
  entry: Row & { message: M };
  seq: number;
}

/** Numbers a kind's stored versions, oldest first, as its table's ids do. */
export function listed<M>(entries: (Row & { message: M })[]): Listed<M>[] {
  return entries.map((entry, i) => ({ entry, seq: i + 1 }));
}

/** The columns every versioned entity's table has; undefined for the others. */
export function versionColumn<M>(row: Listed<M>, column: string, updatedNs?: bigint): ColumnValue | undefined {
  switch (column) {
    case "id":
      return row.seq;
    case "project":
    case "domain":
    case "name":
    case "version":
      return row.entry[column];
    case "created_at":
      return row.entry.createdNs;
    case "updated_at":
      return updatedNs ?? row.entry.createdNs;
    case "deleted_at":
      return null;
    default:
      return undefined;
  }
}

/** `tasks`. Columns the sandbox does not keep (closure, digest: bytes) are NULL and match no filter. */
export const TASK_VERSIONS: FilterTable<Listed<Task>> = {
  entity: "t",
  prefix: "task",
  columns: TASK_COLUMNS,
  read(row, column) {
    const shared = versionColumn(row, column);
    if (shared !== undefined) return shared;
    if (column === "type") return row.entry.message.closure?.compiledTask?.template?.type ?? "";
    if (column === "short_description") return row.entry.message.shortDescription;
    return null;
  },
};

/** `workflows`. */
export const WORKFLOW_VERSIONS: FilterTable<Listed<Workflow>> = {
  entity: "w",
  prefix: "workflow",
  columns: WORKFLOW_COLUMNS,
  read(row, column) {
    const shared = versionColumn(row, column);
    if (shared !== undefined) return shared;
    if (column === "short_description") return row.entry.message.shortDescription;
    return null;
  },
};

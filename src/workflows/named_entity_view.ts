/**
 * How named entities look (the names of a project and domain's workflows, with their metadata), as flytectl
 * shows them, and their canonical proto3 JSON. Apart from workflow_view.ts so that listing the names loads the
 * descriptors of admin/common.proto alone, none of a workflow's.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type NamedEntity, NamedEntitySchema, NamedEntityState } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { Column } from "../output/table.ts";

/** The columns of named entities (workflow or launch plan names): PROJECT DOMAIN NAME DESCRIPTION STATE. */
export const NAMED_ENTITY_COLUMNS: readonly Column<NamedEntity>[] = [
  { header: "PROJECT", cell: (e) => e.id?.project ?? "" },
  { header: "DOMAIN", cell: (e) => e.id?.domain ?? "" },
  { header: "NAME", cell: (e) => e.id?.name ?? "", keep: true, wrap: true },
  { header: "DESCRIPTION", cell: (e) => e.metadata?.description ?? "", wrap: true },
  // The enum's name, as the JSON document says it.
  { header: "STATE", cell: (e) => NamedEntityState[e.metadata?.state ?? 0] ?? String(e.metadata?.state) },
];

/**
 * Canonical proto3 JSON of a named entity (a workflow or launch plan name with its metadata).
 *
 * ```ts
 * import { connect, getWorkflow, namedEntityJson } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getWorkflow(flyte.client, { project: "flytesnacks", domain: "development" });
 * if (result.kind === "names") console.log(result.items.map(namedEntityJson));
 * ```
 */
export function namedEntityJson(entity: NamedEntity): JsonValue {
  return toJson(NamedEntitySchema, entity);
}

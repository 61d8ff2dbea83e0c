/**
 * Named entities as FlyteAdmin lists them: one row per name of a resource type in a project and domain, with the
 * name's metadata (description and state, ACTIVE unless updated). ListNamedEntities with no filters hides the
 * system-generated `.flytegen` names; filters name a named-entity column (`name`, `state`, `entities.name`) or one
 * of its metadata's (`named_entity_metadata.created_at`); a sort key must be a named-entity column (there is no
 * `created_at`), and only project, domain and name are ones FlyteAdmin's query can sort on; the next token comes
 * exactly with a full page. GetNamedEntity and UpdateNamedEntity take any resource type but UNSPECIFIED, refuse by
 * name one with no versions to name, and answer a name without versions as FlyteAdmin does: NOT_FOUND, "entry not
 * found".
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type NamedEntity,
  type NamedEntityListRequest,
  NamedEntityState,
} from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { MessageInit } from "../admin/message_init.ts";
import type { AdminServiceImpl } from "./admin_service_impl.ts";
import { NAMED_ENTITY_COLUMNS, NAMED_ENTITY_METADATA_COLUMNS } from "./column_filters.ts";
import {
  type FilterSchema,
  type FilterTable,
  matchesFilters,
  pageOf,
  parseOffsetToken,
  parseRequestFilters,
  sortComparator,
} from "./execution_filters.ts";
import type { Row } from "./filters.ts";
import { namedEntityMetadata, NamedEntityMetadataTable } from "./named_entity_metadata.ts";
import type { SandboxStore } from "./store.ts";
import { databaseError, invalidArgument as invalid } from "./shared_validation.ts";

/** A named entity's metadata, kept only once updated. */
interface Metadata {
  description: string;
  state: NamedEntityState;
}

/** One listed name: the key, and its metadata when it has any. */
interface NameRow {
  resourceType: ResourceType;
  project: string;
  domain: string;
  name: string;
  metadata?: Metadata;
}

/**
 * A state filter reads a name without metadata as ACTIVE (FlyteAdmin wraps the column in `COALESCE(state, 0)`);
 * every other column of missing metadata is NULL and matches nothing.
 */
function metadataColumn(row: NameRow, column: string) {
  if (column === "state") return row.metadata?.state ?? NamedEntityState.NAMED_ENTITY_ACTIVE;
  if (!row.metadata) return null;
  switch (column) {
    case "description":
      return row.metadata.description;
    case "resource_type":
      return row.resourceType;
    case "project":
    case "domain":
    case "name":
      return row[column];
    default:
      return null;
  }
}

/** The named entities (the `entities` the listing's query builds): description and state come from the metadata. */
const NAMED_ENTITY_TABLE: FilterTable<NameRow> = {
  entity: "nen",
  prefix: "entities",
  columns: NAMED_ENTITY_COLUMNS,
  read(row, column) {
    switch (column) {
      case "project":
      case "domain":
      case "name":
        return row[column];
      case "resource_type":
        return row.resourceType;
      default:
        return metadataColumn(row, column);
    }
  },
};

const SCHEMA: FilterSchema<NameRow> = {
  primary: NAMED_ENTITY_TABLE,
  joins: [{
    entity: "nem",
    prefix: "named_entity_metadata",
    columns: NAMED_ENTITY_METADATA_COLUMNS,
    read: metadataColumn,
  }],
};

function byName(a: NameRow, b: NameRow): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The table each resource type's names come from, as Postgres names it. */
const TABLES: Partial<Record<ResourceType, string>> = {
  [ResourceType.TASK]: "tasks",
  [ResourceType.WORKFLOW]: "workflows",
  [ResourceType.LAUNCH_PLAN]: "launch_plans",
};

/**
 * The database's refusal of a sort key that is a named-entity column but not one of the names' query: FlyteAdmin
 * sorts the names (grouped by project, domain and name) of the resource type's table by it too.
 */
function sortKeyError(table: string, key: string) {
  if (["project", "domain", "name"].includes(key)) return undefined;
  if (table === "launch_plans" && key === "state") {
    return databaseError(
      `column "launch_plans.state" must appear in the GROUP BY clause or be used in an aggregate function`,
    );
  }
  return databaseError(`column "${key}" does not exist`);
}

function validResourceType(type: ResourceType): boolean {
  return type === ResourceType.TASK || type === ResourceType.WORKFLOW || type === ResourceType.LAUNCH_PLAN;
}

function rowsOf(store: SandboxStore, type: ResourceType): Row[] {
  if (type === ResourceType.TASK) return store.taskEntries();
  if (type === ResourceType.WORKFLOW) return store.workflowEntries();
  return store.launchPlanEntries();
}

/** ListNamedEntities over the store's versions, with FlyteAdmin's checks in its order. */
export function listNamedEntities(
  store: SandboxStore,
  metadata: NamedEntityMetadataTable,
  request: NamedEntityListRequest,
): { entities: MessageInit<NamedEntity>[]; token: string } {
  if (request.project === "") throw invalid("missing project");
  if (request.domain === "") throw invalid("missing domain");
  if (request.resourceType === ResourceType.UNSPECIFIED) throw invalid("invalid value for resource_type");
  if (request.limit === 0) throw invalid("invalid value for limit");
  // "Add implicit filter to exclude system generated workflows".
  const filterText = request.filters === "" ? "not_like(name,.flytegen%)" : request.filters;
  const filters = parseRequestFilters(filterText, SCHEMA, store.nowNs());
  // Without a sort FlyteAdmin's order is the database's: by name is one it may give.
  const order = sortComparator(request.sortBy, NAMED_ENTITY_TABLE) ?? byName;
  const offset = parseOffsetToken(request.token, "ListNamedEntities");
  const table = TABLES[request.resourceType];
  if (!table) {
    const type = ResourceType[request.resourceType] ?? String(request.resourceType);
    throw invalid(`Cannot list entity names for resource type: ${type}`);
  }
  const refused = request.sortBy && sortKeyError(table, request.sortBy.key);
  if (refused) throw refused;
  // The names' subquery selects only project, domain and name: Postgres refuses a filter on its resource_type.
  if (filters.some((filter) => filter.table === NAMED_ENTITY_TABLE && filter.column === "resource_type")) {
    throw databaseError("column entities.resource_type does not exist");
  }
  const names = new Map<string, NameRow>();
  for (const row of rowsOf(store, request.resourceType)) {
    if (row.project !== request.project || row.domain !== request.domain) continue;
    const key = NamedEntityMetadataTable.key(request.resourceType, row.project, row.domain, row.name);
    const found = metadata.find(key);
    names.set(key, {
      resourceType: request.resourceType,
      project: row.project,
      domain: row.domain,
      name: row.name,
      metadata: found,
    });
  }
  const rows = [...names.values()].filter((row) => matchesFilters(row, filters)).sort(order);
  const page = pageOf(rows, offset, request.limit);
  const entities = page.items.map((row) => ({
    resourceType: request.resourceType,
    id: { project: row.project, domain: row.domain, name: row.name, org: request.org },
    metadata: row.metadata ?? { description: "", state: NamedEntityState.NAMED_ENTITY_ACTIVE },
  }));
  return { entities, token: page.token };
}

/**
 * FlyteAdmin's named entity lookup: a resource type with versions to name (else INVALID_ARGUMENT naming the type, as
 * Go prints an enum), and a version of the name (else gorm's not-found, which FlyteAdmin words "entry not found").
 */
function requireExisting(
  store: SandboxStore,
  type: ResourceType,
  id: { project: string; domain: string; name: string },
): void {
  if (!validResourceType(type)) {
    throw invalid(`Cannot get NamedEntityMetadata for resource type: ${ResourceType[type] ?? type}`);
  }
  const exists = rowsOf(store, type).some((row) =>
    row.project === id.project && row.domain === id.domain && row.name === id.name
  );
  if (!exists) throw new ConnectError("entry not found", Code.NotFound);
}

/** FlyteAdmin's ValidateResourceType: any resource type but UNSPECIFIED (Go names every other number). */
function requireResourceType(type: ResourceType): void {
  if (type === ResourceType.UNSPECIFIED) throw invalid("invalid value for resource_type");
}

/** The resource types whose names' state may be changed from ACTIVE. */
const ARCHIVABLE = new Set([ResourceType.WORKFLOW, ResourceType.TASK, ResourceType.LAUNCH_PLAN]);

/** FlyteAdmin's ValidateNamedEntityIdentifier: the id, and each of its fields, present. */
function requireNamedEntityId(
  id: { project: string; domain: string; name: string } | undefined,
): { project: string; domain: string; name: string } {
  if (!id) throw invalid("missing id");
  for (const field of ["project", "domain", "name"] as const) {
    if (id[field] === "") throw invalid(`missing ${field}`);
  }
  return id;
}

/** The longest description FlyteAdmin's database keeps: its named_entity_metadata column is a varchar(300). */
const DESCRIPTION_MAX = 300;

/** The named-entity methods of the sandbox's AdminService. */
export function namedEntityMethods(store: SandboxStore): AdminServiceImpl {
  const metadata = namedEntityMetadata(store);
  return {
    listNamedEntities: (request) => listNamedEntities(store, metadata, request),
    // GetNamedEntity: a name with at least one version, with its metadata (ACTIVE and no description unless updated).
    getNamedEntity: (request) => {
      requireResourceType(request.resourceType);
      const id = requireNamedEntityId(request.id);
      requireExisting(store, request.resourceType, id);
      const key = NamedEntityMetadataTable.key(request.resourceType, id.project, id.domain, id.name);
      return { resourceType: request.resourceType, id, metadata: metadata.get(key) };
    },
    updateNamedEntity: (request) => {
      requireResourceType(request.resourceType);
      const id = requireNamedEntityId(request.id);
      if (!request.metadata) throw invalid("missing metadata");
      if (request.metadata.state !== NamedEntityState.NAMED_ENTITY_ACTIVE && !ARCHIVABLE.has(request.resourceType)) {
        const type = ResourceType[request.resourceType] ?? String(request.resourceType);
        throw invalid(`Resource [${type}] cannot have its state updated`);
      }
      requireExisting(store, request.resourceType, id);
      // Postgres counts a varchar's characters (code points); FlyteAdmin passes its refusal on as UNKNOWN.
      if ([...request.metadata.description].length > DESCRIPTION_MAX) {
        throw new ConnectError(
          `failed database operation with value too long for type character varying(${DESCRIPTION_MAX})`,
          Code.Unknown,
        );
      }
      const key = NamedEntityMetadataTable.key(request.resourceType, id.project, id.domain, id.name);
      // FlyteAdmin writes it with gorm's Assign, which skips empty fields: a description sent empty stays as it was.
      const description = request.metadata.description || metadata.get(key).description;
      metadata.set(key, { description, state: request.metadata.state });
      return {};
    },
  };
}

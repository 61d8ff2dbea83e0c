/**
 * Named entities as FlyteAdmin lists them (named_entity_manager.go, validation/named_entity_validator.go): one row
 * per name of a resource type in a project and domain, with the name's metadata (description and state, ACTIVE
 * unless updated). ListNamedEntities with no filters hides the system-generated `.flytegen` names; a sort key
 * must be a named-entity column (there is no `created_at`); the next token comes exactly with a full page.
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
import {
  columnComparator,
  type Columns,
  matchesColumns,
  pageAt,
  parseColumnFilters,
  parseOffset,
} from "./column_filters.ts";
import type { Row } from "./filters.ts";
import type { SandboxStore } from "./store.ts";

/** FlyteAdmin's `models.NamedEntityColumns`. */
const COLUMNS = ["resource_type", "project", "domain", "name", "description", "state"] as const;

function invalid(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

function validResourceType(type: ResourceType): boolean {
  return type === ResourceType.TASK || type === ResourceType.WORKFLOW || type === ResourceType.LAUNCH_PLAN;
}

/** The metadata of named entities that were updated; others are ACTIVE with no description. */
export class NamedEntityMetadataTable {
  readonly #metadata = new Map<string, { description: string; state: NamedEntityState }>();

  static key(type: ResourceType, project: string, domain: string, name: string): string {
    return JSON.stringify([type, project, domain, name]);
  }

  get(key: string): { description: string; state: NamedEntityState } {
    return this.#metadata.get(key) ?? { description: "", state: NamedEntityState.NAMED_ENTITY_ACTIVE };
  }

  set(key: string, metadata: { description: string; state: NamedEntityState }): void {
    this.#metadata.set(key, metadata);
  }
}

function rowsOf(store: SandboxStore, type: ResourceType): Row[] {
  if (type === ResourceType.TASK) return store.taskEntries();
  if (type === ResourceType.WORKFLOW) return store.workflowEntries();
  return store.launchPlanEntries();
}

/** ListNamedEntities over the store's versions. */
export function listNamedEntities(
  store: SandboxStore,
  metadata: NamedEntityMetadataTable,
  request: NamedEntityListRequest,
): { entities: MessageInit<NamedEntity>[]; token: string } {
  if (request.project === "") throw invalid("missing project");
  if (request.domain === "") throw invalid("missing domain");
  if (!validResourceType(request.resourceType)) throw invalid("invalid value for resource_type");
  if (request.limit === 0) throw invalid("invalid value for limit");
  // "Add implicit filter to exclude system generated workflows".
  const filterText = request.filters === "" ? "not_like(name,.flytegen%)" : request.filters;
  const filters = parseColumnFilters(filterText, "named_entity", COLUMNS);
  const order = columnComparator<Columns>(request.sortBy, COLUMNS, { key: "name", direction: 1 });
  const offset = parseOffset(request.token);
  const names = new Map<string, Columns>();
  for (const row of rowsOf(store, request.resourceType)) {
    if (row.project !== request.project || row.domain !== request.domain) continue;
    const key = NamedEntityMetadataTable.key(request.resourceType, row.project, row.domain, row.name);
    const { description, state } = metadata.get(key);
    names.set(key, {
      resource_type: request.resourceType,
      project: row.project,
      domain: row.domain,
      name: row.name,
      description,
      state,
    });
  }
  const rows = [...names.values()].filter((row) => matchesColumns(row, filters)).sort(order);
  const page = pageAt(rows, offset, request.limit);
  const entities = page.items.map((row) => ({
    resourceType: request.resourceType,
    id: { project: String(row.project), domain: String(row.domain), name: String(row.name), org: request.org },
    metadata: { description: String(row.description), state: Number(row.state) as NamedEntityState },
  }));
  return { entities, token: page.token };
}

/** NOT_FOUND unless the name has a version of that resource type. */
function requireExisting(
  store: SandboxStore,
  type: ResourceType,
  id: { project: string; domain: string; name: string },
): void {
  const exists = rowsOf(store, type).some((row) =>
    row.project === id.project && row.domain === id.domain && row.name === id.name
  );
  if (!exists) throw new ConnectError(`missing named entity ${id.project}/${id.domain}/${id.name}`, Code.NotFound);
}

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
  const metadata = new NamedEntityMetadataTable();
  return {
    listNamedEntities: (request) => listNamedEntities(store, metadata, request),
    // GetNamedEntity: a name with at least one version, with its metadata (ACTIVE and no description unless updated).
    getNamedEntity: (request) => {
      if (!validResourceType(request.resourceType)) throw invalid("invalid value for resource_type");
      const id = requireNamedEntityId(request.id);
      requireExisting(store, request.resourceType, id);
      const key = NamedEntityMetadataTable.key(request.resourceType, id.project, id.domain, id.name);
      return { resourceType: request.resourceType, id, metadata: metadata.get(key) };
    },
    updateNamedEntity: (request) => {
      if (!validResourceType(request.resourceType)) throw invalid("invalid value for resource_type");
      const id = requireNamedEntityId(request.id);
      if (!request.metadata) throw invalid("missing metadata");
      requireExisting(store, request.resourceType, id);
      // Postgres counts a varchar's characters (code points); FlyteAdmin passes its refusal on as UNKNOWN.
      if ([...request.metadata.description].length > DESCRIPTION_MAX) {
        throw new ConnectError(
          `failed database operation with value too long for type character varying(${DESCRIPTION_MAX})`,
          Code.Unknown,
        );
      }
      const key = NamedEntityMetadataTable.key(request.resourceType, id.project, id.domain, id.name);
      metadata.set(key, { description: request.metadata.description, state: request.metadata.state });
      return {};
    },
  };
}

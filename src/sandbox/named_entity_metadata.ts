/**
 * The metadata FlyteAdmin keeps of named entities (`named_entity_metadata`): a description and a state per name of a
 * resource type, ACTIVE with no description until updated, SYSTEM_GENERATED for the names FlyteAdmin makes itself.
 *
 * @module
 */
import { NamedEntityState } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

/** The metadata of named entities that were updated; others are ACTIVE with no description. */
export class NamedEntityMetadataTable {
  readonly #metadata = new Map<string, { description: string; state: NamedEntityState }>();

  static key(type: ResourceType, project: string, domain: string, name: string): string {
    return JSON.stringify([type, project, domain, name]);
  }

  get(key: string): { description: string; state: NamedEntityState } {
    return this.#metadata.get(key) ?? { description: "", state: NamedEntityState.NAMED_ENTITY_ACTIVE };
  }

  /** The metadata of a name that was updated; undefined for the others. */
  find(key: string): { description: string; state: NamedEntityState } | undefined {
    return this.#metadata.get(key);
  }

  set(key: string, metadata: { description: string; state: NamedEntityState }): void {
    this.#metadata.set(key, metadata);
  }
}

const METADATA = new WeakMap<object, NamedEntityMetadataTable>();

/**
 * The named entities' metadata of a sandbox, one table per `owner` (its store, which this module does not import:
 * the store's own modules mark names here).
 */
export function namedEntityMetadata(owner: object): NamedEntityMetadataTable {
  let table = METADATA.get(owner);
  if (!table) METADATA.set(owner, table = new NamedEntityMetadataTable());
  return table;
}

/**
 * Marks a name FlyteAdmin generated (the workflow and launch plan it makes to run a task) SYSTEM_GENERATED, as it
 * does with an UpdateNamedEntity that keeps the description.
 */
export function markSystemGenerated(
  owner: object,
  type: ResourceType,
  id: { project: string; domain: string; name: string },
): void {
  const table = namedEntityMetadata(owner);
  const key = NamedEntityMetadataTable.key(type, id.project, id.domain, id.name);
  table.set(key, { description: table.get(key).description, state: NamedEntityState.SYSTEM_GENERATED });
}

/**
 * The columns of the listings that have no entity versions, projects and named entities, as FlyteAdmin's filters
 * and sort keys name them, and the page of a listing whose limit may be 0 (ListProjects: everything).
 *
 * @module
 */

const BASE_COLUMNS = ["id", "created_at", "updated_at", "deleted_at"];

/** The columns of FlyteAdmin's `projects` table. */
export const PROJECT_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  "identifier",
  "name",
  "description",
  "labels",
  "state",
]);

/** A named entity's columns (FlyteAdmin's `NamedEntityColumns`): its key and its metadata's fields. */
export const NAMED_ENTITY_COLUMNS: ReadonlySet<string> = new Set([
  "resource_type",
  "project",
  "domain",
  "name",
  "description",
  "state",
]);

/** The columns of `named_entity_metadata`, the table a named entity's filters may join. */
export const NAMED_ENTITY_METADATA_COLUMNS: ReadonlySet<string> = new Set([
  ...BASE_COLUMNS,
  ...NAMED_ENTITY_COLUMNS,
]);

/**
 * The page at `offset`, and FlyteAdmin's next token: the next offset exactly when the page holds `limit` items (a
 * limit of 0 lists everything, and an empty page then is "full": its token is the offset).
 */
export function pageAt<T>(rows: T[], offset: number, limit: number): { items: T[]; token: string } {
  const items = limit > 0 ? rows.slice(offset, offset + limit) : rows.slice(offset);
  return { items, token: items.length === limit ? String(offset + items.length) : "" };
}

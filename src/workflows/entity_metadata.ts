/**
 * `updateEntityMetadata`: changes the description or state of a task, workflow or launch plan name
 * (GetNamedEntity, then UpdateNamedEntity). The admin replaces the metadata whole, so what the caller did not
 * name is sent as it is now: a new description never un-archives a name.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { NotFoundError } from "../admin/errors.ts";
import { quote } from "../errors.ts";
import { type NamedEntity, NamedEntityState } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

/**
 * A task, workflow or launch plan name.
 *
 * ```ts
 * import type { EntityName } from "@fctl/fctl";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const id: EntityName = { resourceType: ResourceType.WORKFLOW, project: "flytesnacks", domain: "development", name: "core.basic.wf" };
 * console.log(id.name);
 * ```
 */
export interface EntityName {
  /** TASK, WORKFLOW or LAUNCH_PLAN. */
  resourceType: ResourceType;
  /** Project of the name. */
  project: string;
  /** Domain of the name. */
  domain: string;
  /** The name. */
  name: string;
}

/**
 * The metadata fields to change; absent ones stay as they are.
 *
 * ```ts
 * import type { EntityMetadataChange } from "@fctl/fctl";
 *
 * const change: EntityMetadataChange = { description: "says hello" };
 * console.log(change.description);
 * ```
 */
export interface EntityMetadataChange {
  /** The new description. */
  description?: string;
  /** NAMED_ENTITY_ACTIVE or NAMED_ENTITY_ARCHIVED. */
  state?: NamedEntityState;
}

const KIND: Record<number, string> = {
  [ResourceType.TASK]: "task",
  [ResourceType.WORKFLOW]: "workflow",
  [ResourceType.LAUNCH_PLAN]: "launch plan",
};

function missing(id: EntityName, err: NotFoundError): NotFoundError {
  const message = `${KIND[id.resourceType] ?? "entity"} ${quote(id.name)} not found in project ${quote(id.project)}, ` +
    `domain ${quote(id.domain)}`;
  return new NotFoundError(err.rpc, err.serverMessage, message, { cause: err });
}

function request(id: EntityName) {
  const { resourceType, ...rest } = id;
  return { resourceType, id: rest };
}

/** Reads a name's metadata (GetNamedEntity). */
export async function readNamedEntity(client: AdminClient, id: EntityName, signal?: AbortSignal): Promise<NamedEntity> {
  try {
    return await client.admin.getNamedEntity(request(id), { signal });
  } catch (err) {
    throw err instanceof NotFoundError ? missing(id, err) : err;
  }
}

/** The metadata `change` makes of `current`'s. */
export function changedMetadata(current: NamedEntity, change: EntityMetadataChange) {
  return {
    description: change.description ?? current.metadata?.description ?? "",
    state: change.state ?? current.metadata?.state ?? NamedEntityState.NAMED_ENTITY_ACTIVE,
  };
}

/** Sends a name's whole metadata (UpdateNamedEntity). */
export async function sendEntityMetadata(
  client: AdminClient,
  id: EntityName,
  metadata: ReturnType<typeof changedMetadata>,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await client.admin.updateNamedEntity({ ...request(id), metadata }, { signal });
  } catch (err) {
    throw err instanceof NotFoundError ? missing(id, err) : err;
  }
}

/**
 * Changes a name's description or state, keeping the other as it is; returns the name as it was.
 *
 * ```ts
 * import { connect, updateEntityMetadata } from "@fctl/fctl";
 * import { NamedEntityState, ResourceType } from "@fctl/fctl/types";
 *
 * await using flyte = await connect();
 * const id = { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: "core.basic.hello" };
 * await updateEntityMetadata(flyte.client, id, { state: NamedEntityState.NAMED_ENTITY_ARCHIVED });
 * ```
 *
 * @throws {NotFoundError} no such name, the message naming it, its project and domain
 * @throws {AdminError} any other refusal
 */
export async function updateEntityMetadata(
  client: AdminClient,
  id: EntityName,
  change: EntityMetadataChange,
  signal?: AbortSignal,
): Promise<NamedEntity> {
  const current = await readNamedEntity(client, id, signal);
  await sendEntityMetadata(client, id, changedMetadata(current, change), signal);
  return current;
}

/** A named entity state as its name (`NAMED_ENTITY_ACTIVE`, `NAMED_ENTITY_ARCHIVED`). */
export function entityStateName(state: NamedEntityState | undefined): string {
  return NamedEntityState[state ?? NamedEntityState.NAMED_ENTITY_ACTIVE] ?? String(state);
}

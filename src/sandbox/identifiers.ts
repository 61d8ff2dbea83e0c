/**
 * Identifier checks and formatting shared by every entity kind.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

/** The entity kinds the sandbox stores, spelled as FlyteAdmin spells them in messages. */
export type EntityKind = "task" | "workflow" | "launch plan";

const ID_FIELDS = ["project", "domain", "name", "version"] as const;

/**
 * Checks that an identifier names one version of an entity; FlyteAdmin answers
 * INVALID_ARGUMENT "missing <field>" for the first empty field.
 */
export function requireFullId(id: Identifier | undefined): Identifier {
  if (!id) throw new ConnectError("missing id", Code.InvalidArgument);
  for (const field of ID_FIELDS) {
    if (id[field] === "") throw new ConnectError(`missing ${field}`, Code.InvalidArgument);
  }
  return id;
}

/** Map key of one entity version; org is ignored because the sandbox has a single org. */
export function idKey(id: Pick<Identifier, "project" | "domain" | "name" | "version">): string {
  return JSON.stringify([id.project, id.domain, id.name, id.version]);
}

/** The identifier as FlyteAdmin prints it in NOT_FOUND messages. */
export function describeId(id: Pick<Identifier, "project" | "domain" | "name" | "version">): string {
  return `project:"${id.project}" domain:"${id.domain}" name:"${id.name}" version:"${id.version}"`;
}

/** NOT_FOUND for an entity version, worded like FlyteAdmin's. */
export function notFound(kind: EntityKind, id: Identifier): ConnectError {
  const type = kind.toUpperCase().replace(" ", "_");
  return new ConnectError(`missing entity of type ${type} with identifier ${describeId(id)}`, Code.NotFound);
}

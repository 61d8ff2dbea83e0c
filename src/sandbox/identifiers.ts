/**
 * Identifier checks and formatting shared by every entity kind.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { type Identifier, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

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

/** The resource type each entity kind's identifiers carry. */
const RESOURCE_TYPES: Record<EntityKind, ResourceType> = {
  "task": ResourceType.TASK,
  "workflow": ResourceType.WORKFLOW,
  "launch plan": ResourceType.LAUNCH_PLAN,
};

/**
 * FlyteAdmin's ValidateIdentifier: an identifier of `kind` (its resource type, checked before its fields, and
 * INVALID_ARGUMENT "unexpected resource type …" naming the identifier as Go prints it), naming one version.
 */
export function requireIdOf(kind: EntityKind, id: Identifier | undefined): Identifier {
  if (!id) throw new ConnectError("missing id", Code.InvalidArgument);
  const expected = RESOURCE_TYPES[kind];
  if (id.resourceType !== expected) {
    const typeName = (type: ResourceType) => (ResourceType[type] ?? String(type)).toLowerCase();
    throw new ConnectError(
      `unexpected resource type ${typeName(id.resourceType)} for identifier [${identifierText(id)}], ` +
        `expected ${typeName(expected)} instead`,
      Code.InvalidArgument,
    );
  }
  return requireFullId(id);
}

/** An identifier in protobuf's text format, as Go's `%+v` prints it: fields at their defaults left out. */
export function identifierText(id: Identifier): string {
  const fields = [
    id.resourceType !== ResourceType.UNSPECIFIED
      ? `resource_type:${ResourceType[id.resourceType] ?? id.resourceType}`
      : "",
    ...(["project", "domain", "name", "version", "org"] as const).map((field) =>
      id[field] !== "" ? `${field}:${JSON.stringify(id[field])}` : ""
    ),
  ];
  return fields.filter((field) => field !== "").join(" ");
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

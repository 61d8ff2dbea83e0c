/**
 * The order entities are created in.
 *
 * The admin service checks references when an entity is created: a workflow's tasks (and the launch
 * plans its nodes start) must exist first, a launch plan's workflow must exist first. The plan is
 * a list of stages; everything in a stage depends only on earlier stages, so a stage's creates may
 * run concurrently. For an ordinary package the stages are: tasks, workflows, launch plans. A workflow's
 * embedded sub-workflows (`sub_workflows`) are compiled from the embedded copy, so a workflow never waits
 * for the package's own file of a sub-workflow it embeds.
 *
 * @module
 */
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { RegistrationEntity } from "./classify.ts";
import { entityId } from "./entity_id.ts";
import type { EntityKind } from "./member_role.ts";
import { forEachIdentifier } from "./hydrate.ts";

/** Stages of entities; each stage depends only on the stages before it. */
export interface RegistrationPlan<E extends RegistrationEntity = RegistrationEntity> {
  /** In creation order; the entities of one stage are independent of each other. */
  stages: E[][];
  /** The entities of the package each entity references (references to registered ones are not here). */
  dependencies: Map<E, Set<E>>;
}

const KIND_ORDER: Record<EntityKind, number> = { task: 0, workflow: 1, launchPlan: 2 };

/** Orders within a stage: by kind, then by file name (pyflyte's index prefix is a topological order). */
function compareEntities(a: RegistrationEntity, b: RegistrationEntity): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** A key identifying an entity or a reference to one (resource type included: names are per type). */
function identifierKey(id: Identifier): string {
  return JSON.stringify([id.resourceType, id.project, id.domain, id.name, id.version, id.org]);
}

/**
 * Keys of the sub-workflows a workflow carries in its `sub_workflows`. The admin service compiles a
 * workflow with the sub-workflows it embeds, so references to them need nothing created first (their
 * own tasks and launch plans still do, and are visited like the workflow's).
 */
function embeddedSubWorkflows(entity: RegistrationEntity): Set<string> {
  const keys = new Set<string>();
  if (entity.kind !== "workflow") return keys;
  for (const sub of entity.spec.subWorkflows) if (sub.id) keys.add(identifierKey(sub.id));
  return keys;
}

/**
 * Plans the creation of hydrated entities. Dependencies on entities outside the package (already
 * registered ones) are ignored; if references form a cycle, which no valid package has, the
 * entities involved go last in file order and the admin service reports what is wrong with them.
 */
export function planRegistration<E extends RegistrationEntity>(entities: readonly E[]): RegistrationPlan<E> {
  const sorted = [...entities].sort(compareEntities);
  const byKey = new Map<string, E>();
  for (const entity of sorted) {
    const id = entityId(entity);
    // Of entities serialized twice under one id, the first in file order is created and the others
    // answer AlreadyExists: dependents wait for the one that creates it.
    if (id && !byKey.has(identifierKey(id))) byKey.set(identifierKey(id), entity);
  }
  const dependencies = new Map<E, Set<E>>();
  for (const entity of entities) {
    const own = entityId(entity);
    const embedded = embeddedSubWorkflows(entity);
    const deps = new Set<E>();
    forEachIdentifier(entity, (id) => {
      if (id === own) return;
      const key = identifierKey(id);
      if (embedded.has(key)) return;
      const target = byKey.get(key);
      if (target && target !== entity) deps.add(target);
    });
    dependencies.set(entity, deps);
  }
  const stages: E[][] = [];
  const done = new Set<E>();
  let remaining = sorted;
  while (remaining.length > 0) {
    const ready = remaining.filter((e) => [...dependencies.get(e)!].every((d) => done.has(d)));
    const stage = ready.length > 0 ? ready : remaining;
    stages.push(stage);
    for (const entity of stage) done.add(entity);
    remaining = remaining.filter((e) => !done.has(e));
  }
  return { stages, dependencies };
}

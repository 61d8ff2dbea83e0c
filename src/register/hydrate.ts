/**
 * Hydration: filling in what `pyflyte package` leaves for registration time.
 *
 * pyflyte writes identifiers with the placeholders `{{ registration.project }}` (etc.) or, in newer
 * versions, with empty fields; fast-registered tasks carry `{{ .remote_package_path }}` and
 * `{{ .dest_dir }}` container arguments. {@link hydrateEntity} returns a hydrated copy and never
 * mutates its input, so a caller can hydrate the same decoded package twice (e.g. dry run, then
 * real); {@link hydrateEntityInPlace} and {@link fillSourceLocation} change the entity they are
 * given, for a registration that decoded its entities for itself and needs no copy.
 *
 * @module
 */
import { clone, create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import {
  RegistrationAuthRoleSchema,
  RegistrationIdentitySchema,
  type RegistrationLaunchPlan,
  RegistrationLaunchPlanSchema,
  type RegistrationNode as Node,
  RegistrationRawOutputDataConfigSchema,
  RegistrationSecurityContextSchema,
  RegistrationTaskSpecSchema,
  type RegistrationTaskTemplate as TaskTemplate,
  RegistrationWorkflowSpecSchema,
  type RegistrationWorkflowTemplate as WorkflowTemplate,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import { type Identifier, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { RegistrationEntity } from "./classify.ts";
import { entityId } from "./entity_id.ts";
import type { EntityKind } from "./member_role.ts";
import { quote, UsageError } from "../errors.ts";

// pyflyte's placeholders; flytectl matches them exactly, spaces included, and so do we.
/** Identifier project placeholder, replaced by `-p`. */
const PROJECT_PLACEHOLDER = "{{ registration.project }}";
/** Identifier domain placeholder, replaced by `-d`. */
const DOMAIN_PLACEHOLDER = "{{ registration.domain }}";
/** Identifier version placeholder, replaced by `--version`. */
const VERSION_PLACEHOLDER = "{{ registration.version }}";
/** Container argument of fast-registered tasks, replaced by the uploaded source's location. */
const REMOTE_PACKAGE_PATH_PLACEHOLDER = "{{ .remote_package_path }}";
/** Container argument of fast-registered tasks, replaced by `--destinationDirectory` or `.`. */
const DEST_DIR_PLACEHOLDER = "{{ .dest_dir }}";

const RESOURCE_TYPES: Record<EntityKind, ResourceType> = {
  task: ResourceType.TASK,
  workflow: ResourceType.WORKFLOW,
  launchPlan: ResourceType.LAUNCH_PLAN,
};

/**
 * Values that replace the placeholders; the `register files` flags of the same names.
 *
 * ```ts
 * import type { HydrateOptions } from "@fctl/fctl";
 *
 * const hydrate: HydrateOptions = {
 *   project: "flytesnacks",
 *   domain: "development",
 *   version: "v2",
 *   force: true, // every version becomes v2, not only empty or placeholder ones
 *   k8sServiceAccount: "flyte-runner",
 * };
 * console.log(hydrate.version);
 * ```
 */
export interface HydrateOptions {
  /** Fills empty or placeholder projects. */
  project: string;
  /** Fills empty or placeholder domains. */
  domain: string;
  /** Fills empty or placeholder versions; without it those stay unversioned (see {@link unversionedEntities}). */
  version?: string;
  /** Replace every version with {@link version}, not just empty or placeholder ones. */
  force?: boolean;
  /** Where the fast-registration source was uploaded; without it `{{ .remote_package_path }}` stays. */
  sourceLocation?: string;
  /** Replaces `{{ .dest_dir }}`; defaults to `.` as in flytectl. */
  destinationDirectory?: string;
  /** Launch plans: IAM role executions run as. */
  assumableIamRole?: string;
  /** Launch plans: Kubernetes service account executions run as. */
  k8sServiceAccount?: string;
  /** Launch plans: where executions write offloaded data. */
  outputLocationPrefix?: string;
}

/**
 * Calls `visit` with every identifier of an entity: its own and every reference it makes
 * (task nodes, launch plan and sub-workflow nodes, inside branches, array and failure nodes,
 * sub-workflow templates, a launch plan's workflow). `visit` may modify the identifier.
 */
export function forEachIdentifier(entity: RegistrationEntity, visit: (id: Identifier) => void): void {
  switch (entity.kind) {
    case "task":
      if (entity.spec.template?.id) visit(entity.spec.template.id);
      return;
    case "workflow":
      if (entity.spec.template) forEachTemplateIdentifier(entity.spec.template, visit);
      for (const sub of entity.spec.subWorkflows) forEachTemplateIdentifier(sub, visit);
      return;
    case "launchPlan":
      if (entity.spec.id) visit(entity.spec.id);
      if (entity.spec.spec?.workflowId) visit(entity.spec.spec.workflowId);
      return;
  }
}

function forEachTemplateIdentifier(template: WorkflowTemplate, visit: (id: Identifier) => void): void {
  if (template.id) visit(template.id);
  for (const node of template.nodes) forEachNodeIdentifier(node, visit);
  if (template.failureNode) forEachNodeIdentifier(template.failureNode, visit);
}

function forEachNodeIdentifier(node: Node, visit: (id: Identifier) => void): void {
  const target = node.target;
  switch (target.case) {
    case "taskNode":
      if (target.value.reference.case === "referenceId") visit(target.value.reference.value);
      return;
    case "workflowNode":
      if (target.value.reference.case !== undefined) visit(target.value.reference.value);
      return;
    case "branchNode": {
      const ifElse = target.value.ifElse;
      if (!ifElse) return;
      for (const block of [...(ifElse.case ? [ifElse.case] : []), ...ifElse.other]) {
        if (block.thenNode) forEachNodeIdentifier(block.thenNode, visit);
      }
      if (ifElse.default.case === "elseNode") forEachNodeIdentifier(ifElse.default.value, visit);
      return;
    }
    case "arrayNode":
      if (target.value.node) forEachNodeIdentifier(target.value.node, visit);
      return;
    case undefined: // a gate node (no reference), or no target
      return;
  }
}

/** A copy of `entity` with every placeholder the options can fill filled in. */
export function hydrateEntity(entity: RegistrationEntity, options: HydrateOptions): RegistrationEntity {
  return hydrateEntityInPlace(cloneEntity(entity), options);
}

/**
 * Fills in every placeholder the options can fill in `entity` itself, and returns it. Hydrating
 * again with the same options changes nothing more.
 */
export function hydrateEntityInPlace(entity: RegistrationEntity, options: HydrateOptions): RegistrationEntity {
  forEachIdentifier(entity, (id) => hydrateIdentifier(id, options));
  // The admin service requires the resource type on the id an entity is created under.
  const own = entityId(entity);
  if (own && own.resourceType === ResourceType.UNSPECIFIED) own.resourceType = RESOURCE_TYPES[entity.kind];
  if (entity.kind === "task" && entity.spec.template) {
    rewriteTaskArgs(entity.spec.template, (arg) => {
      if (arg === REMOTE_PACKAGE_PATH_PLACEHOLDER) return options.sourceLocation ?? arg;
      if (arg === DEST_DIR_PLACEHOLDER) return options.destinationDirectory || ".";
      return arg;
    });
  }
  if (entity.kind === "launchPlan") hydrateLaunchPlan(entity.spec, options);
  return entity;
}

/**
 * Replaces `{{ .remote_package_path }}` in a task's container or pod-spec arguments with `location`,
 * in `entity` itself: what hydrating with {@link HydrateOptions.sourceLocation} does, for entities
 * hydrated before the source was uploaded. Launch plans and workflows are left alone.
 */
export function fillSourceLocation(entity: RegistrationEntity, location: string): void {
  if (entity.kind === "task" && entity.spec.template) {
    rewriteTaskArgs(entity.spec.template, (arg) => arg === REMOTE_PACKAGE_PATH_PLACEHOLDER ? location : arg);
  }
}

/** Whether an entity carries `{{ .remote_package_path }}`, so it cannot be created before the source is uploaded. */
export function usesSourceLocation(entity: RegistrationEntity): boolean {
  return entity.kind === "task" && entity.spec.template !== undefined &&
    taskArgs(entity.spec.template).includes(REMOTE_PACKAGE_PATH_PLACEHOLDER);
}

/** The container arguments {@link rewriteTaskArgs} rewrites, read-only. */
function taskArgs(template: TaskTemplate): readonly string[] {
  const target = template.target;
  if (target.case === "container") return target.value.args;
  if (target.case !== "k8sPod" || !Array.isArray(target.value.podSpec?.containers)) return [];
  return target.value.podSpec.containers.flatMap((container) => podContainerArgs(container) ?? []);
}

function cloneEntity(entity: RegistrationEntity): RegistrationEntity {
  switch (entity.kind) {
    case "task":
      return { ...entity, spec: clone(RegistrationTaskSpecSchema, entity.spec) };
    case "workflow":
      return { ...entity, spec: clone(RegistrationWorkflowSpecSchema, entity.spec) };
    case "launchPlan":
      return { ...entity, spec: clone(RegistrationLaunchPlanSchema, entity.spec) };
  }
}

function hydrateIdentifier(id: Identifier, options: HydrateOptions): void {
  if (id.project === "" || id.project === PROJECT_PLACEHOLDER) id.project = options.project;
  if (id.domain === "" || id.domain === DOMAIN_PLACEHOLDER) id.domain = options.domain;
  if (options.version !== undefined && (options.force || !hasVersion(id))) id.version = options.version;
}

function hasVersion(id: Identifier): boolean {
  return id.version !== "" && id.version !== VERSION_PLACEHOLDER;
}

/** Rewrites each container argument of a task, plain or in a pod spec. */
function rewriteTaskArgs(template: TaskTemplate, rewrite: (arg: string) => string): void {
  const target = template.target;
  if (target.case === "container") {
    target.value.args = target.value.args.map(rewrite);
  } else if (target.case === "k8sPod" && target.value.podSpec) {
    target.value.podSpec = rewritePodSpecArgs(target.value.podSpec, rewrite);
  }
}

/** Pod specs are free-form JSON (a Kubernetes PodSpec); only `containers[].args` are rewritten. */
function rewritePodSpecArgs(podSpec: JsonObject, rewrite: (arg: string) => string): JsonObject {
  const containers = podSpec.containers;
  if (!Array.isArray(containers)) return podSpec;
  return {
    ...podSpec,
    containers: containers.map((container): JsonValue => {
      const args = podContainerArgs(container);
      return args === undefined ? container : { ...(container as JsonObject), args: args.map(rewrite) };
    }),
  };
}

/**
 * A pod container's arguments when they are all strings, the only ones rewritten; the same test
 * decides whether a task uses a placeholder and whether it gets replaced.
 */
function podContainerArgs(container: JsonValue): string[] | undefined {
  if (!isJsonObject(container) || !Array.isArray(container.args)) return undefined;
  const args = container.args;
  return args.every((a): a is string => typeof a === "string") ? args : undefined;
}

function isJsonObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hydrateLaunchPlan(plan: RegistrationLaunchPlan, options: HydrateOptions): void {
  const spec = plan.spec;
  if (!spec) return;
  const iamRole = options.assumableIamRole ?? "";
  const serviceAccount = options.k8sServiceAccount ?? "";
  if (iamRole !== "" || serviceAccount !== "") {
    // auth_role is deprecated but older admins still read it; security_context is the current field.
    spec.authRole = create(RegistrationAuthRoleSchema, {
      assumableIamRole: iamRole,
      kubernetesServiceAccount: serviceAccount,
    });
    // Unlike flytectl, keep the secrets and tokens the launch plan already asks for.
    spec.securityContext ??= create(RegistrationSecurityContextSchema);
    spec.securityContext.runAs ??= create(RegistrationIdentitySchema);
    spec.securityContext.runAs.iamRole = iamRole;
    spec.securityContext.runAs.k8sServiceAccount = serviceAccount;
  }
  if (options.outputLocationPrefix) {
    spec.rawOutputDataConfig = create(RegistrationRawOutputDataConfigSchema, {
      outputLocationPrefix: options.outputLocationPrefix,
    });
  }
}

/** An entity that, after hydration, would still be registered without a version. */
export interface UnversionedEntity {
  /** What the file holds. */
  kind: EntityKind;
  /** The file it came from. */
  file: string;
  /** The entity's name, or the name of the reference lacking a version. */
  name: string;
}

/** The entities that have an identifier (their own or a reference) without a usable version. */
export function unversionedEntities(entities: readonly RegistrationEntity[]): UnversionedEntity[] {
  const found: UnversionedEntity[] = [];
  for (const entity of entities) {
    let missing: Identifier | undefined;
    forEachIdentifier(entity, (id) => {
      if (!missing && !hasVersion(id)) missing = id;
    });
    if (missing) found.push({ kind: entity.kind, file: entity.name, name: missing.name });
  }
  return found;
}

const KIND_NAMES: Record<EntityKind, string> = { task: "task", workflow: "workflow", launchPlan: "launch plan" };

/**
 * Throws if any entity would be registered without a version: flytectl leaves that for the
 * server to discover, one entity at a time, after part of the package is registered.
 *
 * @throws {UsageError} naming up to five of the entities and suggesting `--version`
 */
export function assertVersioned(entities: readonly RegistrationEntity[]): void {
  const missing = unversionedEntities(entities);
  if (missing.length === 0) return;
  const shown = missing.slice(0, 5).map((e) => `${KIND_NAMES[e.kind]} ${quote(e.name)} (${e.file})`);
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : "";
  throw new UsageError(
    `${missing.length} ${missing.length === 1 ? "entity has" : "entities have"} no version: ${
      shown.join(", ")
    }${more}; pass --version`,
  );
}

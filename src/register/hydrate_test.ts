import { deepStrictEqual as assertEquals, ok as assert, throws as assertThrows } from "node:assert/strict";
import { create, equals, type MessageInitShape } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSpecSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { type Identifier, type IdentifierSchema, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { NodeSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { UsageError } from "../errors.ts";
import { decodeEntity, type RegistrationEntity } from "./classify.ts";
import {
  assertVersioned,
  fillSourceLocation,
  forEachIdentifier,
  hydrateEntity,
  hydrateEntityInPlace,
  unversionedEntities,
  usesSourceLocation,
} from "./hydrate.ts";
import { RegistrationK8sPodSchema } from "../../proto/gen/fctl/registration/entities_pb.ts";
import { fixture, registrationEntity, wholeEntity } from "./_test_helpers.ts";

const P = "{{ registration.project }}";
const D = "{{ registration.domain }}";
const V = "{{ registration.version }}";
const OPTIONS = { project: "proj", domain: "dev", version: "v2" };

type IdInit = MessageInitShape<typeof IdentifierSchema>;
const placeholders = (resourceType: ResourceType, name: string): IdInit => ({
  resourceType,
  project: P,
  domain: D,
  name,
  version: V,
});
const empty = (resourceType: ResourceType, name: string): IdInit => ({ resourceType, name });
/** A reference to an entity registered elsewhere: fully specified, so hydration must leave it. */
const external = (resourceType: ResourceType, name: string): IdInit => ({
  resourceType,
  project: "other",
  domain: "prod",
  name,
  version: "v1",
});

const taskNode = (id: string, ref: IdInit): MessageInitShape<typeof NodeSchema> => ({
  id,
  target: { case: "taskNode", value: { reference: { case: "referenceId", value: ref } } },
});

/** A workflow with a reference in every place one can be. */
function everyPlaceWorkflow(): RegistrationEntity {
  const spec = create(WorkflowSpecSchema, {
    template: {
      id: placeholders(ResourceType.WORKFLOW, "wf"),
      nodes: [
        taskNode("task", placeholders(ResourceType.TASK, "t.placeholder")),
        taskNode("task-empty", empty(ResourceType.TASK, "t.empty")),
        taskNode("task-external", external(ResourceType.TASK, "t.external")),
        {
          id: "lp",
          target: {
            case: "workflowNode",
            value: { reference: { case: "launchplanRef", value: empty(ResourceType.LAUNCH_PLAN, "lp.ref") } },
          },
        },
        {
          id: "sub",
          target: {
            case: "workflowNode",
            value: { reference: { case: "subWorkflowRef", value: placeholders(ResourceType.WORKFLOW, "sub.ref") } },
          },
        },
        {
          id: "branch",
          target: {
            case: "branchNode",
            value: {
              ifElse: {
                case: { thenNode: taskNode("then", placeholders(ResourceType.TASK, "t.then")) },
                other: [
                  { thenNode: taskNode("other0", empty(ResourceType.TASK, "t.other0")) },
                  { thenNode: taskNode("other1", placeholders(ResourceType.TASK, "t.other1")) },
                ],
                default: { case: "elseNode", value: taskNode("else", empty(ResourceType.TASK, "t.else")) },
              },
            },
          },
        },
        {
          id: "array",
          target: {
            case: "arrayNode",
            value: { node: taskNode("mapped", placeholders(ResourceType.TASK, "t.mapped")) },
          },
        },
      ],
      failureNode: taskNode("failure", empty(ResourceType.TASK, "t.failure")),
    },
    subWorkflows: [{
      id: empty(ResourceType.WORKFLOW, "sub.template"),
      nodes: [taskNode("inner", placeholders(ResourceType.TASK, "t.inner"))],
      failureNode: taskNode("inner-failure", placeholders(ResourceType.TASK, "t.inner.failure")),
    }],
  });
  return registrationEntity({ kind: "workflow", name: "wf_2.pb", spec });
}

function identifiers(entity: RegistrationEntity): Identifier[] {
  const ids: Identifier[] = [];
  forEachIdentifier(entity, (id) => ids.push(id));
  return ids;
}

const summary = (id: Identifier) => `${id.project}/${id.domain}/${id.name}@${id.version}`;

Deno.test("forEachIdentifier finds every identifier of a workflow, including nested nodes and sub-workflows", () => {
  const names = identifiers(everyPlaceWorkflow()).map((id) => id.name).sort();
  assertEquals(names, [
    "lp.ref",
    "sub.ref",
    "sub.template",
    "t.else",
    "t.empty",
    "t.external",
    "t.failure",
    "t.inner",
    "t.inner.failure",
    "t.mapped",
    "t.other0",
    "t.other1",
    "t.placeholder",
    "t.then",
    "wf",
  ]);
});

Deno.test("hydration fills placeholders and empty values everywhere, leaves concrete values, never mutates", () => {
  const original = everyPlaceWorkflow();
  const hydrated = hydrateEntity(original, OPTIONS);
  for (const id of identifiers(hydrated)) {
    const expected = id.name === "t.external" ? `other/prod/t.external@v1` : `proj/dev/${id.name}@v2`;
    assertEquals(summary(id), expected);
  }
  const [before, after] = [wholeEntity(everyPlaceWorkflow()), wholeEntity(original)];
  assert(before.kind === "workflow" && after.kind === "workflow");
  assert(equals(WorkflowSpecSchema, before.spec, after.spec), "the input is unchanged");
});

Deno.test("force replaces every version, even concrete ones, but not concrete projects", () => {
  const hydrated = hydrateEntity(everyPlaceWorkflow(), { ...OPTIONS, force: true });
  for (const id of identifiers(hydrated)) {
    assertEquals(id.version, "v2");
    if (id.name === "t.external") assertEquals(summary(id), "other/prod/t.external@v2");
  }
});

Deno.test("without a version, placeholders and empty versions are reported as unversioned", () => {
  const hydrated = hydrateEntity(everyPlaceWorkflow(), { project: "proj", domain: "dev" });
  assertEquals(unversionedEntities([hydrated]), [{ kind: "workflow", file: "wf_2.pb", name: "wf" }]);
  assertThrows(() => assertVersioned([hydrated]), (err: Error) => {
    assert(err instanceof UsageError);
    assertEquals(err.message, `1 entity has no version: workflow "wf" (wf_2.pb); pass --version`);
    return true;
  });
  const versioned = hydrateEntity(everyPlaceWorkflow(), OPTIONS);
  assertVersioned([versioned]);
});

Deno.test("hydrates the greet task fixture's identifier and sets nothing else", async () => {
  const name = "69_core.flyte_basics.lp.greet_1.pb";
  const entity = decodeEntity(name, await Deno.readFile(fixture(name)));
  const hydrated = wholeEntity(hydrateEntity(entity, OPTIONS));
  const original = wholeEntity(entity);
  assert(hydrated.kind === "task" && original.kind === "task");
  assertEquals(summary(hydrated.spec.template!.id!), "proj/dev/core.flyte_basics.lp.greet@v2");
  hydrated.spec.template!.id = original.spec.template!.id;
  assert(equals(TaskSpecSchema, hydrated.spec, original.spec));
});

function fastTask(args: string[], podArgs?: string[]): RegistrationEntity {
  const spec = create(TaskSpecSchema, {
    template: {
      id: empty(ResourceType.TASK, "fast"),
      target: podArgs
        ? {
          case: "k8sPod",
          value: { podSpec: { containers: [{ name: "primary", args: podArgs }, { name: "sidecar" }], volumes: [] } },
        }
        : { case: "container", value: { image: "img", args } },
    },
  });
  return registrationEntity({ kind: "task", name: "fast_1.pb", spec });
}

Deno.test("container args: exact placeholders become the source location and destination directory", () => {
  const args = [
    "pyflyte-fast-execute",
    "--additional-distribution",
    "{{ .remote_package_path }}",
    "--dest-dir",
    "{{ .dest_dir }}",
  ];
  const containerArgs = (e: RegistrationEntity) =>
    e.kind === "task" && e.spec.template?.target.case === "container" ? e.spec.template.target.value.args : [];
  const hydrated = hydrateEntity(fastTask(args), { ...OPTIONS, sourceLocation: "s3://b/fast.tar.gz" });
  assertEquals(containerArgs(hydrated), [
    "pyflyte-fast-execute",
    "--additional-distribution",
    "s3://b/fast.tar.gz",
    "--dest-dir",
    ".",
  ]);
  const withDest = hydrateEntity(fastTask(args), { ...OPTIONS, destinationDirectory: "/root" });
  assertEquals(containerArgs(withDest).slice(2), ["{{ .remote_package_path }}", "--dest-dir", "/root"]);
  // Only exact matches: flytectl does not substitute inside longer strings.
  const inside = hydrateEntity(fastTask(["x{{ .dest_dir }}"]), OPTIONS);
  assertEquals(containerArgs(inside), ["x{{ .dest_dir }}"]);
});

Deno.test("pod-spec container args are hydrated too", () => {
  const hydrated = hydrateEntity(fastTask([], ["{{ .remote_package_path }}", "{{ .dest_dir }}"]), {
    ...OPTIONS,
    sourceLocation: "s3://b/src.tar.gz",
    destinationDirectory: "/app",
  });
  assert(hydrated.kind === "task" && hydrated.spec.template?.target.case === "k8sPod");
  assertEquals(hydrated.spec.template.target.value.podSpec, {
    containers: [{ name: "primary", args: ["s3://b/src.tar.gz", "/app"] }, { name: "sidecar" }],
    volumes: [],
  });
});

Deno.test("a task uses the source location exactly when filling it in would replace a placeholder", () => {
  const location = "s3://b/src.tar.gz";
  const pending = [
    fastTask(["{{ .remote_package_path }}"]),
    fastTask([], ["{{ .remote_package_path }}"]),
  ];
  for (const task of pending) {
    assert(usesSourceLocation(task));
    fillSourceLocation(task, location);
    assert(!usesSourceLocation(task));
  }
  // Pod args that are not all strings are left alone, so such a task does not wait for the source.
  const mixed = fastTask([]);
  assert(mixed.kind === "task" && mixed.spec.template);
  mixed.spec.template.target = {
    case: "k8sPod",
    value: create(RegistrationK8sPodSchema, { podSpec: { containers: [{ args: ["{{ .remote_package_path }}", 1] }] } }),
  };
  assert(!usesSourceLocation(mixed));
});

function launchPlan(): RegistrationEntity {
  const spec = create(LaunchPlanSchema, {
    id: placeholders(ResourceType.LAUNCH_PLAN, "lp"),
    spec: {
      workflowId: empty(ResourceType.WORKFLOW, "wf"),
      securityContext: { secrets: [{ group: "g", key: "k" }] },
    },
  });
  return registrationEntity({ kind: "launchPlan", name: "lp_3.pb", spec });
}

Deno.test("launch plans: id and workflow id, IAM role, service account and output prefix", () => {
  const hydrated = hydrateEntity(launchPlan(), {
    ...OPTIONS,
    assumableIamRole: "arn:aws:iam::1:role/r",
    k8sServiceAccount: "sa",
    outputLocationPrefix: "s3://out",
  });
  assert(hydrated.kind === "launchPlan");
  const spec = hydrated.spec.spec!;
  assertEquals(summary(hydrated.spec.id!), "proj/dev/lp@v2");
  assertEquals(summary(spec.workflowId!), "proj/dev/wf@v2");
  assertEquals(spec.authRole?.assumableIamRole, "arn:aws:iam::1:role/r");
  assertEquals(spec.authRole?.kubernetesServiceAccount, "sa");
  assertEquals(spec.securityContext?.runAs?.iamRole, "arn:aws:iam::1:role/r");
  assertEquals(spec.securityContext?.runAs?.k8sServiceAccount, "sa");
  const whole = wholeEntity(hydrated);
  assert(whole.kind === "launchPlan");
  assertEquals(whole.spec.spec?.securityContext?.secrets.map((s) => s.key), ["k"], "keeps the secrets it had");
  assertEquals(spec.rawOutputDataConfig?.outputLocationPrefix, "s3://out");

  const untouched = hydrateEntity(launchPlan(), OPTIONS);
  assert(untouched.kind === "launchPlan");
  assertEquals(untouched.spec.spec?.authRole, undefined);
  assertEquals(untouched.spec.spec?.securityContext?.runAs, undefined);
  assertEquals(untouched.spec.spec?.rawOutputDataConfig, undefined);
});

Deno.test("an unspecified resource type on the entity's own id is filled in", () => {
  const entity = fastTask([]);
  assert(entity.kind === "task");
  entity.spec.template!.id!.resourceType = ResourceType.UNSPECIFIED;
  const hydrated = hydrateEntity(entity, OPTIONS);
  assert(hydrated.kind === "task");
  assertEquals(hydrated.spec.template?.id?.resourceType, ResourceType.TASK);
});

Deno.test("in place: the entity itself is hydrated, like a copy would be, and again changes nothing", () => {
  for (
    const make of [everyPlaceWorkflow, launchPlan, () => fastTask(["{{ .dest_dir }}", "{{ .remote_package_path }}"])]
  ) {
    const options = { ...OPTIONS, k8sServiceAccount: "sa", destinationDirectory: "/app" };
    const copy = hydrateEntity(make(), options);
    const entity = make();
    assert(hydrateEntityInPlace(entity, options) === entity, "returns the entity it was given");
    assertEquals(entity, copy);
    hydrateEntityInPlace(entity, options);
    assertEquals(entity, copy, "idempotent");
  }
});

Deno.test("fillSourceLocation after hydration equals hydrating with the source location", () => {
  const args = ["{{ .remote_package_path }}", "{{ .dest_dir }}"];
  for (const make of [() => fastTask(args), () => fastTask([], args), everyPlaceWorkflow, launchPlan]) {
    const once = hydrateEntity(make(), { ...OPTIONS, sourceLocation: "s3://b/src.tar.gz" });
    const later = hydrateEntityInPlace(make(), OPTIONS);
    fillSourceLocation(later, "s3://b/src.tar.gz");
    assertEquals(later, once);
  }
});

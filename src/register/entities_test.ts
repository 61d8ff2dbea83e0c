/**
 * The entities registration reads and sends (proto/client/fctl/registration/) against flyteidl's messages: each
 * create is flyteidl's method of that name and its request reads as flyteidl's, field by field; every entity of
 * the fixture packages goes out as it came, but for what hydration fills in; and checking and creating a
 * package builds no descriptor of flyteidl's specs.
 */
import { deepEqual, equal, notDeepEqual, ok } from "node:assert/strict";
import { create, type DescMessage, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { unpackTar } from "modern-tar";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { AdminService as RegistrationCalls } from "../../proto/gen/fctl/registration_calls_pb.ts";
import {
  file_fctl_registration_entities,
  RegistrationLaunchPlanCreateRequestSchema,
  RegistrationLaunchPlanSchema,
  RegistrationTaskCreateRequestSchema,
  RegistrationWorkflowCreateRequestSchema,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import { TaskCreateRequestSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowCreateRequestSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import {
  type LaunchPlan,
  LaunchPlanCreateRequestSchema,
  LaunchPlanSchema,
  LaunchPlanState,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { REGISTRATION_METHOD_FILES } from "../admin/client.ts";
import { mirrorProblems } from "../admin/_test_mirror.ts";
import { moduleGraph } from "../../scripts/module_graph.ts";
import { decodeEntity, type RegistrationEntity } from "./classify.ts";
import { LAUNCH_PLAN_ACTIVE } from "./create_entity.ts";
import { entityId } from "./entity_id.ts";
import { hydrateEntity, type HydrateOptions } from "./hydrate.ts";
import { ENTITY_SCHEMAS, fixture } from "./_test_helpers.ts";

/** Every message a field of `message` holds, down the tree, `message` included. */
function reachable(message: DescMessage, seen = new Set<string>()): Set<string> {
  if (seen.has(message.typeName)) return seen;
  seen.add(message.typeName);
  for (const field of message.fields) {
    if (field.message) reachable(field.message, seen);
  }
  return seen;
}

Deno.test("each registration call is flyteidl's create of that name; its request reads as flyteidl's", () => {
  deepEqual(Object.keys(REGISTRATION_METHOD_FILES).sort(), RegistrationCalls.methods.map((m) => m.localName).sort());
  equal(RegistrationCalls.typeName, AdminService.typeName);
  const checked = new Set<string>();
  for (const method of RegistrationCalls.methods) {
    const theirs = AdminService.methods.find((m) => m.name === method.name);
    ok(theirs, `flyteidl's AdminService has no ${method.name}`);
    equal(method.methodKind, theirs.methodKind);
    // A request leaves fields out on purpose: they travel as unknown fields, as the package holds them.
    deepEqual(mirrorProblems(method.input, theirs.input, false), [], `${method.name}'s request`);
    deepEqual(mirrorProblems(method.output, theirs.output, true), [], `${method.name}'s response`);
    for (const name of [...reachable(method.input), ...reachable(method.output)]) checked.add(name);
  }
  // The launch plan a file holds is no request's: it is decoded, and its spec sent.
  deepEqual(mirrorProblems(RegistrationLaunchPlanSchema, LaunchPlanSchema, false), [], "a launch plan file");
  for (const name of reachable(RegistrationLaunchPlanSchema)) checked.add(name);
  // Every message of the file is checked.
  const declared = file_fctl_registration_entities.messages.map((m) => m.typeName);
  deepEqual(declared.filter((name) => !checked.has(name)), []);
});

Deno.test("the mirror check finds a registration message read against a message it does not stand for", () => {
  ok(mirrorProblems(RegistrationTaskCreateRequestSchema, WorkflowCreateRequestSchema, false).length > 0);
  ok(mirrorProblems(RegistrationLaunchPlanCreateRequestSchema, TaskCreateRequestSchema, false).length > 0);
});

Deno.test("activating a launch plan sends flyteidl's ACTIVE state", () => {
  equal(LAUNCH_PLAN_ACTIVE, LaunchPlanState.ACTIVE);
});

/** The entity files of the fixture packages and the loose fixture files: name and bytes. */
async function fixtureEntityFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const archive of ["flytesnacks-core.tgz", "valid-register.tgz", "failure-node.tgz"]) {
    const gz = await Deno.readFile(fixture(archive));
    const tar = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).bytes();
    for (const entry of await unpackTar(tar)) {
      if (entry.header.name.endsWith(".pb") && entry.data) files.push({ name: entry.header.name, bytes: entry.data });
    }
  }
  for (const name of ["69_core.flyte_basics.lp.greet_1.pb", "152_my_cron_scheduled_lp_3.pb"]) {
    files.push({ name, bytes: await Deno.readFile(fixture(name)) });
  }
  return files;
}

/** The whole flyteidl message of an entity file's bytes, by the kind registration read it as. */
function wholeOf(kind: RegistrationEntity["kind"], bytes: Uint8Array) {
  const schema = ENTITY_SCHEMAS[kind].whole;
  return { schema, message: fromBinary(schema, bytes) };
}

/** The create request registration sends for an entity, its bytes read back as flyteidl's request's spec. */
function sentSpec(entity: RegistrationEntity) {
  const id = entityId(entity);
  switch (entity.kind) {
    case "task": {
      const bytes = toBinary(
        RegistrationTaskCreateRequestSchema,
        create(RegistrationTaskCreateRequestSchema, {
          id,
          spec: entity.spec,
        }),
      );
      return fromBinary(TaskCreateRequestSchema, bytes).spec;
    }
    case "workflow": {
      const bytes = toBinary(
        RegistrationWorkflowCreateRequestSchema,
        create(RegistrationWorkflowCreateRequestSchema, { id, spec: entity.spec }),
      );
      return fromBinary(WorkflowCreateRequestSchema, bytes).spec;
    }
    case "launchPlan": {
      const bytes = toBinary(
        RegistrationLaunchPlanCreateRequestSchema,
        create(RegistrationLaunchPlanCreateRequestSchema, { id, spec: entity.spec.spec }),
      );
      // A launch plan's request carries its spec; its id is the request's.
      return create(LaunchPlanSchema, { id, spec: fromBinary(LaunchPlanCreateRequestSchema, bytes).spec });
    }
  }
}

/**
 * `message` with what hydration may fill in blanked, down the tree: every identifier's project, domain, version
 * and resource type, container and pod-spec arguments, and a launch plan's run-as identity (with the security
 * context made for it), IAM role and raw output location. Works on flyteidl's whole messages through their type names.
 */
function withoutHydratedFields<T>(message: T): T {
  const visit = (value: unknown): void => {
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) return value.forEach(visit);
    const record = value as Record<string, unknown>;
    switch (record.$typeName) {
      case "flyteidl.core.Identifier":
        Object.assign(record, { project: "", domain: "", version: "", resourceType: 0 });
        break;
      case "flyteidl.core.Container":
        record.args = [];
        break;
      case "flyteidl.core.K8sPod":
        record.podSpec = undefined;
        break;
      case "flyteidl.admin.LaunchPlanSpec": {
        Object.assign(record, { authRole: undefined, rawOutputDataConfig: undefined });
        // The run-as identity goes; a security context made only to hold it goes with it.
        const context = record.securityContext as
          | { runAs?: unknown; secrets: unknown[]; tokens: unknown[] }
          | undefined;
        if (context) context.runAs = undefined;
        if (context && context.secrets.length === 0 && context.tokens.length === 0) record.securityContext = undefined;
        break;
      }
    }
    for (const child of Object.values(record)) visit(child);
  };
  visit(message);
  return message;
}

Deno.test("every fixture entity is sent as it came: flyteidl reads the same message from registration's bytes", async () => {
  const files = await fixtureEntityFiles();
  equal(files.length, 106, "entity files");
  const kinds = new Set<string>();
  for (const { name, bytes } of files) {
    const entity = decodeEntity(name, bytes);
    kinds.add(entity.kind);
    const { schema, message } = wholeOf(entity.kind, bytes);
    const again = fromBinary(schema, toBinary(ENTITY_SCHEMAS[entity.kind].registration, entity.spec));
    ok(equals(schema, again, message), `${name} reads the same`);
  }
  deepEqual([...kinds].sort(), ["launchPlan", "task", "workflow"]);
});

Deno.test("hydration changes only what it fills in: the rest of every fixture entity is sent as it came", async () => {
  const options: HydrateOptions = {
    project: "proj",
    domain: "dev",
    version: "v9",
    force: true,
    sourceLocation: "s3://bucket/fast.tar.gz",
    destinationDirectory: "/app",
    assumableIamRole: "arn:aws:iam::1:role/r",
    k8sServiceAccount: "runner",
    outputLocationPrefix: "s3://out",
  };
  for (const { name, bytes } of await fixtureEntityFiles()) {
    const hydrated = hydrateEntity(decodeEntity(name, bytes), options);
    const sent = sentSpec(hydrated);
    const { schema, message } = wholeOf(hydrated.kind, bytes);
    // A launch plan's create carries its id and spec, not the closure a package's file may hold.
    if (message.$typeName === "flyteidl.admin.LaunchPlan") (message as LaunchPlan).closure = undefined;
    notDeepEqual(sent, message, `${name}: hydration filled something in`);
    ok(equals(schema, withoutHydratedFields(sent!), withoutHydratedFields(message)), `${name}: the rest as it came`);
  }
});

Deno.test("checking and creating a package builds no descriptor of flyteidl's task, workflow or launch plan specs", async () => {
  const loaded = new Set<string>();
  for (
    const module of [
      "src/register/check.ts",
      "src/register/create_entity.ts",
      "src/register/plan.ts",
      "proto/gen/fctl/registration_calls_pb.ts",
    ]
  ) {
    for (const specifier of (await moduleGraph(new URL(`../../${module}`, import.meta.url))).reachable()) {
      loaded.add(specifier);
    }
  }
  ok([...loaded].some((s) => s.endsWith("/proto/gen/flyteidl/core/identifier_pb.ts")), "the walk follows the imports");
  const specDescriptors = /\/proto\/gen\/flyteidl\/(admin|core)\/(?!identifier_pb)\w+_pb\.ts$/;
  deepEqual([...loaded].filter((s) => specDescriptors.test(s)), []);
});

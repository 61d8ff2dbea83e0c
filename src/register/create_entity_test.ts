import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { clone, create } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import {
  type RegistrationTaskSpec,
  RegistrationTaskSpecSchema,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import { ADMIN_METHOD_FILES, loadAdminMethods, loadRegistrationMethods } from "../admin/client.ts";
import { taskInit, withSandbox } from "../sandbox/_test_helpers.ts";
import type { RegistrationEntity } from "./classify.ts";
import { createEntity, prepareCreates } from "./create_entity.ts";
import { registrationEntity } from "./_test_helpers.ts";

function task(name: string, type = "python-task"): RegistrationEntity {
  const spec = create(TaskSpecSchema, taskInit(name, "v1").spec);
  if (spec.template) spec.template.type = type;
  return registrationEntity({ kind: "task", name: `${name}_1.pb`, spec });
}

Deno.test("createEntity: registered, then AlreadyExists; a different entity under the same id is Failed", async () => {
  await withSandbox(async (_sandbox, client) => {
    const row = async (entity: RegistrationEntity) => {
      const { status, info } = await createEntity(client, entity, {});
      return [status, info];
    };
    assertEquals(await row(task("t")), ["Success", "Successfully registered file"]);
    assertEquals(await row(task("t")), ["Success", "AlreadyExists"]);
    assertEquals(await row(task("t", "other-type")), [
      "Failed",
      "Error registering file due to task with different structure already exists",
    ]);
  });
});

Deno.test("prepareCreates sends nothing and changes no entity; the creates after it register as before", async () => {
  await withSandbox(async (sandbox, client) => {
    const entities = [task("a"), task("b")];
    const before = entities.map((entity) => clone(RegistrationTaskSpecSchema, entity.spec as RegistrationTaskSpec));
    prepareCreates(entities);
    // Its loading runs on while the caller waits; give it that time.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assertEquals(sandbox.requests.length, 0);
    assertEquals(entities.map((entity) => entity.spec), before);
    for (const entity of entities) assertEquals((await createEntity(client, entity, {})).status, "Success");
    assertEquals(sandbox.requests.map((request) => request.method), ["CreateTask", "CreateTask"]);
  });
});

Deno.test("loadAdminMethods loads every method's descriptors without a call, and never rejects", async () => {
  const methods = Object.keys(ADMIN_METHOD_FILES) as (keyof typeof ADMIN_METHOD_FILES)[];
  assertEquals(await loadAdminMethods(methods), undefined);
  assertEquals(await loadAdminMethods([]), undefined);
  assertEquals(await loadRegistrationMethods(), undefined);
});

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { taskInit, withSandbox } from "../sandbox/_test_helpers.ts";
import type { RegistrationEntity } from "./classify.ts";
import { createEntity } from "./create_entity.ts";

function task(name: string, type = "python-task"): RegistrationEntity {
  const spec = create(TaskSpecSchema, taskInit(name, "v1").spec);
  if (spec.template) spec.template.type = type;
  return { kind: "task", name: `${name}_1.pb`, spec };
}

Deno.test("createEntity: registered, then AlreadyExists; a different entity under the same id is Failed", async () => {
  await withSandbox(async (_sandbox, client) => {
    const row = async (entity: RegistrationEntity) => {
      const { status, info } = await createEntity(client.admin, entity, {});
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

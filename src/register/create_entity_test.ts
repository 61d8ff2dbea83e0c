import { equal, notEqual } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { id, taskInit, withSandbox } from "../sandbox/_test_helpers.ts";
import type { RegistrationEntity } from "./classify.ts";
import { createEntity, CreateRequests } from "./create_entity.ts";

function task(name: string): RegistrationEntity {
  return { kind: "task", name: `${name}_1.pb`, spec: create(TaskSpecSchema, taskInit(name, "v1").spec) };
}

Deno.test("CreateRequests: a request encoded ahead is the one taken; one taken is not encoded again", () => {
  const requests = new CreateRequests();
  const ahead = task("ahead");
  requests.encodeAhead(ahead);
  const taken = requests.take(ahead);
  notEqual(requests.take(ahead), taken, "a request is handed out once, then made anew");

  const late = task("late");
  const made = requests.take(late);
  requests.encodeAhead(late);
  notEqual(requests.take(late), made);
});

Deno.test("createEntity: a create encoded ahead registers the entity as it was when encoded", async () => {
  await withSandbox(async (_sandbox, client) => {
    const requests = new CreateRequests();
    const entity = task("encoded");
    requests.encodeAhead(entity);
    // Against the contract (entities are final when encoded), to show the encoded bytes are what is sent.
    if (entity.kind === "task" && entity.spec.template) entity.spec.template.type = "changed-after-encoding";
    const entry = await createEntity(client.admin, entity, {}, requests);
    equal(entry.status, "Success");
    const stored = await client.admin.getTask({ id: id(ResourceType.TASK, "encoded", "v1") });
    equal(stored.closure?.compiledTask?.template?.type, "python-task");
  });
});

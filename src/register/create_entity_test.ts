import { notEqual } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { taskInit } from "../sandbox/_test_helpers.ts";
import type { RegistrationEntity } from "./classify.ts";
import { CreateRequests } from "./create_entity.ts";

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

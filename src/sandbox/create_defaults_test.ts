import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { id, sleepNode } from "./_test_helpers.ts";
import { SandboxStore } from "./store.ts";

Deno.test("CreateTask and CreateWorkflow store the template under the request's identifier, as FlyteAdmin does", () => {
  const store = new SandboxStore();
  const taskId = id(ResourceType.TASK, "t", "v1");
  const task = store.addTask({
    id: taskId,
    spec: {
      template: {
        id: id(ResourceType.TASK, "t", "{{ registration.version }}"),
        type: "python-task",
        metadata: { runtime: { version: "1.16.1", flavor: "python" } },
        interface: {},
        target: { case: "container", value: { image: "python:3.12" } },
      },
    },
  });
  assertEquals(task.closure?.compiledTask?.template?.id?.version, "v1");
  assertEquals(store.getTask(task.id!).closure?.compiledTask?.template?.id?.version, "v1");
  const workflowId = id(ResourceType.WORKFLOW, "wf", "v1");
  const workflow = store.addWorkflow({
    id: workflowId,
    spec: { template: { id: id(ResourceType.WORKFLOW, "other", "v0"), nodes: [sleepNode()] } },
  });
  assertEquals(workflow.closure?.compiledWorkflow?.primary?.template?.id?.name, "wf");
  assertEquals(workflow.closure?.compiledWorkflow?.primary?.template?.id?.version, "v1");
});

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { id, sleepNode } from "./_test_helpers.ts";
import { SandboxStore, type WorkflowInit } from "./store.ts";

/** What CreateWorkflow answers for workflow `wf` with `spec`: "OK" or "Code: message". */
function register(spec: Pick<WorkflowInit, "spec">["spec"]): string {
  try {
    new SandboxStore().addWorkflow({ id: id(ResourceType.WORKFLOW, "wf", "v1"), ...(spec ? { spec } : {}) });
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

Deno.test("CreateWorkflow refuses a spec without a template as FlyteAdmin does: missing spec", () => {
  assertEquals(register(undefined), "InvalidArgument: missing spec");
  assertEquals(register({}), "InvalidArgument: missing spec");
  assertEquals(register({ template: { id: id(ResourceType.WORKFLOW, "wf", "v1"), nodes: [sleepNode()] } }), "OK");
});

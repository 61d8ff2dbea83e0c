import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import type { JsonValue } from "@bufbuild/protobuf";
import type { MessageInit } from "../admin/message_init.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { Resources_ResourceName as Name, type TaskTemplate } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
import { id } from "./_test_helpers.ts";
import { simple } from "../_test_literals.ts";
import { SandboxStore } from "./store.ts";

type Template = MessageInit<TaskTemplate>;

const TASK_ID = id(ResourceType.TASK, "t", "v1");
const integer = simple(SimpleType.INTEGER);

/** A task with an input `x`, running `container`. */
const withContainer = (container: MessageInit<TaskTemplate>["target"] & { case: "container" }): Template => ({
  id: TASK_ID,
  type: "python-task",
  metadata: { runtime: { version: "1.16.1", flavor: "python" } },
  interface: { inputs: { variables: { x: { type: integer } } } },
  target: container,
});

/** A pod task whose containers have these names. */
const podNamed = (...names: JsonValue[]): Template => ({
  ...withContainer({ case: "container", value: {} }),
  type: "sidecar",
  target: { case: "k8sPod", value: { podSpec: { containers: names.map((name) => ({ name })) } } },
});

/** What CreateTask answers for `template`: "OK" or "Code: message". */
function register(template: Template): string {
  try {
    new SandboxStore().addTask({ id: TASK_ID, spec: { template } });
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

const failed = (...errors: string[]) =>
  `InvalidArgument: task failed compilation with Collected Errors: ${errors.length}\n` +
  errors.map((error, i) => `\tError ${i}: ${error}\n`).join("");

Deno.test("CreateTask compiles a container task with inputs only if it has a command or args", () => {
  assertEquals(
    register(withContainer({ case: "container", value: { image: "python:3.12" } })),
    failed("Code: ValueRequired, Node Id: container, Description: Value required [command]."),
  );
  assertEquals(register(withContainer({ case: "container", value: { image: "python:3.12", args: ["run"] } })), "OK");
  assertEquals(register(withContainer({ case: "container", value: { image: "python:3.12", command: ["run"] } })), "OK");
});

Deno.test("CreateTask's compiler reads every resource entry as a quantity, its errors listed once and sorted", () => {
  const resources = {
    requests: [{ name: Name.STORAGE, value: "lots" }, { name: Name.UNKNOWN, value: "x" }],
    limits: [{ name: Name.STORAGE, value: "lots" }],
  };
  assertEquals(
    register(withContainer({ case: "container", value: { image: "python:3.12", resources } })),
    failed(
      "Code: UnrecognizedValue, Node Id: resources.STORAGE, Description: Unrecognized value [lots].",
      "Code: UnrecognizedValue, Node Id: resources.UNKNOWN, Description: Unrecognized value [x].",
      "Code: ValueRequired, Node Id: container, Description: Value required [command].",
    ),
  );
});

Deno.test("CreateTask compiles a pod task only if its containers' names are DNS-1123 labels", () => {
  assertEquals(register(podNamed("primary", "side-car")), "OK");
  assertEquals(
    register(podNamed("Primary", "side_car", "x".repeat(64))),
    failed("Code: InvalidValue, Node Id: root, Description: Invalid value [k8s pod spec container name]."),
  );
  assertEquals(
    register(podNamed(null)),
    failed("Code: InvalidValue, Node Id: root, Description: Invalid value [k8s pod spec container name]."),
  );
});

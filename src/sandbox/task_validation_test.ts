import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { create, type JsonObject } from "@bufbuild/protobuf";
import type { MessageInit } from "../admin/message_init.ts";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { Resources_ResourceName as Name, type TaskTemplate } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
import { id } from "./_test_helpers.ts";
import { SandboxStore } from "./store.ts";
import { type PlatformTaskLimits, validateTaskSpec } from "./task_validation.ts";

type Template = MessageInit<TaskTemplate>;
type Entries = { name: Name; value: string }[];

const TASK_ID = id(ResourceType.TASK, "t", "v1");
const TASK_TEXT = 'resource_type:TASK project:"flytesnacks" domain:"development" name:"t" version:"v1"';

/** A python task as flytekit registers it. */
const valid = (): Template => ({
  id: TASK_ID,
  type: "python-task",
  metadata: { runtime: { version: "1.16.1", flavor: "python" } },
  interface: {},
  target: { case: "container", value: { image: "python:3.12", args: ["pyflyte-execute"] } },
});

/** The task's container with these resources. */
const withResources = (requests: Entries, limits: Entries = []): Template => ({
  ...valid(),
  target: { case: "container", value: { image: "python:3.12", resources: { requests, limits } } },
});

/** A pod task with one container of these resources. */
const pod = (resources: JsonObject | undefined): Template => ({
  ...valid(),
  type: "sidecar",
  target: {
    case: "k8sPod",
    value: { podSpec: { containers: [{ name: "primary", ...(resources ? { resources } : {}) }] } },
  },
});

/** What CreateTask answers for `template` (a fresh version each time): "OK" or "Code: message". */
function register(template: Template | undefined, spec = true): string {
  try {
    new SandboxStore().addTask({ id: TASK_ID, ...(spec ? { spec: { template } } : {}) });
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

/** What FlyteAdmin's ValidateTask answers for `template` under these platform limits (the demo cluster has none). */
function validate(template: Template, limits: PlatformTaskLimits): string {
  try {
    validateTaskSpec(create(TaskSpecSchema, { template }), limits);
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

Deno.test("CreateTask accepts a task as flytekit registers it", () => {
  assertEquals(register(valid()), "OK");
});

Deno.test("CreateTask refuses a spec without a template: missing spec", () => {
  assertEquals(register(undefined, false), "InvalidArgument: missing spec");
  assertEquals(register(undefined), "InvalidArgument: missing spec");
});

Deno.test("CreateTask refuses a template without a type, metadata, runtime version or interface, in that order", () => {
  assertEquals(register({ ...valid(), type: "", metadata: undefined }), "InvalidArgument: missing type");
  assertEquals(
    register({ ...valid(), metadata: undefined, interface: undefined }),
    "InvalidArgument: missing metadata",
  );
  assertEquals(
    register({ ...valid(), metadata: { runtime: { flavor: "python" } }, interface: undefined }),
    "InvalidArgument: missing runtime version",
  );
  // Metadata without a runtime is fine.
  assertEquals(register({ ...valid(), metadata: {} }), "OK");
  assertEquals(register({ ...valid(), interface: undefined }), "InvalidArgument: missing typed interface");
});

Deno.test("CreateTask refuses a container without an image", () => {
  assertEquals(register({ ...valid(), target: { case: "container", value: {} } }), "InvalidArgument: missing image");
  // A task without a container (a plugin task) needs no image.
  assertEquals(register({ ...valid(), target: { case: undefined } }), "OK");
});

Deno.test("CreateTask reads resources as Kubernetes quantities, compared rounded up", () => {
  assertEquals(
    register(withResources([{ name: Name.CPU, value: "500m" }, { name: Name.MEMORY, value: "1Gi" }], [
      { name: Name.CPU, value: "1.5" },
      { name: Name.MEMORY, value: "2e9" },
      { name: Name.GPU, value: "1" },
    ])),
    "OK",
  );
  // 1500m and 2 both round up to 2: FlyteAdmin compares Value().
  assertEquals(
    register(withResources([{ name: Name.CPU, value: "2" }], [{ name: Name.CPU, value: "1500m" }])),
    "OK",
  );
  // Validation skips storage and unknown names, duplicates included; the compiler reads them as quantities.
  assertEquals(
    validate(withResources([{ name: Name.STORAGE, value: "lots" }, { name: Name.STORAGE, value: "x" }]), {}),
    "OK",
  );
  assertEquals(
    register(withResources([{ name: Name.STORAGE, value: "1Gi" }, { name: Name.UNKNOWN, value: "2" }])),
    "OK",
  );
});

Deno.test("CreateTask refuses a default above its limit, naming both in canonical form", () => {
  assertEquals(
    register(withResources([{ name: Name.CPU, value: "3" }], [{ name: Name.CPU, value: "1.5" }])),
    "InvalidArgument: Requested CPU default [3] is greater than the limit [1500m]. Please fix your configuration",
  );
  assertEquals(
    register(withResources([{ name: Name.MEMORY, value: "1.5Gi" }], [{ name: Name.MEMORY, value: "1024Mi" }])),
    "InvalidArgument: Requested MEMORY default [1536Mi] is greater than the limit [1Gi]. Please fix your configuration",
  );
  assertEquals(
    register(
      withResources([{ name: Name.EPHEMERAL_STORAGE, value: "2000" }], [{
        name: Name.EPHEMERAL_STORAGE,
        value: "2e2",
      }]),
    ),
    "InvalidArgument: Requested EPHEMERAL_STORAGE default [2k] is greater than the limit [200]. Please fix your configuration",
  );
});

Deno.test("CreateTask refuses a resource given twice", () => {
  assertEquals(
    register(withResources([{ name: Name.CPU, value: "1" }, { name: Name.CPU, value: "2" }])),
    `InvalidArgument: can't specify CPU limit for task [${TASK_TEXT}] multiple times`,
  );
  assertEquals(
    register(withResources([], [{ name: Name.MEMORY, value: "1Gi" }, { name: Name.MEMORY, value: "1Gi" }])),
    `InvalidArgument: can't specify MEMORY limit for task [${TASK_TEXT}] multiple times`,
  );
});

Deno.test("CreateTask refuses a quantity Kubernetes does not parse, with its reason", () => {
  const advice = "Please follow K8s conventions for resources";
  assertEquals(
    register(withResources([{ name: Name.MEMORY, value: "512K" }])),
    "InvalidArgument: Parsing of MEMORY request failed for value 512K - reason  unable to parse quantity's suffix. " +
      advice,
  );
  assertEquals(
    register(withResources([], [{ name: Name.CPU, value: "two" }])),
    "InvalidArgument: Parsing of CPU request failed for value two - reason  quantities must match the regular " +
      "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'. " + advice,
  );
  assertEquals(
    register(withResources([{ name: Name.CPU, value: "" }])),
    "InvalidArgument: Parsing of CPU request failed for value  - reason  quantities must match the regular " +
      "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'. " + advice,
  );
});

Deno.test("CreateTask refuses a GPU that is not whole, or whose default is not its limit", () => {
  assertEquals(
    register(withResources([{ name: Name.GPU, value: "0.5" }])),
    `InvalidArgument: gpu for [${TASK_TEXT}] must be a whole number, got: 0.5 instead`,
  );
  assertEquals(
    register(withResources([], [{ name: Name.GPU, value: "1500m" }])),
    `InvalidArgument: gpu for [${TASK_TEXT}] must be a whole number, got: 1500m instead`,
  );
  assertEquals(
    register(withResources([{ name: Name.GPU, value: "1" }], [{ name: Name.GPU, value: "2" }])),
    `InvalidArgument: For extended resource 'gpu' the default value must equal the limit value for task [${TASK_TEXT}]`,
  );
  assertEquals(register(withResources([{ name: Name.GPU, value: "2" }], [{ name: Name.GPU, value: "2000m" }])), "OK");
});

Deno.test("CreateTask names the template's own identifier in resource messages, <nil> when it has none", () => {
  assertEquals(
    register({ ...withResources([{ name: Name.GPU, value: "1.5" }]), id: undefined }),
    "InvalidArgument: gpu for [<nil>] must be a whole number, got: 1.5 instead",
  );
});

Deno.test("CreateTask checks requests against the platform's limits (the demo cluster sets none)", () => {
  const limits = { cpu: "2", memory: "4Gi", gpu: "5", ephemeralStorage: "0" };
  const advice = "Please contact Flyte Admins to change these limits or consult the configuration";
  assertEquals(register(withResources([{ name: Name.CPU, value: "64" }, { name: Name.GPU, value: "8" }])), "OK");
  assertEquals(
    validate(withResources([{ name: Name.CPU, value: "1" }], [{ name: Name.CPU, value: "3" }]), limits),
    "InvalidArgument: Requested CPU limit [3] is greater than current limit set in the platform configuration [2]. " +
      advice,
  );
  assertEquals(
    validate(withResources([{ name: Name.MEMORY, value: "5Gi" }]), limits),
    "InvalidArgument: Requested MEMORY default [5Gi] is greater than current limit set in the platform " +
      `configuration [4Gi]. ${advice}`,
  );
  assertEquals(
    validate(withResources([{ name: Name.GPU, value: "6" }]), limits),
    `InvalidArgument: Requested GPU default [6] is greater than current limit set in the platform configuration [5]. ${advice}`,
  );
  // A zero platform limit is no limit.
  assertEquals(validate(withResources([{ name: Name.EPHEMERAL_STORAGE, value: "1Ti" }]), limits), "OK");
  // Only requests are checked: a limit with no request is not compared with the platform's.
  assertEquals(validate(withResources([], [{ name: Name.CPU, value: "64" }]), limits), "OK");
});

Deno.test("CreateTask refuses a pod task without a pod spec", () => {
  assertEquals(
    register({ ...valid(), target: { case: "k8sPod", value: {} } }),
    "InvalidArgument: invalid TaskSpecification, pod tasks should specify their target as a K8sPod with a defined pod spec",
  );
});

Deno.test("CreateTask checks a pod's containers' resources by their Kubernetes names", () => {
  assertEquals(register(pod({ requests: { cpu: "500m", memory: 1e9 }, limits: { cpu: 1, memory: "1Gi" } })), "OK");
  assertEquals(register(pod(undefined)), "OK");
  assertEquals(
    register(pod({ requests: { "ephemeral-storage": "2Gi" }, limits: { "ephemeral-storage": "1Gi" } })),
    "InvalidArgument: Requested EPHEMERAL_STORAGE default [2Gi] is greater than the limit [1Gi]. Please fix your " +
      "configuration",
  );
  // A pod's GPU need not equal its limit's name spelling: nvidia.com/gpu is not a Flyte resource name.
  assertEquals(register(pod({ requests: { "nvidia.com/gpu": "1" }, limits: { "nvidia.com/gpu": "2" } })), "OK");
  assertEquals(
    register(pod({ requests: { gpu: "1" }, limits: { gpu: "2" } })),
    `InvalidArgument: For extended resource 'gpu' the default value must equal the limit value for task [${TASK_TEXT}]`,
  );
});

Deno.test("CreateTask answers INTERNAL with the decoder's words for a pod spec Kubernetes does not decode", () => {
  assertEquals(
    register(pod({ requests: { cpu: "lots" } })),
    "Internal: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  );
  assertEquals(
    register({ ...valid(), target: { case: "k8sPod", value: { podSpec: { containers: "primary" } } } }),
    "Internal: json: cannot unmarshal string into Go struct field PodSpec.containers of type []v1.Container",
  );
});

Deno.test("CreateTask checks the spec before it compares with an existing version", () => {
  const store = new SandboxStore();
  store.addTask({ id: TASK_ID, spec: { template: valid() } });
  let answer = "OK";
  try {
    store.addTask({ id: TASK_ID, spec: { template: { ...valid(), metadata: undefined } } });
  } catch (err) {
    answer = (err as ConnectError).rawMessage;
  }
  assertEquals(answer, "missing metadata");
});

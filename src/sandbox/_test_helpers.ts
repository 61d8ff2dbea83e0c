/**
 * Shared setup for the sandbox tests: a started sandbox with a real client, and message builders.
 *
 * @module
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type AdminClient, createAdminClient } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import type { NodeSchema, WorkflowTemplateSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import type { BindingSchema, Literal } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "./mod.ts";
import type { LaunchPlanInit, TaskInit, WorkflowInit } from "./store.ts";

export const PROJECT = "flytesnacks";
export const DOMAIN = "development";

/** Runs `fn` with a fresh sandbox and a client connected to it, closing both afterwards. */
export async function withSandbox(
  fn: (sandbox: Sandbox, client: AdminClient) => Promise<void>,
  options?: SandboxOptions,
): Promise<void> {
  const sandbox = await startSandbox(options);
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await fn(sandbox, client);
  } finally {
    client.close();
    await sandbox.close();
  }
}

/** An identifier in the test project and domain. */
export function id(resourceType: ResourceType, name: string, version: string) {
  return { resourceType, project: PROJECT, domain: DOMAIN, name, version };
}

/** A python task, as flytekit registers one. */
export function taskInit(name: string, version: string, image = "python:3.12"): TaskInit {
  return {
    id: id(ResourceType.TASK, name, version),
    spec: {
      template: {
        id: id(ResourceType.TASK, name, version),
        type: "python-task",
        // What FlyteAdmin requires of every task: metadata (a runtime with its version) and an interface.
        metadata: { runtime: { version: "1.16.1", flavor: "python" } },
        interface: {},
        target: { case: "container", value: { image, args: ["pyflyte-execute"] } },
      },
    },
  };
}

/** A node that runs a task, its inputs bound as given (see {@link fromWorkflowInputs}, {@link valueBindings}). */
export function taskNode(
  nodeId: string,
  task: string,
  version: string,
  inputs: BindingInit[] = [],
): MessageInitShape<typeof NodeSchema> {
  return {
    id: nodeId,
    target: {
      case: "taskNode",
      value: { reference: { case: "referenceId", value: id(ResourceType.TASK, task, version) } },
    },
    inputs,
  };
}

type BindingInit = MessageInitShape<typeof BindingSchema>;

/** A binding of `name` to output `output` of node `nodeId` (`start-node`: the workflow's inputs). */
export function promiseBinding(name: string, nodeId: string, output = name): BindingInit {
  return { var: name, binding: { value: { case: "promise", value: { nodeId, var: output } } } };
}

/** Bindings of each named input to the workflow's input of the same name. */
export function fromWorkflowInputs(...names: string[]): BindingInit[] {
  return names.map((name) => promiseBinding(name, "start-node"));
}

/** Bindings of inputs to values (scalar literals, such as `_test_literals.ts` makes). */
export function valueBindings(values: Record<string, Literal>): BindingInit[] {
  return Object.entries(values).map(([name, literal]) => {
    if (literal.value.case !== "scalar") throw new Error(`a binding of ${name} needs a scalar literal`);
    return { var: name, binding: { value: { case: "scalar", value: literal.value.value } } };
  });
}

/**
 * A node that only sleeps: it runs no task and has no inputs, so a workflow of it needs nothing registered
 * (Flyte's compiler refuses a workflow without nodes).
 */
export function sleepNode(nodeId = "n0"): MessageInitShape<typeof NodeSchema> {
  return {
    id: nodeId,
    target: { case: "gateNode", value: { condition: { case: "sleep", value: { duration: { seconds: 1n } } } } },
  };
}

/** A workflow of the given nodes (by default one {@link sleepNode}). */
export function workflowInit(
  name: string,
  version: string,
  nodes: MessageInitShape<typeof NodeSchema>[] = [sleepNode()],
  subWorkflows: MessageInitShape<typeof WorkflowTemplateSchema>[] = [],
): WorkflowInit {
  const wfId = id(ResourceType.WORKFLOW, name, version);
  return { id: wfId, spec: { template: { id: wfId, nodes }, subWorkflows } };
}

/** A launch plan of a workflow with the same name and version. */
export function launchPlanInit(name: string, version: string, workflow = name): LaunchPlanInit {
  return {
    id: id(ResourceType.LAUNCH_PLAN, name, version),
    spec: { workflowId: id(ResourceType.WORKFLOW, workflow, version) },
  };
}

/** The AdminError a promise rejects with (fails the test otherwise). */
export async function adminError(promise: Promise<unknown>): Promise<AdminError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AdminError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

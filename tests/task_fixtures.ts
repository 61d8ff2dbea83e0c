/**
 * Builds tasks for tests and seeds them into an admin service through the real client.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { AdminClient } from "../src/admin/client.ts";
import { type TaskSpec, TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import type { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";

/** A variable of a test task: its simple type and description. */
export interface TestVariable {
  type: SimpleType;
  description?: string;
}

/** What a test task looks like. */
export interface TestTask {
  project?: string;
  domain?: string;
  name: string;
  version: string;
  inputs?: Record<string, TestVariable>;
  outputs?: Record<string, TestVariable>;
  discoverable?: boolean;
  discoveryVersion?: string;
}

function variables(vars: Record<string, TestVariable> = {}) {
  return {
    variables: Object.fromEntries(
      Object.entries(vars).map(([name, v]) => [name, {
        type: { type: { case: "simple" as const, value: v.type } },
        description: v.description ?? name,
      }]),
    ),
  };
}

/** A python container task spec. */
export function taskSpec(task: TestTask): TaskSpec {
  return create(TaskSpecSchema, {
    template: {
      id: {
        resourceType: ResourceType.TASK,
        project: task.project ?? "flytesnacks",
        domain: task.domain ?? "development",
        name: task.name,
        version: task.version,
      },
      type: "python-task",
      metadata: {
        discoverable: task.discoverable ?? false,
        discoveryVersion: task.discoveryVersion ?? "",
        runtime: { version: "1.10.0", flavor: "python" },
      },
      interface: { inputs: variables(task.inputs), outputs: variables(task.outputs) },
      target: { case: "container", value: { image: "cr.flyte.org/flytekit:py3.11", args: ["pyflyte-execute"] } },
    },
  });
}

/** Creates each task through the admin client, in order. */
export async function seedTasks(client: AdminClient, tasks: TestTask[]): Promise<void> {
  for (const task of tasks) {
    const spec = taskSpec(task);
    await client.admin.createTask({ id: spec.template!.id, spec });
  }
}

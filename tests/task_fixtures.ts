/**
 * Builds tasks for tests and seeds them into an admin service through the real client.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { type AdminClient, createAdminClient } from "../src/admin/client.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import type { ResourceListRequest } from "../proto/gen/flyteidl/admin/common_pb.ts";
import type { ObjectGetRequest } from "../proto/gen/flyteidl/admin/common_pb.ts";
import { type TaskSpec, TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import type { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { type LiteralTypeInit, simple } from "../src/_test_literals.ts";

/** A variable of a test task: its simple type, or any literal type, and its description. */
export interface TestVariable {
  type?: SimpleType;
  literalType?: LiteralTypeInit;
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
        type: v.literalType ?? simple(v.type ?? 0),
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

/** The project and domain of test tasks, as flags, plus the endpoint. */
export function scope(endpoint: string): string[] {
  return ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", endpoint];
}

/** Creation time of the first seeded task when a test uses {@link FIXED_NOW}; later ones follow by a tie step. */
export const FIXED_NOW = new Date("2024-03-04T05:06:07.123Z");

/** Runs `fn` against a sandbox seeded with `tasks` (created in order), with no requests recorded yet. */
export async function withTaskSandbox(
  tasks: TestTask[],
  fn: (sandbox: Sandbox) => Promise<void>,
  now: () => Date = () => FIXED_NOW,
): Promise<void> {
  const sandbox = await startSandbox({ now });
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, tasks);
    sandbox.clearRequests();
    await fn(sandbox);
  } finally {
    client.close();
    await sandbox.close();
  }
}

/** The parts of a recorded ListTasks or GetTask request that flytectl compatibility is about. */
export type TaskCall =
  | {
    method: "ListTasks";
    project: string;
    domain: string;
    name: string;
    limit: number;
    token: string;
    filters: string;
    sortBy: { key: string; direction: "ASCENDING" | "DESCENDING" } | undefined;
  }
  | { method: "GetTask"; resourceType: number; project: string; domain: string; name: string; version: string };

/** What the sandbox received, reduced to {@link TaskCall}s. */
export function taskCalls(sandbox: Sandbox): TaskCall[] {
  return sandbox.requests.map(({ method, request }) => {
    if (method === "GetTask") {
      const id = (request as ObjectGetRequest).id!;
      return {
        method,
        resourceType: id.resourceType,
        project: id.project,
        domain: id.domain,
        name: id.name,
        version: id.version,
      };
    }
    if (method !== "ListTasks") throw new Error(`unexpected ${method}`);
    const list = request as ResourceListRequest;
    return {
      method,
      project: list.id?.project ?? "",
      domain: list.id?.domain ?? "",
      name: list.id?.name ?? "",
      limit: list.limit,
      token: list.token,
      filters: list.filters,
      sortBy: list.sortBy &&
        { key: list.sortBy.key, direction: list.sortBy.direction === 1 ? "ASCENDING" : "DESCENDING" },
    };
  });
}

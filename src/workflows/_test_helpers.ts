/**
 * Test helpers: real workflows from the shared fixtures (packages made by Flyte's own tooling), compiled by the
 * sandbox the way FlyteAdmin compiles them (template, sub-workflows, tasks, start and end nodes, connections).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { unpackTar } from "modern-tar";
import { fileURLToPath } from "node:url";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Task, TaskSpec } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Workflow, WorkflowSpec } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import {
  type CompiledWorkflowClosure,
  CompiledWorkflowClosureSchema,
} from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { decodeEntity } from "../register/classify.ts";
import { wholeEntity } from "../register/_test_helpers.ts";
import { compileWorkflow } from "../sandbox/compile.ts";

/** Path of a file of the shared fixtures. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../../shared/fixtures/flytectl/${name}`, import.meta.url));
}

const key = (id: Identifier | undefined) => JSON.stringify([id?.project, id?.domain, id?.name, id?.version]);

/** The entities of a `.tgz` package of the shared fixtures. */
async function readPackage(name: string) {
  const gz = await Deno.readFile(fixture(name));
  const tar = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).bytes();
  const tasks = new Map<string, TaskSpec>();
  const workflows = new Map<string, WorkflowSpec>();
  const launchPlans = new Map<string, LaunchPlan>();
  for (const entry of await unpackTar(tar)) {
    if (!entry.header.name.endsWith(".pb") || !entry.data) continue;
    const entity = wholeEntity(decodeEntity(entry.header.name, entry.data));
    if (entity.kind === "task") tasks.set(key(entity.spec.template?.id), entity.spec);
    if (entity.kind === "workflow") workflows.set(key(entity.spec.template?.id), entity.spec);
    if (entity.kind === "launchPlan") launchPlans.set(key(entity.spec.id), entity.spec);
  }
  return { tasks, workflows, launchPlans };
}

/**
 * Every workflow of a fixture package (by its full name), compiled by the sandbox.
 */
export async function compiledFixtureWorkflows(packageName: string): Promise<Map<string, CompiledWorkflowClosure>> {
  const entities = await readPackage(packageName);
  const lookup = {
    task: (id: Identifier) => {
      const spec = entities.tasks.get(key(id));
      return spec ? { closure: { compiledTask: { template: spec.template } } } as unknown as Task : undefined;
    },
    launchPlan: (id: Identifier) => entities.launchPlans.get(key(id)),
    workflow: (id: Identifier) => {
      const spec = entities.workflows.get(key(id));
      return spec
        ? { closure: { compiledWorkflow: { primary: { template: spec.template } } } } as unknown as Workflow
        : undefined;
    },
  };
  const compiled = new Map<string, CompiledWorkflowClosure>();
  for (const spec of entities.workflows.values()) {
    compiled.set(spec.template!.id!.name, create(CompiledWorkflowClosureSchema, compileWorkflow(spec, lookup)));
  }
  return compiled;
}

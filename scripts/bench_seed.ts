/**
 * What the bench admin holds besides tasks (scripts/bench_task.ts), so that every `get` command lists a full
 * page of 100: projects, workflows (names and the versions of one name), launch plans and executions, all but
 * the projects in `flytesnacks`/`development`.
 *
 * - `n` projects `bench-project-<i>`, registered over the admin's own RPC (as a user registers them), so only on
 *   an admin without auth; the admin has its seed project `flytesnacks` besides.
 * - `n` workflow names `bench.module_<i % 50>.wf_<i>` at `v0`, and `n - 1` more versions of the first name, so that
 *   the first name has `n` versions. Each takes two integers, as the seeded tasks do, and has one node, which only
 *   sleeps (it needs no task, and the admin compiles no workflow without nodes).
 * - `n` launch plans, `v0` of each workflow name, with defaults for both inputs.
 * - `n` executions `run-<i>` of the first launch plan, created through the store's executions, as CreateExecution
 *   creates them.
 * - `n` typed launch plans `bench.typed.wf_<i>` (`v0`, their workflows too): 20 inputs of varied types, each with a
 *   default (scripts/bench_typed_launch_plan.ts), for `create execution`.
 *
 * @module
 */
import { createAdminClient } from "../src/admin/client.ts";
import { executionRegistry } from "../src/sandbox/executions.ts";
import type { Sandbox } from "../src/sandbox/mod.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { typedParameters, typedVariables } from "./bench_typed_launch_plan.ts";

const PROJECT = "flytesnacks";
const DOMAIN = "development";

/** How many of each the admin holds (tasks aside). */
export interface SeedCounts {
  projects: number;
  workflows: number;
  launchPlans: number;
  executions: number;
  /** Launch plans of 20 inputs of varied types, each with a default. */
  typedLaunchPlans: number;
}

/** The `i`-th typed launch plan's name, which is also its workflow's. */
export function typedLaunchPlanName(i: number): string {
  return `bench.typed.wf_${i}`;
}

/** The `i`-th seeded workflow name, which is also its launch plan's name. */
export function seededWorkflowName(i: number): string {
  return `bench.module_${i % 50}.wf_${i}`;
}

const integer = { type: { case: "simple" as const, value: SimpleType.INTEGER } };
const INTERFACE = { inputs: { variables: { a: { type: integer }, b: { type: integer } } }, outputs: {} };

function intLiteral(value: number) {
  return {
    value: {
      case: "scalar" as const,
      value: {
        value: { case: "primitive" as const, value: { value: { case: "integer" as const, value: BigInt(value) } } },
      },
    },
  };
}

function identifier(resourceType: ResourceType, name: string, version: string) {
  return { resourceType, project: PROJECT, domain: DOMAIN, name, version };
}

/** A workflow's one node: it sleeps, so it needs no task and no input. */
const SLEEP_NODE = {
  id: "n0",
  target: { case: "gateNode", value: { condition: { case: "sleep", value: { duration: { seconds: 1n } } } } },
} as const;

function addWorkflow(sandbox: Sandbox, name: string, version: string): void {
  const id = identifier(ResourceType.WORKFLOW, name, version);
  sandbox.store.addWorkflow({ id, spec: { template: { id, interface: INTERFACE, nodes: [SLEEP_NODE] } } });
}

/**
 * Seeds `sandbox` with `counts`; launch plans need as many workflow names, and executions a launch plan, so
 * those counts are raised to what the later ones need. Call it before the admin's latency is set.
 */
export async function seedAdmin(sandbox: Sandbox, counts: SeedCounts): Promise<void> {
  if (counts.projects > 0) {
    const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
    try {
      await Promise.all(
        Array.from({ length: counts.projects }, (_, i) =>
          client.admin.registerProject({
            project: { id: `bench-project-${i}`, name: `bench project ${i}`, description: `seeded project ${i}` },
          })),
      );
    } finally {
      client.close();
    }
  }
  const launchPlans = Math.max(counts.launchPlans, counts.executions > 0 ? 1 : 0);
  const workflows = Math.max(counts.workflows, launchPlans);
  for (let i = 0; i < workflows; i++) addWorkflow(sandbox, seededWorkflowName(i), "v0");
  for (let v = 1; v < counts.workflows; v++) addWorkflow(sandbox, seededWorkflowName(0), `v${v}`);
  for (let i = 0; i < launchPlans; i++) {
    const name = seededWorkflowName(i);
    sandbox.store.addLaunchPlan({
      id: identifier(ResourceType.LAUNCH_PLAN, name, "v0"),
      spec: {
        workflowId: identifier(ResourceType.WORKFLOW, name, "v0"),
        defaultInputs: {
          parameters: {
            a: { var: { type: integer }, behavior: { case: "default", value: intLiteral(1) } },
            b: { var: { type: integer }, behavior: { case: "default", value: intLiteral(2) } },
          },
        },
      },
    });
  }
  for (let i = 0; i < counts.typedLaunchPlans; i++) {
    const name = typedLaunchPlanName(i);
    const workflowId = identifier(ResourceType.WORKFLOW, name, "v0");
    const variables = typedVariables();
    sandbox.store.addWorkflow({
      id: workflowId,
      spec: { template: { id: workflowId, interface: { inputs: { variables }, outputs: {} }, nodes: [SLEEP_NODE] } },
    });
    sandbox.store.addLaunchPlan({
      id: identifier(ResourceType.LAUNCH_PLAN, name, "v0"),
      spec: { workflowId, defaultInputs: { parameters: typedParameters() } },
    });
  }
  const executions = executionRegistry(sandbox.store.executions);
  const launchPlan = identifier(ResourceType.LAUNCH_PLAN, seededWorkflowName(0), "v0");
  for (let i = 0; i < counts.executions; i++) {
    executions.create({ project: PROJECT, domain: DOMAIN, name: `run-${i}`, spec: { launchPlan } });
  }
}

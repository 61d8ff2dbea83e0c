import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSpecSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { type IdentifierSchema, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { decodeEntity, type RegistrationEntity } from "./classify.ts";
import { hydrateEntityInPlace } from "./hydrate.ts";
import { withPackageMembers } from "./package/members.ts";
import { planRegistration } from "./plan.ts";
import { fixture, registrationEntity } from "./_test_helpers.ts";

const id = (resourceType: ResourceType, name: string): MessageInitShape<typeof IdentifierSchema> => ({
  resourceType,
  project: "p",
  domain: "d",
  name,
  version: "v",
});

const task = (file: string, name: string): RegistrationEntity =>
  registrationEntity({
    kind: "task",
    name: file,
    spec: create(TaskSpecSchema, { template: { id: id(ResourceType.TASK, name) } }),
  });

const workflow = (file: string, name: string, tasks: string[], launchPlans: string[] = []): RegistrationEntity =>
  registrationEntity({
    kind: "workflow",
    name: file,
    spec: create(WorkflowSpecSchema, {
      template: {
        id: id(ResourceType.WORKFLOW, name),
        nodes: [
          ...tasks.map((t) => ({
            id: t,
            target: {
              case: "taskNode" as const,
              value: { reference: { case: "referenceId" as const, value: id(ResourceType.TASK, t) } },
            },
          })),
          ...launchPlans.map((lp) => ({
            id: lp,
            target: {
              case: "workflowNode" as const,
              value: { reference: { case: "launchplanRef" as const, value: id(ResourceType.LAUNCH_PLAN, lp) } },
            },
          })),
        ],
      },
    }),
  });

const launchPlan = (file: string, name: string, wf: string): RegistrationEntity =>
  registrationEntity({
    kind: "launchPlan",
    name: file,
    spec: create(LaunchPlanSchema, {
      id: id(ResourceType.LAUNCH_PLAN, name),
      spec: { workflowId: id(ResourceType.WORKFLOW, wf) },
    }),
  });

const names = (stages: RegistrationEntity[][]) => stages.map((s) => s.map((e) => e.name));

Deno.test("an ordinary package: tasks, then workflows, then launch plans, whatever the input order", () => {
  const plan = planRegistration([
    launchPlan("17_wf_3.pb", "wf", "wf"),
    workflow("16_wf_2.pb", "wf", ["t1", "t2"]),
    task("15_t2_1.pb", "t2"),
    task("14_t1_1.pb", "t1"),
  ]);
  assertEquals(names(plan.stages), [["14_t1_1.pb", "15_t2_1.pb"], ["16_wf_2.pb"], ["17_wf_3.pb"]]);
});

Deno.test("a workflow that starts a launch plan of the package comes after that launch plan", () => {
  const plan = planRegistration([
    workflow("01_parent_2.pb", "parent", ["t"], ["child"]),
    launchPlan("02_parent_3.pb", "parent", "parent"),
    workflow("03_child_2.pb", "child", ["t"]),
    launchPlan("04_child_3.pb", "child", "child"),
    task("00_t_1.pb", "t"),
  ]);
  assertEquals(names(plan.stages), [
    ["00_t_1.pb"],
    ["03_child_2.pb"],
    ["04_child_3.pb"],
    ["01_parent_2.pb"],
    ["02_parent_3.pb"],
  ]);
});

Deno.test("references to entities outside the package do not hold anything back", () => {
  const plan = planRegistration([workflow("wf_2.pb", "wf", ["registered.elsewhere"]), task("t_1.pb", "t")]);
  assertEquals(names(plan.stages), [["t_1.pb", "wf_2.pb"]]);
});

Deno.test("a reference cycle ends the plan with the entities involved, in file order", () => {
  const plan = planRegistration([
    workflow("b_2.pb", "b", [], ["a"]),
    launchPlan("a_3.pb", "a", "b"),
    task("t_1.pb", "t"),
  ]);
  assertEquals(names(plan.stages), [["t_1.pb"], ["b_2.pb", "a_3.pb"]]);
});

Deno.test("an entity serialized twice: its dependents wait for the first copy, the one that creates it", () => {
  const first = task("32_sample_1.pb", "sample");
  const again = task("36_sample_1.pb", "sample");
  const wf = workflow("40_wf_2.pb", "wf", ["sample"]);
  const plan = planRegistration([again, wf, first]);
  assertEquals([...plan.dependencies.get(wf)!].map((e) => e.name), ["32_sample_1.pb"]);
});

/** A parent workflow that embeds `child` in its `sub_workflows` and runs it through a sub-workflow node. */
const parentEmbedding = (file: string, child: string, childTask: string): RegistrationEntity =>
  registrationEntity({
    kind: "workflow",
    name: file,
    spec: create(WorkflowSpecSchema, {
      template: {
        id: id(ResourceType.WORKFLOW, "parent"),
        nodes: [{
          id: "n0",
          target: {
            case: "workflowNode",
            value: { reference: { case: "subWorkflowRef", value: id(ResourceType.WORKFLOW, child) } },
          },
        }],
      },
      subWorkflows: [{
        id: id(ResourceType.WORKFLOW, child),
        nodes: [{
          id: "n0",
          target: {
            case: "taskNode",
            value: { reference: { case: "referenceId", value: id(ResourceType.TASK, childTask) } },
          },
        }],
      }],
    }),
  });

Deno.test("a workflow does not wait for the sub-workflows it embeds, only for what they use", () => {
  const t = task("01_t_1.pb", "t");
  const child = workflow("02_child_2.pb", "child", ["t"]);
  const parent = parentEmbedding("03_parent_2.pb", "child", "t");
  const plan = planRegistration([parent, child, t]);
  assertEquals([...plan.dependencies.get(parent)!].map((e) => e.name), ["01_t_1.pb"]);
  assertEquals(names(plan.stages), [["01_t_1.pb"], ["02_child_2.pb", "03_parent_2.pb"]]);
});

Deno.test("flytesnacks-core plans in 3 rounds: tasks, workflows, launch plans", async () => {
  const stages = await withPackageMembers([fixture("flytesnacks-core.tgz")], true, (members) => {
    const entities: RegistrationEntity[] = [];
    for (const member of members) {
      if (member.bytes === undefined || !member.name.endsWith(".pb")) continue;
      const entity = decodeEntity(member.name, member.bytes);
      entities.push(hydrateEntityInPlace(entity, { project: "p", domain: "d", version: "v" }));
    }
    return Promise.resolve(planRegistration(entities).stages);
  });
  assertEquals(stages.map((stage) => [...new Set(stage.map((e) => e.kind))]), [["task"], ["workflow"], [
    "launchPlan",
  ]]);
  assertEquals(stages.map((stage) => stage.length), [39, 21, 24]);
});

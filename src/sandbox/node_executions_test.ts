import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { AdminClient } from "../admin/client.ts";
import { DOMAIN, id, launchPlanInit, PROJECT, withSandbox, workflowInit } from "./_test_helpers.ts";
import type { Sandbox } from "./server.ts";
import { alwaysBranch, INT, intValue, node, type NodeInit, withTask } from "./_test_compile.ts";

const START = Date.parse("2026-03-01T00:00:00Z");

/**
 * Registers workflow `nested` and its launch plan: n0, then branch n1, whose first case is branch n0, whose first case
 * is n0 (as flytekit numbers them).
 */
async function registerNested(sandbox: Sandbox, client: AdminClient): Promise<void> {
  withTask(sandbox.store, "make", { a: INT }, { o: INT });
  const makes = (nodeId: string) => node(nodeId, "make", { a: intValue(1n) });
  const nodes = [makes("n0"), alwaysBranch("n1", alwaysBranch("n0", makes("n0"), makes("n1")), makes("n2"))];
  await client.admin.createWorkflow(workflowInit("nested", "v1", nodes));
  await client.admin.createLaunchPlan(launchPlanInit("nested", "v1"));
}

Deno.test("a run of a nested branch records the node executions flytepropeller reports: its ids, hashed past 20", async () => {
  let ms = START;
  await withSandbox(async (sandbox, client) => {
    await registerNested(sandbox, client);
    const executionId = { project: PROJECT, domain: DOMAIN, name: "nest" };
    await client.admin.createExecution({
      ...executionId,
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "nested", "v1") },
    });
    ms += 3_600_000;
    const list = async (uniqueParentId = "") =>
      (await client.admin.listNodeExecutions({ workflowExecutionId: executionId, uniqueParentId, limit: 10 }))
        .nodeExecutions.map((execution) => [
          execution.id?.nodeId,
          execution.metadata?.specNodeId,
          execution.metadata?.retryGroup,
          execution.metadata?.isParentNode,
        ]);
    assertEquals(await list(), [
      ["start-node", "start-node", "", false],
      ["n0", "n0", "", false],
      // flytepropeller marks only a sub-workflow node a parent: a branch is not one, though its case is its child.
      ["n1", "n1", "", false],
      ["end-node", "end-node", "", false],
    ]);
    // The compiler renamed the cases `n1-n0` and `n1-n0-n0`; flytepropeller prefixes each with its parent's id and
    // attempt, and hashes `n1-0-n1-n0-0-n1-n0-n0` (21 characters).
    assertEquals(await list("n1"), [["n1-0-n1-n0", "n1-n0", "0", false]]);
    assertEquals(await list("n1-0-n1-n0"), [["fb4uqydi", "n1-n0-n0", "0", false]]);
    const tasks = await client.admin.listTaskExecutions({
      nodeExecutionId: { executionId, nodeId: "fb4uqydi" },
      limit: 10,
    });
    assertEquals(tasks.taskExecutions.map((task) => task.id?.taskId?.name), ["make"]);
    // Its pod is `<execution>-<unique id>-<attempt>`, short enough to be kept.
    assertEquals(tasks.taskExecutions[0].closure?.logs.map((log) => log.uri), [
      `http://localhost:30082/#!/log/${PROJECT}-${DOMAIN}/nest-fb4uqydi-0/pod?namespace=${PROJECT}-${DOMAIN}`,
    ]);
  }, { now: () => new Date(ms) });
});

Deno.test("node executions' id and parent_id columns are FlyteAdmin's rows: numbered as they start, a child's parent", async () => {
  let ms = START;
  await withSandbox(async (sandbox, client) => {
    await registerNested(sandbox, client);
    const run = async (name: string) => {
      await client.admin.createExecution({
        project: PROJECT,
        domain: DOMAIN,
        name,
        spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "nested", "v1") },
      });
      ms += 3_600_000;
    };
    await run("first");
    await run("second");
    const list = async (name: string, filters: string, uniqueParentId = "") =>
      (await client.admin.listNodeExecutions({
        workflowExecutionId: { project: PROJECT, domain: DOMAIN, name },
        uniqueParentId,
        filters,
        limit: 10,
      })).nodeExecutions.map((execution) => execution.id?.nodeId);
    // first: start-node 1, n0 2, n1 3, its case 4, the case's case 5, end-node 6; second's rows follow.
    assertEquals(await list("first", "gt(id,2)"), ["n1", "end-node"]);
    assertEquals(await list("second", "lte(id,8)"), ["start-node", "n0"]);
    assertEquals(await list("first", "eq(parent_id,3)", "n1"), ["n1-0-n1-n0"]);
    assertEquals(await list("first", "eq(parent_id,4)", "n1-0-n1-n0"), ["fb4uqydi"]);
    assertEquals(await list("second", "eq(parent_id,9)", "n1"), ["n1-0-n1-n0"]);
    assertEquals(await list("second", "eq(parent_id,3)", "n1"), []);
    // A top-level node has none.
    assertEquals(await list("first", "eq(parent_id,0)"), []);
  }, { now: () => new Date(ms) });
});

Deno.test("a task attempt's pod, in its log link, is named as flytepropeller names it: hashed past 50", async () => {
  let ms = START;
  await withSandbox(async (sandbox, client) => {
    withTask(sandbox.store, "make", { a: INT }, { o: INT });
    await client.admin.createWorkflow(workflowInit("one", "v1", [node("n0", "make", { a: intValue(1n) })]));
    await client.admin.createLaunchPlan(launchPlanInit("one", "v1"));
    // 52 characters: with `-n0-0` the pod's name would be 57 long, past flytepropeller's 50.
    const executionId = {
      project: PROJECT,
      domain: DOMAIN,
      name: "a-long-execution-name-as-its-user-chose-it-for-a-run",
    };
    await client.admin.createExecution({
      ...executionId,
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "one", "v1") },
    });
    ms += 3_600_000;
    const tasks = await client.admin.listTaskExecutions({ nodeExecutionId: { executionId, nodeId: "n0" }, limit: 10 });
    assertEquals(tasks.taskExecutions.map((task) => task.closure?.logs.map((log) => log.uri)), [[
      `http://localhost:30082/#!/log/${PROJECT}-${DOMAIN}/fzryjrfi/pod?namespace=${PROJECT}-${DOMAIN}`,
    ]]);
  }, { now: () => new Date(ms) });
});

Deno.test("an array node's execution is marked an array, not a parent, as flytepropeller reports it", async () => {
  let ms = START;
  await withSandbox(async (sandbox, client) => {
    withTask(sandbox.store, "make", { a: INT }, { o: INT });
    const inputs = { a: intValue(1n) };
    const array: NodeInit = {
      id: "a",
      inputs: [{ var: "a", binding: intValue(1n) }],
      target: { case: "arrayNode", value: { node: node("a-sub", "make", inputs) } },
    };
    await client.admin.createWorkflow(workflowInit("arrays", "v1", [array]));
    await client.admin.createLaunchPlan(launchPlanInit("arrays", "v1"));
    const executionId = { project: PROJECT, domain: DOMAIN, name: "arr" };
    await client.admin.createExecution({
      ...executionId,
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "arrays", "v1") },
    });
    ms += 3_600_000;
    const nodes = await client.admin.listNodeExecutions({ workflowExecutionId: executionId, limit: 10 });
    assertEquals(
      nodes.nodeExecutions.map((execution) => [
        execution.id?.nodeId,
        execution.metadata?.isParentNode,
        execution.metadata?.isArray,
      ]),
      [["start-node", false, false], ["a", false, true], ["end-node", false, false]],
    );
  }, { now: () => new Date(ms) });
});

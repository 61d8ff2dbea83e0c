/**
 * A branch's cases as Flyte's compiler names them, seen through fctl against the sandbox: `get workflow -o dot`
 * draws the nodes FlyteAdmin's closure carries (`<branch>-<node>`, nested `b-ib-t0`), and the node executions are
 * listed under the ids flytepropeller reports (`<parent>-0-<node>`), though `get execution --details` stops at the
 * branch, which FlyteAdmin does not mark a parent.
 */
import { equal, ok as assert } from "node:assert/strict";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { id, launchPlanInit, workflowInit } from "../src/sandbox/_test_helpers.ts";
import { alwaysBranch, INT, intValue, node, type NodeInit, withTask } from "../src/sandbox/_test_compile.ts";
import { runFctlProcess } from "./helpers.ts";
import { withFullAdmin } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

/** A branch named after its id, as flytekit names one (the drawing labels its cluster so). */
const branch = (nodeId: string, thenNode: NodeInit, elseNode: NodeInit) =>
  alwaysBranch(nodeId, thenNode, elseNode, nodeId);

/** A sandbox with workflow `nested` (n0, then branch b: if branch ib (t0, else t1), else e0) and its launch plan. */
async function withNestedBranch(fn: (sandbox: Sandbox, endpoint: string[]) => Promise<void>, now: () => Date) {
  const sandbox = await startSandbox({ now });
  try {
    withTask(sandbox.store, "make", { a: INT }, { o: INT });
    const makes = (nodeId: string) => node(nodeId, "make", { a: intValue(1n) });
    sandbox.store.addWorkflow(
      workflowInit("nested", "v1", [makes("n0"), branch("b", branch("ib", makes("t0"), makes("t1")), makes("e0"))]),
    );
    sandbox.store.addLaunchPlan(launchPlanInit("nested", "v1"));
    await fn(sandbox, [...SCOPE, "--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
  }
}

Deno.test("get workflow -o dot, as a fresh process, draws a branch's cases under the compiler's ids", async () => {
  await withNestedBranch(async (_sandbox, endpoint) => {
    const dot = await runFctlProcess(["get", "workflow", "nested", "--version", "v1", "-o", "dot", ...endpoint]);
    equal(dot.code, 0, dot.stderr);
    for (
      const line of [
        // The cases are b-ib, b-e0, and ib's b-ib-t0 and b-ib-t1 (DOT writes `-` as `_`).
        '\t\t\tb_ib_t0 [ label="make [python-task]", shape=box ];',
        '\t\t\tb_ib_t1 [ label="make [python-task]", shape=box ];',
        '\t\tb_e0 [ label="make [python-task]", shape=box ];',
        '\tb->b_e0[ label="orElse" ];',
        '\tb_ib->b_ib_t1[ label="orElse" ];',
      ]
    ) assert(dot.stdout.includes(`${line}\n`), `${line} in\n${dot.stdout}`);
    for (const name of ["t0", "t1", "e0"]) assert(!new RegExp(`\\b${name} \\[`).test(dot.stdout), dot.stdout);
  }, () => new Date());
});

Deno.test("get execution --details, as a fresh process, shows a branch as flytectl does: not a parent, its cases under flytepropeller's ids", async () => {
  let ms = Date.parse("2026-03-01T00:00:00Z");
  await withNestedBranch(async (sandbox, endpoint) => {
    const executionId = { project: "flytesnacks", domain: "development", name: "nest" };
    await withFullAdmin(sandbox, async (admin) => {
      await admin.createExecution({
        ...executionId,
        spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "nested", "v1") },
      });
    });
    ms += 3_600_000;
    const details = await runFctlProcess(["get", "execution", "nest", "--details", "-o", "json", ...endpoint]);
    equal(details.code, 0, details.stderr);
    const ids: string[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (typeof value !== "object" || value === null) return;
      const nodeId = (value as { id?: { nodeId?: unknown } }).id?.nodeId;
      if (typeof nodeId === "string") ids.push(nodeId);
      Object.values(value).forEach(visit);
    };
    visit(JSON.parse(details.stdout));
    // flytepropeller marks only sub-workflow nodes parents, so FlyteAdmin's branch node is not one: the tree stops
    // at it, as flytectl's does against FlyteAdmin.
    assert(ids.includes("b"), `b in ${ids}`);
    assert(!ids.includes("b-0-b-ib"), `no b-0-b-ib in ${ids}`);
    // Its cases are still its children, under flytepropeller's ids.
    await withFullAdmin(sandbox, async (admin) => {
      const children = async (uniqueParentId: string) =>
        (await admin.listNodeExecutions({ workflowExecutionId: executionId, uniqueParentId, limit: 10 }))
          .nodeExecutions.map((node) => node.id?.nodeId);
      equal((await children("b")).join(), "b-0-b-ib");
      equal((await children("b-0-b-ib")).join(), "b-0-b-ib-0-b-ib-t0");
    });
  }, () => new Date(ms));
});

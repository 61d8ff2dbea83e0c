import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Sort_Direction } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { LaunchPlanState } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Sandbox } from "./mod.ts";
import { timestampToNs } from "./time.ts";
import {
  adminError,
  DOMAIN,
  id,
  launchPlanInit,
  PROJECT,
  taskInit,
  taskNode,
  withSandbox,
  workflowInit,
} from "./_test_helpers.ts";

const scope = { project: PROJECT, domain: DOMAIN };
const DAY_MS = 24 * 60 * 60 * 1000;
const START = Date.parse("2021-05-20T00:00:00Z");

/** Options whose clock reads START, START + 1 day, … on successive creations. */
function dailyClock() {
  let day = 0;
  return { now: () => new Date(START + DAY_MS * day++) };
}

/** Seeds a v1..v3 of "a", v1 of "b" and v7 of "c", created one day apart from 2021-05-20. */
function seedTasks(sandbox: Sandbox): void {
  for (const [name, version] of [["a", "v1"], ["a", "v2"], ["a", "v3"], ["b", "v1"], ["c", "v7"]]) {
    sandbox.store.addTask(taskInit(name, version));
  }
}

function names(tasks: { id?: { name: string; version: string } }[]): string[] {
  return tasks.map((task) => `${task.id?.name}@${task.id?.version}`);
}

Deno.test("ListTasks requires project and domain", async () => {
  await withSandbox(async (_sandbox, client) => {
    const err = await adminError(client.admin.listTasks({ id: { project: PROJECT }, limit: 10 }));
    assertEquals([err.status, err.serverMessage], ["InvalidArgument", "missing domain"]);
  });
});

Deno.test("ListTasks applies every filter function", async () => {
  await withSandbox(async (sandbox, client) => {
    seedTasks(sandbox);
    const list = async (filters: string) =>
      names((await client.admin.listTasks({ id: scope, limit: 10, filters })).tasks);
    assertEquals(await list("eq(task.name,a)"), ["a@v3", "a@v2", "a@v1"]);
    assertEquals(await list("ne(name,a)"), ["c@v7", "b@v1"]);
    assertEquals(await list("contains(task.version,7)"), ["c@v7"]);
    assertEquals(await list("value_in(task.version,v1;v7)"), ["c@v7", "b@v1", "a@v1"]);
    assertEquals(await list("gt(version,v2)+eq(name,a)"), ["a@v3"]);
    assertEquals(await list("gte(created_at,2021-05-22T00:00:00Z)"), ["c@v7", "b@v1", "a@v3"]);
    assertEquals(await list("gt(created_at,2021-05-22T00:00:00Z)"), ["c@v7", "b@v1"]);
    assertEquals(await list("lt(task.created_at,2021-05-21T00:00:00Z)"), ["a@v1"]);
    assertEquals(await list("lte(created_at,2021-05-21T00:00:00Z)"), ["a@v2", "a@v1"]);
    // FlyteAdmin splits terms on every "+", so a time with a "+" offset breaks its term.
    const offset = await adminError(
      client.admin.listTasks({ id: scope, limit: 1, filters: "lte(created_at,T+02:00)" }),
    );
    assertEquals([offset.status, offset.serverMessage], ["InvalidArgument", "invalid value for filters"]);
    assertEquals(await list("eq(created_at,2021-05-23T00:00:00Z)"), ["b@v1"]);
  }, dailyClock());
});

Deno.test("ListTasks rejects an unknown filter function or field, naming it", async () => {
  await withSandbox(async (_sandbox, client) => {
    const fn = await adminError(client.admin.listTasks({ id: scope, limit: 1, filters: "regex(name,a)" }));
    assertEquals([fn.status, fn.serverMessage], ["InvalidArgument", "unrecognized filter function: regex"]);
    const field = await adminError(client.admin.listTasks({ id: scope, limit: 1, filters: "eq(task.owner,me)" }));
    assertEquals([field.status, field.serverMessage], ["InvalidArgument", "'t.owner' is invalid filter"]);
  });
});

Deno.test("ListTasks sorts newest first by default, and by any key either way", async () => {
  await withSandbox(async (sandbox, client) => {
    seedTasks(sandbox);
    const list = async (key?: string, direction = Sort_Direction.DESCENDING) =>
      names(
        (await client.admin.listTasks({ id: scope, limit: 10, sortBy: key ? { key, direction } : undefined })).tasks,
      );
    assertEquals(await list(), ["c@v7", "b@v1", "a@v3", "a@v2", "a@v1"]);
    assertEquals(await list("created_at", Sort_Direction.ASCENDING), ["a@v1", "a@v2", "a@v3", "b@v1", "c@v7"]);
    assertEquals(await list("version", Sort_Direction.ASCENDING), ["a@v1", "b@v1", "a@v2", "a@v3", "c@v7"]);
    assertEquals(await list("name"), ["c@v7", "b@v1", "a@v3", "a@v2", "a@v1"]);
    const err = await adminError(client.admin.listTasks({ id: scope, limit: 1, sortBy: { key: "colour" } }));
    assertEquals([err.status, err.serverMessage], ["InvalidArgument", "invalid sort key 'colour'"]);
  }, dailyClock());
});

Deno.test("ListTasks pages with offset tokens", async () => {
  await withSandbox(async (sandbox, client) => {
    for (let i = 1; i <= 7; i++) sandbox.store.addTask(taskInit("t", `v${i}`));
    const pages: string[][] = [];
    const tokens: string[] = [];
    let token = "";
    do {
      const page = await client.admin.listTasks({ id: { ...scope, name: "t" }, limit: 3, token });
      pages.push(names(page.tasks));
      tokens.push(page.token);
      token = page.token;
    } while (token !== "");
    assertEquals(pages, [["t@v7", "t@v6", "t@v5"], ["t@v4", "t@v3", "t@v2"], ["t@v1"]]);
    assertEquals(tokens, ["3", "6", ""]);
    // FlyteAdmin gives a token for every full page: one that ends at the last task leads to an empty page.
    const full = await client.admin.listTasks({ id: { ...scope, name: "t" }, limit: 7 });
    assertEquals([full.tasks.length, full.token], [7, "7"]);
    const after = await client.admin.listTasks({ id: { ...scope, name: "t" }, limit: 7, token: full.token });
    assertEquals([after.tasks.length, after.token], [0, ""]);
  });
});

Deno.test("ListTasks rejects limit 0 and a bad token", async () => {
  await withSandbox(async (_sandbox, client) => {
    const limit = await adminError(client.admin.listTasks({ id: scope, limit: 0 }));
    assertEquals([limit.status, limit.serverMessage], ["InvalidArgument", "invalid value for limit"]);
    const token = await adminError(client.admin.listTasks({ id: scope, limit: 1, token: "abc" }));
    assertEquals([token.status, token.serverMessage], [
      "InvalidArgument",
      "invalid pagination token abc for ListTasks",
    ]);
  });
});

Deno.test("ListTasks scopes by project, domain and name", async () => {
  await withSandbox(async (sandbox, client) => {
    seedTasks(sandbox);
    sandbox.store.addTask({
      id: { ...id(ResourceType.TASK, "a", "v9"), domain: "production" },
      spec: taskInit("a", "v9").spec,
    });
    const a = await client.admin.listTasks({ id: { ...scope, name: "a" }, limit: 10 });
    assertEquals(names(a.tasks), ["a@v3", "a@v2", "a@v1"]);
    const prod = await client.admin.listTasks({ id: { ...scope, domain: "production" }, limit: 10 });
    assertEquals(names(prod.tasks), ["a@v9"]);
  });
});

Deno.test("created tasks carry the compiled template and strictly increasing creation times", async () => {
  const fixed = new Date("2021-05-24T21:43:12Z");
  await withSandbox(async (_sandbox, client) => {
    for (let i = 0; i < 3; i++) await client.admin.createTask(taskInit("t", `v${i}`));
    const { tasks } = await client.admin.listTasks({
      id: scope,
      limit: 10,
      sortBy: { key: "created_at", direction: 1 },
    });
    assertEquals(names(tasks), ["t@v0", "t@v1", "t@v2"]);
    const times = tasks.map((task) => timestampToNs(task.closure?.createdAt));
    assert(times[0] < times[1] && times[1] < times[2], String(times));
    assertEquals(times[0], BigInt(fixed.getTime()) * 1_000_000n);
    assertEquals(tasks[0].closure?.compiledTask?.template?.type, "python-task");
  }, { now: () => fixed });
});

Deno.test("GetTask answers NOT_FOUND naming the full id", async () => {
  await withSandbox(async (_sandbox, client) => {
    const err = await adminError(client.admin.getTask({ id: id(ResourceType.TASK, "missing", "v1") }));
    assertEquals(err.status, "NotFound");
    assertEquals(
      err.serverMessage,
      `missing entity of type TASK with identifier project:"${PROJECT}" domain:"${DOMAIN}" name:"missing" version:"v1"`,
    );
  });
});

Deno.test("CreateTask: identical is ALREADY_EXISTS, different is INVALID_ARGUMENT, version is required", async () => {
  await withSandbox(async (sandbox, client) => {
    await client.admin.createTask(taskInit("t", "v1"));
    const same = await adminError(client.admin.createTask(taskInit("t", "v1")));
    assertEquals(same.status, "AlreadyExists");
    const different = await adminError(client.admin.createTask(taskInit("t", "v1", "python:3.13")));
    assertEquals([different.status, different.serverMessage], [
      "InvalidArgument",
      "task with different structure already exists",
    ]);
    const noVersion = await adminError(client.admin.createTask(taskInit("t", "")));
    assertEquals([noVersion.status, noVersion.serverMessage], ["InvalidArgument", "missing version"]);
    assertEquals(names(sandbox.store.tasks()), ["t@v1"]);
    const got = await client.admin.getTask({ id: id(ResourceType.TASK, "t", "v1") });
    const target = got.closure?.compiledTask?.template?.target;
    assertEquals(target?.case === "container" && target.value.image, "python:3.12");
  });
});

Deno.test("CreateWorkflow rejects references to tasks and launch plans that do not exist, naming them", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.store.addTask(taskInit("exists", "v1"));
    const nested = workflowInit("wf", "v1", [
      taskNode("n0", "exists", "v1"),
      {
        id: "n1",
        target: {
          case: "branchNode",
          value: {
            ifElse: {
              case: { thenNode: taskNode("then", "in-branch", "v1") },
              default: { case: "elseNode", value: taskNode("else", "in-else", "v1") },
            },
          },
        },
      },
      { id: "n2", target: { case: "arrayNode", value: { node: taskNode("inner", "in-array", "v1") } } },
      {
        id: "n3",
        target: {
          case: "workflowNode",
          value: { reference: { case: "launchplanRef", value: id(ResourceType.LAUNCH_PLAN, "lp", "v1") } },
        },
      },
    ]);
    // As FlyteAdmin does: the tasks are looked up in the compiler's order (by name here), then the launch plans, and
    // the first missing one is named.
    const missing = async (name: string) => {
      const err = await adminError(client.admin.createWorkflow(nested));
      assertEquals(err.status, "InvalidArgument");
      assert(
        err.serverMessage.startsWith("failed to compile workflow for [resource_type:WORKFLOW "),
        err.serverMessage,
      );
      assert(
        err.serverMessage.includes(
          `with identifier project:"${PROJECT}" domain:"${DOMAIN}" name:"${name}" version:"v1"`,
        ),
        err.serverMessage,
      );
    };
    for (const name of ["in-array", "in-branch", "in-else"]) {
      await missing(name);
      sandbox.store.addTask(taskInit(name, "v1"));
    }
    await missing("lp");
    assertEquals(sandbox.store.workflows(), []);
  });
});

Deno.test("CreateWorkflow resolves sub-workflows from the spec only, as FlyteAdmin does, and checks their nodes", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.store.addTask(taskInit("t", "v1"));
    const subRef = (name: string) => ({
      id: `call-${name}`,
      target: {
        case: "workflowNode" as const,
        value: { reference: { case: "subWorkflowRef" as const, value: id(ResourceType.WORKFLOW, name, "v1") } },
      },
    });
    // A sub-workflow has an interface (empty here), as flytekit always writes one: the compiler refuses a node
    // running one without.
    const inlineSub = {
      id: id(ResourceType.WORKFLOW, "inline", "v1"),
      interface: {},
      nodes: [taskNode("n", "t", "v1")],
    };
    const storedSub = {
      id: id(ResourceType.WORKFLOW, "stored", "v1"),
      interface: {},
      nodes: [taskNode("n", "t", "v1")],
    };
    await client.admin.createWorkflow(workflowInit("stored", "v1", [taskNode("n", "t", "v1")]));
    // A stored workflow is not a sub-workflow: the spec must carry it.
    const notInSpec = await adminError(client.admin.createWorkflow(workflowInit("parent", "v1", [subRef("stored")])));
    assertEquals(notInSpec.status, "InvalidArgument");
    assert(
      notInSpec.serverMessage.includes(
        `Code: WorkflowReferenceNotFound, Node Id: call-stored, Description: Referenced Workflow [resource_type:WORKFLOW project:"${PROJECT}" domain:"${DOMAIN}" name:"stored" version:"v1"] not found.`,
      ),
      notInSpec.serverMessage,
    );
    await client.admin.createWorkflow(
      workflowInit("parent", "v1", [subRef("inline"), subRef("stored")], [inlineSub, storedSub]),
    );
    const parent = await client.admin.getWorkflow({ id: id(ResourceType.WORKFLOW, "parent", "v1") });
    const compiled = parent.closure?.compiledWorkflow;
    // Compiled as Flyte's compiler does: start and end nodes first, each sub-workflow compiled too.
    assertEquals(compiled?.primary?.template?.nodes.map((n) => n.id), [
      "start-node",
      "end-node",
      "call-inline",
      "call-stored",
    ]);
    assertEquals(compiled?.subWorkflows.map((w) => w.template?.id?.name), ["inline", "stored"]);
    assertEquals(
      compiled?.subWorkflows.map((w) => [w.template?.nodes.map((n) => n.id), w.connections?.downstream["n"]?.ids]),
      [[["start-node", "end-node", "n"], ["end-node"]], [["start-node", "end-node", "n"], ["end-node"]]],
    );
    assertEquals(compiled?.tasks.map((t) => t.template?.id?.name), ["t"]);

    const badSub = { id: id(ResourceType.WORKFLOW, "bad", "v1"), nodes: [taskNode("n", "nope", "v1")] };
    // A sub-workflow's tasks are looked up as the workflow's own are.
    const err = await adminError(
      client.admin.createWorkflow(workflowInit("p2", "v1", [subRef("bad"), subRef("absent")], [badSub])),
    );
    assertEquals(err.status, "InvalidArgument");
    assert(
      err.serverMessage.endsWith(
        `missing entity of type TASK with identifier project:"${PROJECT}" domain:"${DOMAIN}" name:"nope" version:"v1"`,
      ),
      err.serverMessage,
    );
  });
});

Deno.test("CreateWorkflow checks the failure node and detects changed structure", async () => {
  await withSandbox(async (_sandbox, client) => {
    const withFailure = workflowInit("wf", "v1");
    withFailure.spec!.template!.failureNode = taskNode("on-failure", "cleanup", "v1");
    const err = await adminError(client.admin.createWorkflow(withFailure));
    assert(err.serverMessage.includes(`name:"cleanup"`), err.serverMessage);
    await client.admin.createWorkflow(workflowInit("wf", "v1"));
    assertEquals((await adminError(client.admin.createWorkflow(workflowInit("wf", "v1")))).status, "AlreadyExists");
    const changed = await adminError(client.admin.createWorkflow(workflowInit("wf", "v1", undefined, [{ nodes: [] }])));
    assertEquals(changed.serverMessage, "workflow with different structure already exists");
  });
});

Deno.test("ListWorkflows returns compiled closures", async () => {
  await withSandbox(async (sandbox, client) => {
    for (const version of ["v1", "v2"]) sandbox.store.addWorkflow(workflowInit("wf", version));
    const { workflows, token } = await client.admin.listWorkflows({
      id: scope,
      limit: 1,
      filters: "eq(workflow.version,v1)",
    });
    assertEquals(token, "1", "a full page has a next token, as FlyteAdmin's (the next page is empty)");
    assertEquals(workflows.map((w) => w.closure?.compiledWorkflow?.primary?.template?.id?.version), ["v1"]);
    assert(workflows[0].closure?.createdAt);
  });
});

Deno.test("CreateLaunchPlan needs its workflow; launch plans start INACTIVE", async () => {
  await withSandbox(async (sandbox, client) => {
    const missing = await adminError(client.admin.createLaunchPlan(launchPlanInit("wf", "v1")));
    assertEquals(missing.status, "NotFound");
    assert(missing.serverMessage.includes(`type WORKFLOW`) && missing.serverMessage.includes(`name:"wf"`));
    sandbox.store.addWorkflow(workflowInit("wf", "v1"));
    await client.admin.createLaunchPlan(launchPlanInit("wf", "v1"));
    const lp = await client.admin.getLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wf", "v1") });
    assertEquals(lp.closure?.state, LaunchPlanState.INACTIVE);
    assertEquals(lp.spec?.workflowId?.name, "wf");
    const again = await adminError(client.admin.createLaunchPlan(launchPlanInit("wf", "v1")));
    assertEquals(again.status, "AlreadyExists");
  });
});

Deno.test("UpdateLaunchPlan activates one version at a time", async () => {
  await withSandbox(async (sandbox, client) => {
    for (const version of ["v1", "v2"]) {
      sandbox.store.addWorkflow(workflowInit("wf", version));
      sandbox.store.addLaunchPlan(launchPlanInit("wf", version));
    }
    const named = { ...scope, name: "wf" };
    assertEquals((await adminError(client.admin.getActiveLaunchPlan({ id: named }))).status, "NotFound");
    await client.admin.updateLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "wf", "v1"),
      state: LaunchPlanState.ACTIVE,
    });
    assertEquals((await client.admin.getActiveLaunchPlan({ id: named })).id?.version, "v1");
    await client.admin.updateLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "wf", "v2"),
      state: LaunchPlanState.ACTIVE,
    });
    const { launchPlans } = await client.admin.listLaunchPlans({
      id: scope,
      limit: 5,
      sortBy: { key: "version", direction: Sort_Direction.ASCENDING },
    });
    assertEquals(launchPlans.map((lp) => lp.closure?.state), [LaunchPlanState.INACTIVE, LaunchPlanState.ACTIVE]);
    const absent = client.admin.updateLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wf", "v3"), state: 1 });
    assertEquals((await adminError(absent)).status, "NotFound");
  });
});

Deno.test("ListTaskIds lists each name once", async () => {
  await withSandbox(async (sandbox, client) => {
    seedTasks(sandbox);
    const { entities, token } = await client.admin.listTaskIds({
      ...scope,
      limit: 2,
      sortBy: { key: "name", direction: 1 },
    });
    assertEquals([entities.map((e) => e.name), token], [["a", "b"], "2"]);
  });
});

Deno.test("identifiers of the wrong resource type are refused as FlyteAdmin's ValidateIdentifier refuses them", async () => {
  await withSandbox(async (sandbox, client) => {
    const taskId = id(ResourceType.TASK, "t", "v1");
    const workflowId = id(ResourceType.WORKFLOW, "wf", "v1");
    const refusal = async (promise: Promise<unknown>) => {
      const err = await adminError(promise);
      return [err.status, err.serverMessage];
    };
    assertEquals(await refusal(client.admin.createWorkflow({ id: taskId, spec: { template: { id: taskId } } })), [
      "InvalidArgument",
      'unexpected resource type task for identifier [resource_type:TASK project:"flytesnacks" domain:"development" ' +
      'name:"t" version:"v1"], expected workflow instead',
    ]);
    sandbox.store.addWorkflow(workflowInit("wf", "v1"));
    // A launch plan's workflow identifier is checked first, then its own.
    assertEquals(
      await refusal(
        client.admin.createLaunchPlan({ id: taskId, spec: { workflowId: { ...workflowId, resourceType: 0 } } }),
      ),
      [
        "InvalidArgument",
        'unexpected resource type unspecified for identifier [project:"flytesnacks" domain:"development" name:"wf" ' +
        'version:"v1"], expected workflow instead',
      ],
    );
    assertEquals(await refusal(client.admin.createLaunchPlan({ id: taskId, spec: { workflowId } })), [
      "InvalidArgument",
      'unexpected resource type task for identifier [resource_type:TASK project:"flytesnacks" domain:"development" ' +
      'name:"t" version:"v1"], expected launch_plan instead',
    ]);
    assertEquals((await refusal(client.admin.getLaunchPlan({ id: workflowId })))[0], "InvalidArgument");
    assertEquals(
      (await refusal(client.admin.getWorkflow({ id: { ...workflowId, resourceType: ResourceType.LAUNCH_PLAN } })))[0],
      "InvalidArgument",
    );
    assertEquals(sandbox.store.launchPlans().length, 0);
  });
});

Deno.test("UpdateLaunchPlan refuses a state that is neither, and a deactivation of an id that is not a launch plan's", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.store.addWorkflow(workflowInit("wf", "v1"));
    sandbox.store.addLaunchPlan(launchPlanInit("wf", "v1"));
    const unknown = await adminError(
      client.admin.updateLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wf", "v1"), state: 7 as LaunchPlanState }),
    );
    assertEquals([unknown.status, unknown.serverMessage], [
      "InvalidArgument",
      "Unrecognized launch plan state 7 for update for launch plan " +
      '[resource_type:LAUNCH_PLAN project:"flytesnacks" domain:"development" name:"wf" version:"v1"]',
    ]);
    const task = await adminError(
      client.admin.updateLaunchPlan({ id: id(ResourceType.TASK, "wf", "v1"), state: LaunchPlanState.INACTIVE }),
    );
    assertEquals(task.status, "InvalidArgument");
    assert(task.serverMessage.startsWith("unexpected resource type task for identifier"), task.serverMessage);
    // An activation looks the version up as FlyteAdmin's database does, which drops a field missing: it finds v1.
    await client.admin.updateLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wf", ""), state: LaunchPlanState.ACTIVE });
    const lp = await client.admin.getLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wf", "v1") });
    assertEquals(lp.closure?.state, LaunchPlanState.ACTIVE);
  });
});

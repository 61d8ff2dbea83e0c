import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { NamedEntityState, Sort_Direction } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { EventFailureReasonSchema } from "../../proto/gen/flyteidl/admin/event_pb.ts";
import { ExecutionMetadata_ExecutionMode, ExecutionState } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import {
  NodeExecution_Phase,
  TaskExecution_Phase,
  WorkflowExecution_Phase,
} from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { TypedInterfaceSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "./mod.ts";
import { timestampToNs } from "./time.ts";
import { datetime, int, type LiteralInit, simple, str } from "../_test_literals.ts";
import { DOMAIN, fromWorkflowInputs, id, PROJECT, promiseBinding, taskNode, valueBindings } from "./_test_helpers.ts";

type AdminClient = Client<typeof AdminService>;

/**
 * Runs `fn` with a fresh sandbox and Connect's gRPC client of the full AdminService (fctl's own client has only
 * the methods fctl calls so far).
 */
async function withSandbox(
  fn: (sandbox: Sandbox, client: AdminClient) => Promise<void>,
  options?: SandboxOptions,
): Promise<void> {
  const sandbox = await startSandbox(options);
  const sessionManager = new Http2SessionManager(sandbox.endpoint);
  try {
    await fn(sandbox, createClient(AdminService, createGrpcTransport({ baseUrl: sandbox.endpoint, sessionManager })));
  } finally {
    sessionManager.abort();
    await sandbox.close();
  }
}

/** The status name and server message a call fails with (fails the test when it succeeds). */
async function adminError(promise: Promise<unknown>): Promise<{ status: string; serverMessage: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConnectError) {
      const name = Code[err.code];
      return { status: name[0].toUpperCase() + name.slice(1), serverMessage: err.rawMessage };
    }
    throw err;
  }
  throw new Error("expected the call to fail");
}

const START = Date.parse("2026-03-01T00:00:00Z");
const scope = { project: PROJECT, domain: DOMAIN };

/** A clock the test moves: `clock.now` for the sandbox, `clock.advance(ms)` to move it. */
function testClock() {
  let ms = START;
  return { now: () => new Date(ms), advance: (by: number) => void (ms += by), ms: () => ms };
}

const integer = simple(SimpleType.INTEGER);
const string = simple(SimpleType.STRING);

/** x: int, y: int (defaults to 5 in the launch plan), z: string (fixed); returns o: string. */
const INTERFACE: MessageInitShape<typeof TypedInterfaceSchema> = {
  inputs: { variables: { x: { type: integer }, y: { type: integer }, z: { type: string } } },
  outputs: { variables: { o: { type: string } } },
};

/** Registers task `double` (interface above), workflow `wf` (n0, n1 run it) and launch plan `wf`. */
function seed(sandbox: Sandbox): void {
  const store = sandbox.store;
  store.addTask({
    id: id(ResourceType.TASK, "double", "v1"),
    spec: {
      template: {
        id: id(ResourceType.TASK, "double", "v1"),
        type: "python-task",
        metadata: { runtime: { version: "1.16.1", flavor: "python" } },
        interface: INTERFACE,
        target: { case: "container", value: { image: "python:3.12", args: ["pyflyte-execute"] } },
      },
    },
  });
  const wfId = id(ResourceType.WORKFLOW, "wf", "v1");
  store.addWorkflow({
    id: wfId,
    spec: {
      template: {
        id: wfId,
        interface: INTERFACE,
        nodes: [
          taskNode("n0", "double", "v1", fromWorkflowInputs("x", "y", "z")),
          taskNode("n1", "double", "v1", fromWorkflowInputs("x", "y", "z")),
        ],
        outputs: [promiseBinding("o", "n1")],
      },
    },
  });
  store.addLaunchPlan({
    id: id(ResourceType.LAUNCH_PLAN, "wf", "v1"),
    spec: {
      workflowId: wfId,
      defaultInputs: { parameters: { y: { var: { type: integer }, behavior: { case: "default", value: int(5) } } } },
      fixedInputs: { literals: { z: str("fixed") } },
    },
  });
}

const launchPlan = id(ResourceType.LAUNCH_PLAN, "wf", "v1");

function createRequest(name: string, inputs: Record<string, LiteralInit> = { x: int(1) }) {
  return { ...scope, name, spec: { launchPlan }, inputs: { literals: inputs } };
}

async function phaseOf(client: AdminClient, name: string): Promise<string> {
  const execution = await client.getExecution({ id: { ...scope, name } });
  return WorkflowExecution_Phase[execution.closure!.phase];
}

Deno.test("CreateExecution validates the request as FlyteAdmin does", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const failure = async (request: Parameters<AdminClient["createExecution"]>[0]) => {
      const err = await adminError(client.createExecution(request));
      return [err.status, err.serverMessage];
    };
    assertEquals(await failure({ ...createRequest("a"), project: "" }), ["InvalidArgument", "missing project"]);
    assertEquals(await failure(createRequest("1abc")), [
      "InvalidArgument",
      "invalid name format: 1abc, does not match regex '^[a-z][a-z\\-0-9]*$'",
    ]);
    assertEquals(await failure(createRequest("x".repeat(64))), [
      "InvalidArgument",
      `size of name exceeded length 63 : ${"x".repeat(64)}`,
    ]);
    // Go's len counts bytes: a name is measured in UTF-8, before and (a Kelvin sign lowercases to one byte) after
    // lowercasing it, the second refusal printing the request.
    assertEquals(await failure(createRequest("é".repeat(32))), [
      "InvalidArgument",
      `size of name exceeded length 63 : ${"é".repeat(32)}`,
    ]);
    const kelvin = "\u212a".repeat(22);
    const long = await failure({ ...scope, name: kelvin });
    assertEquals(long, [
      "InvalidArgument",
      `name for ExecutionCreateRequest [project:"${PROJECT}" domain:"${DOMAIN}" name:"${kelvin}"] exceeded allowed length 63`,
    ]);
    assertEquals(await failure({ ...scope, name: "a" }), ["InvalidArgument", "missing spec"]);
    assertEquals(await failure({ ...scope, spec: { launchPlan: { ...launchPlan, version: "" } } }), [
      "InvalidArgument",
      "missing version",
    ]);
    const workflowRef = await failure({
      ...scope,
      spec: { launchPlan: { ...launchPlan, resourceType: ResourceType.WORKFLOW } },
    });
    assertEquals(workflowRef[0], "InvalidArgument");
    assert(String(workflowRef[1]).startsWith("Invalid reference entity resource type [WORKFLOW]"), workflowRef[1]);
    const missingPlan = await failure({ ...scope, spec: { launchPlan: { ...launchPlan, name: "nope" } } });
    assertEquals(missingPlan[0], "NotFound");
    assertEquals(await failure(createRequest("a", { x: int(1), w: int(2) })), ["InvalidArgument", "invalid input w"]);
    assertEquals(await failure(createRequest("a", {})), ["InvalidArgument", "expected_inputs x missing"]);
    assertEquals(await failure(createRequest("a", { x: str("one") })), [
      "InvalidArgument",
      "invalid x input wrong type. Expected simple:INTEGER, but got simple:STRING",
    ]);
    // A fixed input is not among the expected inputs, so FlyteAdmin refuses it as an unknown input.
    assertEquals(await failure(createRequest("a", { x: int(1), z: str("mine") })), [
      "InvalidArgument",
      "invalid input z",
    ]);
    // The inputs and notifications are checked before the launch plan is looked up, as FlyteAdmin's validator does.
    const unnamed = { ...createRequest("a"), spec: { launchPlan: { ...launchPlan, name: "nope" } } };
    assertEquals(await failure({ ...unnamed, inputs: { literals: { x: {} } } }), [
      "InvalidArgument",
      "missing valid literal in inputs x",
    ]);
    assertEquals(
      await failure({
        ...unnamed,
        spec: {
          ...unnamed.spec,
          notificationOverrides: {
            case: "notifications",
            value: { notifications: [{ type: { case: "email", value: { recipientsEmail: [""] } } }] },
          },
        },
      }),
      ["InvalidArgument", "missing recipient"],
    );
    // A datetime input is a valid Timestamp (FlyteAdmin's validateLiteralMap), checked before the launch plan is.
    assertEquals(await failure({ ...unnamed, inputs: { literals: { x: datetime(253_402_300_800n) } } }), [
      "InvalidArgument",
      "proto: timestamp (seconds:253402300800) after 9999-12-31",
    ]);
    // ...and its check ends the map's: an entry after it (in the sandbox's name order) is not looked at.
    const afterDatetime = { ...createRequest("a", { a: datetime(0n), x: {} }), spec: unnamed.spec };
    assertEquals((await adminError(client.createExecution(afterDatetime))).status, "NotFound");
    assertEquals(sandbox.store.executions.summaries().length, 0);
  });
});

Deno.test("CreateExecution fills defaults and fixed inputs, generates a name, and refuses a duplicate", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const { id: generated } = await client.createExecution(createRequest(""));
    assert(/^a[bcdfghjklmnpqrstvwxz2456789]{19}$/.test(generated!.name), generated!.name);
    const { id: named } = await client.createExecution(createRequest("Run-1"));
    assertEquals(named?.name, "Run-1");
    const data = await client.getExecutionData({ id: named });
    const literals = data.fullInputs!.literals;
    assertEquals(Object.keys(literals).sort(), ["x", "y", "z"]);
    assertEquals(
      literals.y.value.case === "scalar" && literals.y.value.value.value.case === "primitive"
        ? literals.y.value.value.value.value.value.value
        : undefined,
      5n,
    );
    const execution = await client.getExecution({ id: named });
    // FlyteAdmin resolves the max parallelism for the run, but keeps the spec as the request gave it.
    assertEquals(execution.spec?.maxParallelism, 0);
    assertEquals(execution.spec?.metadata?.systemMetadata?.namespace, `${PROJECT}-${DOMAIN}`);
    const duplicate = await adminError(client.createExecution(createRequest("Run-1")));
    assertEquals(duplicate.status, "AlreadyExists");
  });
});

Deno.test("CreateExecution of a task runs it through the launch plan FlyteAdmin makes for it", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const task = id(ResourceType.TASK, "double", "v1");
    const missing = await adminError(
      client.createExecution({ ...scope, name: "t1", spec: { launchPlan: task }, inputs: { literals: { x: int(1) } } }),
    );
    assertEquals([missing.status, missing.serverMessage], ["InvalidArgument", "expected_inputs y missing"]);
    const all = { x: int(1), y: int(2), z: str("s") };
    await client.createExecution({ ...scope, name: "t1", spec: { launchPlan: task }, inputs: { literals: all } });
    const workflow = await client.getWorkflow({ id: id(ResourceType.WORKFLOW, ".flytegen.double", "v1") });
    const primary = workflow.closure?.compiledWorkflow?.primary;
    assertEquals(primary?.template?.nodes.map((node) => node.id), ["start-node", "end-node", "double"]);
    assertEquals(primary?.connections?.upstream["end-node"]?.ids, ["double"]);
    const execution = await client.getExecution({ id: { ...scope, name: "t1" } });
    assertEquals(execution.closure?.workflowId?.name, ".flytegen.double");
  });
});

Deno.test("an execution is QUEUED, RUNNING, then SUCCEEDED on the sandbox's clock, with its times and outputs", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.executions.plan({ launchPlan: "wf" }, {
      startAfter: 100,
      after: 1100,
      outputs: { literals: { o: str("done") } },
    });
    await client.createExecution(createRequest("run"));
    assertEquals(await phaseOf(client, "run"), "QUEUED");
    clock.advance(100);
    assertEquals(await phaseOf(client, "run"), "RUNNING");
    const running = await client.getExecution({ id: { ...scope, name: "run" } });
    assertEquals(timestampToNs(running.closure!.startedAt), BigInt(START + 100) * 1_000_000n);
    assertEquals(running.closure?.outputResult.case, undefined);
    clock.advance(5000);
    const done = await client.getExecution({ id: { ...scope, name: "run" } });
    assertEquals(WorkflowExecution_Phase[done.closure!.phase], "SUCCEEDED");
    assertEquals(done.closure?.duration?.seconds, 1n);
    // Each transition is dated when it was due, not when it was read.
    assertEquals(timestampToNs(done.closure!.updatedAt), BigInt(START + 1100) * 1_000_000n);
    const data = await client.getExecutionData({ id: { ...scope, name: "run" } });
    const output = data.fullOutputs!.literals.o.value;
    assertEquals(
      output.case === "scalar" && output.value.value.case === "primitive"
        ? output.value.value.value.value.value
        : undefined,
      "done",
    );
  }, { now: clock.now });
});

Deno.test("a planned failure reports its message on the execution, its last node and task attempts", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.executions.plan({ execution: "bad" }, {
      outcome: "FAILED",
      after: 400,
      message: "OOMKilled",
      attempts: 2,
    });
    await client.createExecution(createRequest("bad"));
    await client.createExecution(createRequest("good"));
    clock.advance(2000);
    const long = `x${"é".repeat(60)}`;
    sandbox.store.executions.plan({ execution: "long" }, { outcome: "FAILED", after: 400, message: long });
    await client.createExecution(createRequest("long"));
    clock.advance(2000);
    const messages = async (filters: string) =>
      (await client.listExecutions({ id: scope, limit: 10, filters })).executions.map((e) =>
        e.closure?.outputResult.case === "error" ? e.closure.outputResult.value.message : ""
      );
    // ListExecutions trims an error's message to 100 bytes, a split character left out; GetExecution does not.
    assertEquals(await messages("eq(execution_name,long)"), [`x${"é".repeat(49)}`]);
    const full = await client.getExecution({ id: { ...scope, name: "long" } });
    assertEquals(full.closure?.outputResult.case === "error" ? full.closure.outputResult.value.message : "", long);
    const bad = await client.getExecution({ id: { ...scope, name: "bad" } });
    assertEquals(WorkflowExecution_Phase[bad.closure!.phase], "FAILED");
    assertEquals(bad.closure?.outputResult.case === "error" ? bad.closure.outputResult.value.message : "", "OOMKilled");
    assertEquals(await phaseOf(client, "good"), "SUCCEEDED");
    const nodes = await client.listNodeExecutions({ workflowExecutionId: { ...scope, name: "bad" }, limit: 10 });
    assertEquals(
      nodes.nodeExecutions.map((node) => `${node.id?.nodeId}:${NodeExecution_Phase[node.closure!.phase]}`),
      ["start-node:SUCCEEDED", "n0:SUCCEEDED", "n1:FAILED"],
    );
    const attempts = await client.listTaskExecutions({
      nodeExecutionId: { executionId: { ...scope, name: "bad" }, nodeId: "n1" },
      limit: 10,
    });
    assertEquals(
      attempts.taskExecutions.map((task) => [task.id?.retryAttempt, TaskExecution_Phase[task.closure!.phase]]),
      [[0, "FAILED"], [1, "FAILED"]],
    );
    const last = attempts.taskExecutions[1].closure!;
    assertEquals(last.outputResult.case === "error" ? last.outputResult.value.message : "", "OOMKilled");
    assertEquals(last.logs.map((log) => log.name), ["Kubernetes Logs (User)"]);
  }, { now: clock.now });
});

Deno.test("node executions follow the workflow: sub-workflow children under unique_parent_id, end-node on success", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const subId = id(ResourceType.WORKFLOW, "sub", "v1");
    const inputs = valueBindings({ x: int(1), y: int(2), z: str("s") });
    const outerId = id(ResourceType.WORKFLOW, "outer", "v1");
    sandbox.store.addWorkflow({
      id: outerId,
      spec: {
        template: {
          id: outerId,
          nodes: [{
            id: "s0",
            target: { case: "workflowNode", value: { reference: { case: "subWorkflowRef", value: subId } } },
          }],
        },
        subWorkflows: [{
          id: subId,
          interface: {},
          nodes: [taskNode("a", "double", "v1", inputs), taskNode("b", "double", "v1", inputs)],
        }],
      },
    });
    sandbox.store.addLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "outer", "v1"), spec: { workflowId: outerId } });
    await client.createExecution({
      ...scope,
      name: "nested",
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "outer", "v1") },
    });
    const executionId = { ...scope, name: "nested" };
    clock.advance(600);
    const midway = await client.listNodeExecutions({
      workflowExecutionId: executionId,
      limit: 10,
      uniqueParentId: "s0",
    });
    assertEquals(
      midway.nodeExecutions.map((node) => `${node.id?.nodeId}:${NodeExecution_Phase[node.closure!.phase]}`),
      ["s0-0-a:SUCCEEDED", "s0-0-b:RUNNING"],
    );
    clock.advance(1000);
    const top = await client.listNodeExecutions({ workflowExecutionId: executionId, limit: 10 });
    assertEquals(top.nodeExecutions.map((node) => node.id?.nodeId), ["start-node", "s0", "end-node"]);
    assertEquals(top.nodeExecutions[1].metadata?.isParentNode, true);
    const child = await client.getNodeExecution({ id: { executionId, nodeId: "s0-0-b" } });
    assertEquals(child.metadata?.specNodeId, "b");
    const unknown = await adminError(
      client.listNodeExecutions({ workflowExecutionId: executionId, limit: 10, uniqueParentId: "zz" }),
    );
    assertEquals(unknown.status, "NotFound");
  }, { now: clock.now });
});

Deno.test("TerminateExecution aborts with its cause (ABORTING, then ABORTED) and refuses a finished execution", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.executions.plan({ execution: "stuck" }, { outcome: "never", abortAfter: 200 });
    sandbox.store.executions.plan("default", { after: 10 });
    await client.createExecution(createRequest("stuck"));
    await client.createExecution(createRequest("quick"));
    clock.advance(60_000);
    assertEquals(await phaseOf(client, "stuck"), "RUNNING");
    await client.terminateExecution({ id: { ...scope, name: "stuck" }, cause: "no longer needed" });
    const aborting = await client.getExecution({ id: { ...scope, name: "stuck" } });
    assertEquals(WorkflowExecution_Phase[aborting.closure!.phase], "ABORTING");
    assertEquals(
      aborting.closure?.outputResult.case === "abortMetadata" ? aborting.closure.outputResult.value.cause : "",
      "no longer needed",
    );
    clock.advance(200);
    assertEquals(await phaseOf(client, "stuck"), "ABORTED");
    const nodes = await client.listNodeExecutions({ workflowExecutionId: { ...scope, name: "stuck" }, limit: 10 });
    assertEquals(nodes.nodeExecutions.map((node) => NodeExecution_Phase[node.closure!.phase]), [
      "SUCCEEDED",
      "ABORTED",
    ]);
    const finished = await adminError(client.terminateExecution({ id: { ...scope, name: "quick" }, cause: "x" }));
    assertEquals([finished.status, finished.serverMessage], [
      "FailedPrecondition",
      "Cannot abort an already terminated workflow execution",
    ]);
    // With FlyteAdmin's detail: the phase the execution is already in.
    const detail = await client.terminateExecution({ id: { ...scope, name: "quick" }, cause: "x" }).then(
      () => undefined,
      (err) => ConnectError.from(err).findDetails(EventFailureReasonSchema)[0]?.reason,
    );
    assertEquals(detail?.case === "alreadyInTerminalState" ? detail.value.currentPhase : detail, "SUCCEEDED");
    const missing = await adminError(client.terminateExecution({ id: { ...scope, name: "ghost" }, cause: "x" }));
    assertEquals(missing.status, "NotFound");
  }, { now: clock.now });
});

Deno.test("ListExecutions pages, filters on FlyteAdmin's columns and sorts as asked", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.executions.plan({ execution: "e2" }, { outcome: "FAILED", after: 10 });
    for (const name of ["e1", "e2", "e3"]) {
      await client.createExecution(createRequest(name));
      clock.advance(1000);
    }
    clock.advance(5000);
    const names = async (request: { filters?: string; sortBy?: { key: string; direction: Sort_Direction } }) =>
      (await client.listExecutions({ id: scope, limit: 10, ...request })).executions.map((e) => e.id?.name);
    assertEquals(await names({}), ["e1", "e2", "e3"]);
    assertEquals(await names({ filters: "eq(execution.phase,FAILED)" }), ["e2"]);
    assertEquals(await names({ filters: "value_in(phase,SUCCEEDED;FAILED)+ne(execution_name,e1)" }), ["e2", "e3"]);
    assertEquals(await names({ filters: "eq(launch_plan.name,wf)+gte(execution_created_at,2026-03-01T00:00:01Z)" }), [
      "e2",
      "e3",
    ]);
    // Postgres's time words, on the sandbox's clock (2026-03-01T00:00:08Z), not the machine's.
    assertEquals(await names({ filters: "gte(execution_created_at,today)+lt(execution_created_at,now)" }), [
      "e1",
      "e2",
      "e3",
    ]);
    assertEquals(await names({ filters: "lt(execution_created_at,yesterday)" }), []);
    assertEquals(await names({ sortBy: { key: "created_at", direction: Sort_Direction.DESCENDING } }), [
      "e3",
      "e2",
      "e1",
    ]);
    const byName = await adminError(client.listExecutions({ id: scope, limit: 10, filters: "eq(execution.name,e1)" }));
    assertEquals([byName.status, byName.serverMessage], ["InvalidArgument", "'e.name' is invalid filter"]);
    const sortKey = await adminError(client.listExecutions({ id: scope, limit: 10, sortBy: { key: "name" } }));
    assertEquals([sortKey.status, sortKey.serverMessage], ["InvalidArgument", "invalid sort key 'name'"]);
    const limit = await adminError(client.listExecutions({ id: scope, limit: 0 }));
    assertEquals([limit.status, limit.serverMessage], ["InvalidArgument", "invalid value for limit"]);
    const first = await client.listExecutions({ id: scope, limit: 2 });
    assertEquals([first.executions.map((e) => e.id?.name), first.token], [["e1", "e2"], "2"]);
    const second = await client.listExecutions({ id: scope, limit: 2, token: first.token });
    assertEquals([second.executions.map((e) => e.id?.name), second.token], [["e3"], ""]);
    const token = await adminError(client.listExecutions({ id: scope, limit: 2, token: "x" }));
    assertEquals(token.serverMessage, "invalid pagination token x for ListExecutions");
  }, { now: clock.now });
});

Deno.test("UpdateExecution archives: archived executions are hidden unless a filter names state", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    await client.createExecution(createRequest("keep"));
    await client.createExecution(createRequest("old"));
    await client.updateExecution({ id: { ...scope, name: "old" }, state: ExecutionState.EXECUTION_ARCHIVED });
    const names = async (filters = "") =>
      (await client.listExecutions({ id: scope, limit: 10, filters })).executions.map((e) => e.id?.name);
    assertEquals(await names(), ["keep"]);
    assertEquals(await names("eq(state,1)"), ["old"]);
    assertEquals(await names("value_in(execution.state,0;1)"), ["keep", "old"]);
    const old = await client.getExecution({ id: { ...scope, name: "old" } });
    assertEquals(old.closure?.stateChangeDetails?.state, ExecutionState.EXECUTION_ARCHIVED);
    const missing = await adminError(client.updateExecution({ id: { ...scope, name: "" } }));
    assertEquals([missing.status, missing.serverMessage], ["InvalidArgument", "missing name"]);
  });
});

Deno.test("CreateExecution answers as FlyteAdmin's recovered panic (INTERNAL, no message) where the compiler would dereference a nil type", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    // A union literal without its type: the compiler infers a union of one nil variant, and casting that nil to an
    // integer dereferences it.
    const untyped = {
      value: { case: "scalar" as const, value: { value: { case: "union" as const, value: { value: int(1) } } } },
    };
    const refused = await adminError(client.createExecution(createRequest("untyped", { x: untyped })));
    assertEquals([refused.status, refused.serverMessage], ["Internal", ""]);
  });
});

Deno.test("GetExecutionData and RelaunchExecution find an execution by the parts of an identifier given, and NOT_FOUND prints identifiers, as FlyteAdmin does", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    await client.createExecution(createRequest("first", { x: int(7) }));
    await client.createExecution(createRequest("second", { x: int(8) }));
    // Nothing validates these identifiers, and FlyteAdmin's lookup drops the empty name: the oldest match is found.
    const data = await client.getExecutionData({ id: scope });
    const x = data.fullInputs!.literals.x.value;
    assertEquals(x.case === "scalar" && x.value.value.case === "primitive" ? x.value.value.value.value.value : 0n, 7n);
    // Outputs not written yet are an empty map, and the URL blobs are there, empty, as FlyteAdmin sends them.
    assertEquals([data.fullOutputs?.literals, data.inputs?.url, data.outputs?.url], [{}, "", ""]);
    const { id: again } = await client.relaunchExecution({ id: scope, name: "again" });
    assertEquals((await client.getExecution({ id: again })).spec?.metadata?.referenceExecution?.name, "first");
    // Its source execution is the one relaunched (row 1); the others have none (0), and none ran a task alone (0).
    const names = async (filters: string) =>
      (await client.listExecutions({ id: scope, limit: 10, filters })).executions.map((e) => e.id?.name);
    assertEquals(await names("eq(source_execution_id,1)"), ["again"]);
    assertEquals(await names("eq(source_execution_id,0)+eq(task_id,0)+eq(launch_plan_id,1)"), ["first", "second"]);
    // NOT_FOUND prints the identifier as Go does, without its empty fields.
    const missing = await adminError(client.recoverExecution({ id: { project: PROJECT, domain: "staging" } }));
    assertEquals([missing.status, missing.serverMessage], [
      "NotFound",
      `missing entity of type execution with identifier project:"${PROJECT}" domain:"staging"`,
    ]);
    // A node execution's identifier as Go prints it: node_id first, as declared.
    const node = await adminError(
      client.getNodeExecution({ id: { nodeId: "n9", executionId: { ...scope, name: "first" } } }),
    );
    assertEquals([node.status, node.serverMessage], [
      "NotFound",
      `missing entity of type node execution with identifier node_id:"n9" execution_id:{project:"${PROJECT}" ` +
      `domain:"${DOMAIN}" name:"first"}`,
    ]);
  });
});

Deno.test("CreateExecution launched by a node of another: the node execution must exist, and the child is one deeper", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    await client.createExecution(createRequest("parent"));
    const child = (nodeId: string) => ({
      ...createRequest("child"),
      spec: { launchPlan, metadata: { parentNodeExecution: { nodeId, executionId: { ...scope, name: "parent" } } } },
    });
    const missing = await adminError(client.createExecution(child("nope")));
    assertEquals([missing.status, missing.serverMessage], [
      "NotFound",
      `missing entity of type node execution with identifier node_id:"nope" execution_id:{project:"${PROJECT}" ` +
      `domain:"${DOMAIN}" name:"parent"}`,
    ]);
    await client.createExecution(child("start-node"));
    const created = await client.getExecution({ id: { ...scope, name: "child" } });
    assertEquals(created.spec?.metadata?.nesting, 1);
  });
});

Deno.test("an execution launched by a node holds that node execution's row id in parent_node_execution_id", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    // Another execution first, so the launching node's row is not the first one.
    await client.createExecution(createRequest("other"));
    await client.createExecution(createRequest("parent"));
    const parentId = { ...scope, name: "parent" };
    // The launching node's row id, as ListNodeExecutions' `id` column reads it.
    const nodeAt = async (rowId: number) =>
      (await client.listNodeExecutions({ workflowExecutionId: parentId, limit: 10, filters: `eq(id,${rowId})` }))
        .nodeExecutions.map((n) => n.id?.nodeId);
    let rowId = 1;
    while (rowId < 50 && (await nodeAt(rowId))[0] !== "start-node") rowId++;
    assert(rowId > 1 && rowId < 50, `the start node's row id: ${rowId}`);
    await client.createExecution({
      ...createRequest("child"),
      spec: { launchPlan, metadata: { parentNodeExecution: { nodeId: "start-node", executionId: parentId } } },
    });
    const names = async (filters: string, key?: string) =>
      (await client.listExecutions({
        id: scope,
        limit: 10,
        filters,
        sortBy: key ? { key, direction: Sort_Direction.ASCENDING } : undefined,
      })).executions.map((e) => e.id?.name);
    assertEquals(await names(`eq(parent_node_execution_id,${rowId})`), ["child"]);
    assertEquals(await names("eq(parent_node_execution_id,0)", "created_at"), ["other", "parent"]);
    assertEquals((await names("", "parent_node_execution_id")).at(-1), "child");
  });
});

Deno.test("an execution's closure records its notifications: the request's, none when it disables all, else the launch plan's", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const email = (to: string) => ({
      phases: [WorkflowExecution_Phase.FAILED],
      type: { case: "email" as const, value: { recipientsEmail: [to] } },
    });
    sandbox.store.addLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "noisy", "v1"),
      spec: {
        workflowId: id(ResourceType.WORKFLOW, "wf", "v1"),
        entityMetadata: { notifications: [email("plan@example.com")] },
        defaultInputs: { parameters: { y: { var: { type: integer }, behavior: { case: "default", value: int(5) } } } },
        fixedInputs: { literals: { z: str("fixed") } },
      },
    });
    const noisy = id(ResourceType.LAUNCH_PLAN, "noisy", "v1");
    const recipients = async (name: string, spec: Record<string, unknown>) => {
      await client.createExecution({ ...createRequest(name), spec: { launchPlan: noisy, ...spec } });
      const execution = await client.getExecution({ id: { ...scope, name } });
      return execution.closure?.notifications.map((n) => n.type.value?.recipientsEmail[0]);
    };
    assertEquals(await recipients("plan", {}), ["plan@example.com"]);
    assertEquals(
      await recipients("mine", {
        notificationOverrides: { case: "notifications", value: { notifications: [email("me@example.com")] } },
      }),
      ["me@example.com"],
    );
    assertEquals(await recipients("quiet", { notificationOverrides: { case: "disableAll", value: true } }), []);
  });
});

Deno.test("ListExecutions filters on the execution's tags (its labels and tags), joined as FlyteAdmin joins them", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const tagged = (name: string, labels: Record<string, string>, tags: string[] = []) =>
      client.createExecution({ ...createRequest(name), spec: { launchPlan, labels: { values: labels }, tags } });
    await tagged("a", { team: "ml" }, ["nightly"]);
    await tagged("b", { team: "data" });
    await tagged("c", {});
    const names = async (filters: string) =>
      (await client.listExecutions({ id: scope, limit: 10, filters })).executions.map((e) => e.id?.name);
    assertEquals(await names("eq(execution_tag.key,team)+eq(execution_tag.value,ml)"), ["a"]);
    assertEquals(await names("eq(execution_tag.key,team)"), ["a", "b"]);
    // An admin tag's name is an execution tag's key.
    assertEquals(await names("eq(admin_tag.name,nightly)"), ["a"]);
    // One row per joined tag, as the database gives them.
    assertEquals(await names("ne(execution_tag.key,x)"), ["a", "a", "b"]);
    const column = await adminError(
      client.listExecutions({ id: scope, limit: 10, filters: "eq(execution_tag.name,a)" }),
    );
    assertEquals([column.status, column.serverMessage], ["InvalidArgument", "'et.name' is invalid filter"]);
  });
});

Deno.test("an execution's spec keeps the security context FlyteAdmin resolves: one naming someone to run as, else the auth role's", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.addLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "as-sa", "v1"),
      spec: {
        workflowId: id(ResourceType.WORKFLOW, "wf", "v1"),
        defaultInputs: { parameters: { y: { var: { type: integer }, behavior: { case: "default", value: int(5) } } } },
        fixedInputs: { literals: { z: str("fixed") } },
        securityContext: { runAs: { k8sServiceAccount: "plan-sa" } },
      },
    });
    const runAs = async (name: string, plan: string, spec: Record<string, unknown>) => {
      await client.createExecution({
        ...createRequest(name),
        spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, plan, "v1"), ...spec },
      });
      const runAs = (await client.getExecution({ id: { ...scope, name } })).spec?.securityContext?.runAs;
      return [runAs?.k8sServiceAccount, runAs?.iamRole];
    };
    // A security context naming no one is none: the launch plan's is taken.
    assertEquals(await runAs("empty", "as-sa", { securityContext: { runAs: {} } }), ["plan-sa", ""]);
    assertEquals(await runAs("own", "as-sa", { securityContext: { runAs: { iamRole: "role" } } }), ["", "role"]);
    // Without one, the deprecated auth role's service account and role.
    assertEquals(await runAs("old", "wf", { authRole: { kubernetesServiceAccount: "old-sa" } }), ["old-sa", ""]);
    assertEquals(await runAs("none", "wf", {}), ["", ""]);
    // The launch plan FlyteAdmin makes for a task keeps the security context of the execution that made it.
    const task = id(ResourceType.TASK, "double", "v1");
    const runTask = async (name: string, spec: Record<string, unknown>) => {
      await client.createExecution({
        ...scope,
        name,
        spec: { launchPlan: task, ...spec },
        inputs: { literals: { x: int(1), y: int(2), z: str("s") } },
      });
      return (await client.getExecution({ id: { ...scope, name } })).spec?.securityContext?.runAs?.k8sServiceAccount;
    };
    assertEquals(await runTask("t1", { securityContext: { runAs: { k8sServiceAccount: "first-sa" } } }), "first-sa");
    assertEquals(await runTask("t2", {}), "first-sa");
    // FlyteAdmin marks the names it made SYSTEM_GENERATED.
    for (const resourceType of [ResourceType.WORKFLOW, ResourceType.LAUNCH_PLAN]) {
      const made = await client.getNamedEntity({ resourceType, id: { ...scope, name: ".flytegen.double" } });
      assertEquals(made.metadata?.state, NamedEntityState.SYSTEM_GENERATED);
    }
  });
});

Deno.test("UpdateExecution stores a state it has no name for, as FlyteAdmin does: not ACTIVE, so hidden", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    await client.createExecution(createRequest("keep"));
    await client.createExecution(createRequest("odd"));
    await client.updateExecution({ id: { ...scope, name: "odd" }, state: 5 as ExecutionState });
    const names = async (filters = "") =>
      (await client.listExecutions({ id: scope, limit: 10, filters })).executions.map((e) => e.id?.name);
    assertEquals(await names(), ["keep"]);
    assertEquals(await names("eq(state,5)"), ["odd"]);
    const odd = await client.getExecution({ id: { ...scope, name: "odd" } });
    assertEquals(odd.closure?.stateChangeDetails?.state, 5);
  });
});

Deno.test("RelaunchExecution and RecoverExecution run the same launch plan and inputs in their mode", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    await client.createExecution(createRequest("first", { x: int(7) }));
    const { id: again } = await client.relaunchExecution({ id: { ...scope, name: "first" }, name: "second" });
    const relaunched = await client.getExecution({ id: again });
    assertEquals(relaunched.spec?.metadata?.mode, ExecutionMetadata_ExecutionMode.RELAUNCH);
    assertEquals(relaunched.spec?.metadata?.referenceExecution?.name, "first");
    const data = await client.getExecutionData({ id: again });
    const x = data.fullInputs!.literals.x.value;
    assertEquals(x.case === "scalar" && x.value.value.case === "primitive" ? x.value.value.value.value.value : 0n, 7n);
    const { id: recovered } = await client.recoverExecution({ id: { ...scope, name: "first" } });
    assertEquals(
      (await client.getExecution({ id: recovered })).spec?.metadata?.mode,
      ExecutionMetadata_ExecutionMode.RECOVERED,
    );
    const missing = await adminError(client.relaunchExecution({ id: { ...scope, name: "ghost" } }));
    assertEquals([missing.status, missing.serverMessage], [
      "NotFound",
      `missing entity of type execution with identifier project:"${PROJECT}" domain:"${DOMAIN}" name:"ghost"`,
    ]);
  });
});

Deno.test("node execution data, task attempts paged and filtered, and FlyteAdmin's identifier checks", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.executions.plan("default", { attempts: 3, after: 300 });
    await client.createExecution(createRequest("three"));
    const executionId = { ...scope, name: "three" };
    clock.advance(1000);
    const data = await client.getNodeExecutionData({ id: { executionId, nodeId: "n0" } });
    assertEquals(Object.keys(data.fullInputs!.literals).sort(), ["x", "y", "z"]);
    assertEquals(Object.keys(data.fullOutputs!.literals), ["o"]);
    const start = await client.getNodeExecutionData({ id: { executionId, nodeId: "start-node" } });
    assertEquals(Object.keys(start.fullOutputs!.literals).sort(), ["x", "y", "z"]);
    const nodeExecutionId = { executionId, nodeId: "n1" };
    const page = await client.listTaskExecutions({ nodeExecutionId, limit: 2 });
    assertEquals([page.taskExecutions.map((task) => task.id?.retryAttempt), page.token], [[0, 1], "2"]);
    const rest = await client.listTaskExecutions({ nodeExecutionId, limit: 2, token: page.token });
    assertEquals([rest.taskExecutions.map((task) => task.id?.retryAttempt), rest.token], [[2], ""]);
    const succeeded = await client.listTaskExecutions({ nodeExecutionId, limit: 5, filters: "eq(phase,SUCCEEDED)" });
    assertEquals(succeeded.taskExecutions.map((task) => task.id?.retryAttempt), [2]);
    const byTask = await client.listTaskExecutions({ nodeExecutionId, limit: 5, filters: "eq(task.name,double)" });
    assertEquals(byTask.taskExecutions.length, 3);
    const attempt = await client.getTaskExecution({
      id: { nodeExecutionId, taskId: id(ResourceType.TASK, "double", "v1"), retryAttempt: 1 },
    });
    assertEquals(TaskExecution_Phase[attempt.closure!.phase], "FAILED");
    const noNode = await adminError(client.listTaskExecutions({ nodeExecutionId: { executionId }, limit: 5 }));
    assertEquals([noNode.status, noNode.serverMessage], ["InvalidArgument", "missing node_id"]);
    const noExecution = await adminError(client.listNodeExecutions({ limit: 5 }));
    assertEquals([noExecution.status, noExecution.serverMessage], ["InvalidArgument", "missing execution_id"]);
    // GetNodeExecution only logs a bad identifier, as FlyteAdmin does: the lookup answers NOT_FOUND.
    const noNodeId = await adminError(client.getNodeExecution({ id: { executionId } }));
    assertEquals(noNodeId.status, "NotFound");
    const noTask = await adminError(client.getTaskExecution({ id: { nodeExecutionId, retryAttempt: 0 } }));
    assertEquals([noTask.status, noTask.serverMessage], ["InvalidArgument", "missing task_id"]);
    const wrongType = await adminError(client.getTaskExecution({
      id: { nodeExecutionId, taskId: id(ResourceType.WORKFLOW, "double", "v1") },
    }));
    assert(
      wrongType.serverMessage.startsWith("unexpected resource type workflow for identifier"),
      wrongType.serverMessage,
    );
    const noName = await adminError(client.getExecution({ id: { ...scope } }));
    assertEquals([noName.status, noName.serverMessage], ["InvalidArgument", "missing name"]);
  }, { now: clock.now });
});

Deno.test("a plan with a negative time or no attempts is refused, naming the field", async () => {
  await withSandbox((sandbox) => {
    let refused = "";
    try {
      sandbox.store.executions.plan("default", { after: -1 });
    } catch (err) {
      refused = String(err);
    }
    assertEquals(refused, "RangeError: ExecutionPlan.after must be ≥ 0 ms, got -1");
    try {
      sandbox.store.executions.plan({ execution: "x" }, { attempts: 0 });
    } catch (err) {
      refused = String(err);
    }
    assertEquals(refused, "RangeError: ExecutionPlan.attempts must be a whole number ≥ 1, got 0");
    return Promise.resolve();
  });
});

Deno.test("executions created in the same millisecond of a frozen clock all start at once", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    sandbox.store.executions.plan("default", { after: 0 });
    for (const name of ["one", "two", "three"]) await client.createExecution(createRequest(name));
    assertEquals(sandbox.store.executions.summaries().map((execution) => execution.phase), [
      "SUCCEEDED",
      "SUCCEEDED",
      "SUCCEEDED",
    ]);
  }, { now: () => new Date(START) });
});

Deno.test("CreateExecution checks labels as Kubernetes does, and a launch plan's SKIP concurrency policy", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const labelled = (labels: Record<string, string>) => ({
      ...createRequest(""),
      spec: { launchPlan, labels: { values: labels } },
    });
    const key = await adminError(client.createExecution(labelled({ "bad key": "v" })));
    assertEquals(key.status, "InvalidArgument");
    assert(key.serverMessage.startsWith("invalid label key [bad key]"), key.serverMessage);
    const value = await adminError(client.createExecution(labelled({ team: "-x" })));
    assert(value.serverMessage.startsWith("invalid label value [-x]"), value.serverMessage);
    await client.createExecution(labelled({ "example.com/team": "ml", tier: "" }));

    const wfId = id(ResourceType.WORKFLOW, "wf", "v1");
    sandbox.store.addLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "single", "v1"),
      spec: {
        workflowId: wfId,
        defaultInputs: { parameters: { y: { var: { type: integer }, behavior: { case: "default", value: int(5) } } } },
        fixedInputs: { literals: { z: str("fixed") } },
        concurrencyPolicy: { max: 1, behavior: 1 },
      },
    });
    const single = (name: string) => ({
      ...createRequest(name),
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "single", "v1") },
    });
    await client.createExecution(single("first"));
    const skipped = await adminError(client.createExecution(single("second")));
    assertEquals([skipped.status, skipped.serverMessage], [
      "AlreadyExists",
      "concurrency limit (1) reached for launch plan single; skipping execution",
    ]);
    clock.advance(5000);
    await client.createExecution(single("third"));
  }, { now: clock.now });
});

Deno.test("a branch node runs its first case as its child, not marked a parent (flytepropeller marks sub-workflows only)", async () => {
  const clock = testClock();
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    const wfId = id(ResourceType.WORKFLOW, "branchy", "v1");
    const one = { val: { case: "primitive" as const, value: { value: { case: "integer" as const, value: 1n } } } };
    sandbox.store.addWorkflow({
      id: wfId,
      spec: {
        template: {
          id: wfId,
          nodes: [{
            id: "b0",
            target: {
              case: "branchNode",
              value: {
                ifElse: {
                  case: {
                    // 1 == 1: a condition of constants, which binds nothing.
                    condition: { expr: { case: "comparison", value: { leftValue: one, rightValue: one } } },
                    thenNode: taskNode("yes", "double", "v1", valueBindings({ x: int(1), y: int(2), z: str("s") })),
                  },
                  default: { case: "error", value: { failedNodeId: "b0", message: "no case" } },
                },
              },
            },
          }],
        },
      },
    });
    sandbox.store.addLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "branchy", "v1"), spec: { workflowId: wfId } });
    await client.createExecution({
      ...scope,
      name: "br",
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "branchy", "v1") },
    });
    clock.advance(2000);
    const workflowExecutionId = { ...scope, name: "br" };
    const top = await client.listNodeExecutions({ workflowExecutionId, limit: 10 });
    assertEquals(top.nodeExecutions.map((node) => [node.id?.nodeId, node.metadata?.isParentNode]), [
      ["start-node", false],
      ["b0", false],
      ["end-node", false],
    ]);
    const children = await client.listNodeExecutions({ workflowExecutionId, limit: 10, uniqueParentId: "b0" });
    assertEquals(children.nodeExecutions.map((node) => node.id?.nodeId), ["b0-0-b0-yes"]);
  }, { now: clock.now });
});

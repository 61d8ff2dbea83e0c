/**
 * `get execution`: the ListExecutions and GetExecution requests it sends, the field selector's `execution.name`
 * reaching FlyteAdmin as its `execution_name` column, the columns of executions of the flytesnacks core package
 * driven to SUCCEEDED and FAILED by the sandbox's clock, `--details` (every page of node and task executions),
 * `--nodeID`, the errors, and one fresh process against a production admin.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { ResourceListRequest } from "../proto/gen/flyteidl/admin/common_pb.ts";
import type { WorkflowExecutionGetRequest } from "../proto/gen/flyteidl/admin/execution_pb.ts";
import type { NodeExecutionListRequest } from "../proto/gen/flyteidl/admin/node_execution_pb.ts";
import type { TaskExecutionListRequest } from "../proto/gen/flyteidl/admin/task_execution_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../src/sandbox/mod.ts";
import { int, type LiteralInit, str } from "../src/_test_literals.ts";
import { runFctl, runFctlProcess } from "./helpers.ts";
import {
  CORE_WORKFLOW as WF,
  registerCore,
  runProductionProcess,
  startCoreExecutions,
  withFullAdmin,
} from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];
const START = Date.parse("2026-03-01T00:00:00Z");

/** A clock the test moves. */
function testClock() {
  let ms = START;
  return { now: () => new Date(ms), advance: (by: number) => void (ms += by) };
}

/** Creates executions of the core package's basic workflow (or another launch plan) through the admin's gRPC API. */
async function createExecutions(
  sandbox: Sandbox,
  names: string[],
  launchPlan = WF,
  inputs: Record<string, LiteralInit> = { a: int(3), b: str("hi") },
): Promise<void> {
  await startCoreExecutions(sandbox, names, { launchPlan, inputs });
}

async function withCore(
  fn: (sandbox: Sandbox, endpoint: string[]) => Promise<void>,
  options?: SandboxOptions,
): Promise<void> {
  const sandbox = await startSandbox(options);
  try {
    await registerCore(sandbox, ["v1"]);
    await fn(sandbox, [...SCOPE, "--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
  }
}

function calls(sandbox: Sandbox): unknown[] {
  return sandbox.requests.map(({ method, request }) => {
    switch (method) {
      case "ListExecutions": {
        const r = request as ResourceListRequest;
        return [method, r.id?.project, r.id?.domain, r.limit, r.token, r.filters, r.sortBy?.key, r.sortBy?.direction];
      }
      case "GetExecution": {
        const id = (request as WorkflowExecutionGetRequest).id!;
        return [method, id.project, id.domain, id.name];
      }
      case "ListNodeExecutions": {
        const r = request as NodeExecutionListRequest;
        return [method, r.workflowExecutionId?.name, r.uniqueParentId, r.limit, r.token];
      }
      case "ListTaskExecutions": {
        const r = request as TaskExecutionListRequest;
        return [method, r.nodeExecutionId?.nodeId, r.limit, r.token];
      }
      default:
        return [method];
    }
  });
}

const list = (limit = 100, token = "", filters = "", key = "created_at", direction = 0) => [
  "ListExecutions",
  "flytesnacks",
  "development",
  limit,
  token,
  filters,
  key,
  direction,
];

Deno.test("get execution sends flytectl's requests; execution.name reaches FlyteAdmin as execution_name", async () => {
  await withCore(async (sandbox, endpoint) => {
    await createExecutions(sandbox, ["run-a", "run-b"]);
    const cases: [string[], unknown[][]][] = [
      [["get", "execution"], [list()]],
      [["get", "executions", "--filter.limit", "1", "--filter.page", "2"], [list(1, "1")]],
      [["get", "execution", "--filter.sortBy", "execution.name", "--filter.asc"], [
        list(100, "", "", "execution_name", 1),
      ]],
      [
        ["get", "execution", "--filter.fieldSelector", "execution.name=run-a,execution.phase=QUEUED"],
        [list(100, "", "eq(execution_name,run-a)+eq(execution.phase,QUEUED)")],
      ],
      [["get", "execution", "run-b"], [["GetExecution", "flytesnacks", "development", "run-b"]]],
    ];
    for (const [args, expected] of cases) {
      sandbox.clearRequests();
      const { code, stderr } = await runFctl([...args, ...endpoint]);
      equal(code, 0, `${args.join(" ")}: ${stderr}`);
      deepEqual(calls(sandbox), expected, args.join(" "));
    }
    const byName = await runFctl([
      "get",
      "execution",
      "--filter.fieldSelector",
      "execution.name=run-a",
      "-o",
      "json",
      ...endpoint,
    ]);
    deepEqual(JSON.parse(byName.stdout).map((e: { id: { name: string } }) => e.id.name), ["run-a"]);
    // A full page tells a terminal there may be more; the last one, or a pipe, is told nothing.
    const page = (n: string) => ["get", "execution", "--filter.limit", "1", "--filter.page", n, ...endpoint];
    const full = await runFctl(page("1"), { stderrIsTerminal: true });
    equal(full.stderr, "a full page: there may be more executions; add --filter.page 2 for the next\n");
    equal((await runFctl(page("1"))).stderr, "");
    equal(
      (await runFctl(["get", "execution", "--filter.limit", "5", ...endpoint], { stderrIsTerminal: true })).stderr,
      "",
    );
    const newestFirst = await runFctl(["get", "execution", "-o", "json", ...endpoint]);
    deepEqual(JSON.parse(newestFirst.stdout).map((e: { id: { name: string } }) => e.id.name), ["run-b", "run-a"]);
  });
});

Deno.test("get execution: bad input is one usage line before any call; a missing execution or node is exit 1", async () => {
  await withCore(async (sandbox, endpoint) => {
    await createExecutions(sandbox, ["run-a"]);
    sandbox.clearRequests();
    const cases: [string[], string][] = [
      [["--details"], "Error: --details needs an execution name"],
      [["--nodeID", "n0"], "Error: --nodeID needs an execution name"],
      [["--filter.limit", "0"], 'Error: invalid value "0" for --filter.limit: expected a whole number of 1 or more'],
      [["--filter.fieldSelector", "execution.name"], "Error: Please add a valid field selector: no operator"],
    ];
    for (const [args, message] of cases) {
      const result = await runFctl(["get", "execution", ...args, ...endpoint]);
      equal(result.code, 2, args.join(" "));
      equal(result.stdout, "");
      ok(result.stderr.startsWith(message), `${args.join(" ")}: ${result.stderr}`);
    }
    deepEqual(sandbox.requests, [], "no request was made");
    const missing = await runFctl(["get", "execution", "nope", ...endpoint]);
    deepEqual([missing.code, missing.stdout, missing.stderr], [
      1,
      "",
      'Error: execution "nope" not found in project "flytesnacks", domain "development"\n',
    ]);
    const missingDetails = await runFctl(["get", "execution", "nope", "--details", ...endpoint]);
    deepEqual([missingDetails.code, missingDetails.stderr], [1, missing.stderr]);
    const node = await runFctl(["get", "execution", "run-a", "--nodeID", "n9", ...endpoint]);
    equal(node.code, 1);
    equal(node.stdout, "");
    match(node.stderr, /^Error: node "n9" not found in execution "run-a": its nodes are start-node, n0/);
  });
});

Deno.test("get: a page size or page beyond what FlyteAdmin's request can carry is one usage line, exit 2, no call", async () => {
  await withCore(async (sandbox, endpoint) => {
    await createExecutions(sandbox, ["run-a"]);
    sandbox.clearRequests();
    const limit = "expected a whole number from 1 to 4294967295 (FlyteAdmin's page size is a uint32)";
    const page = (max: string, size: string) =>
      `expected a whole number from 1 to ${max} with --filter.limit ${size} (the page's offset is at most ` +
      "9007199254740991)";
    const cases: [string[], string][] = [
      [["execution", "--filter.limit", "4294967296"], `invalid value "4294967296" for --filter.limit: ${limit}`],
      [["project", "--filter.limit", "99999999999"], `invalid value "99999999999" for --filter.limit: ${limit}`],
      [
        ["execution", "--filter.limit", "4294967295", "--filter.page", "9007199254740991"],
        `invalid value "9007199254740991" for --filter.page: ${page("2097153", "4294967295")}`,
      ],
      [
        ["workflow", "--filter.page", "9007199254740991"],
        `invalid value "9007199254740991" for --filter.page: ${page("90071992547410", "100")}`,
      ],
      [
        ["launchplan", WF, "--filter.limit", "4294967296"],
        `invalid value "4294967296" for --filter.limit: ${limit}`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runFctlProcess(["get", ...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", `Error: ${message}\n`], args.join(" "));
    }
    deepEqual(sandbox.requests, [], "no request was made");
    const largest = await runFctlProcess(["get", "execution", "--filter.limit", "4294967295", ...endpoint]);
    equal(largest.code, 0, largest.stderr);
    deepEqual(calls(sandbox), [list(4294967295)]);
  });
});

Deno.test("get execution --details of an execution with no nodes yet says so on stderr, stdout empty", async () => {
  await withCore(async (sandbox, endpoint) => {
    sandbox.store.executions.plan({ execution: "waiting" }, { startAfter: 3_600_000, after: 3_600_000 });
    await createExecutions(sandbox, ["waiting"]);
    const tree = await runFctlProcess(["get", "execution", "waiting", "--details", ...endpoint]);
    deepEqual([tree.code, tree.stdout, tree.stderr], [0, "", "execution waiting has no nodes yet\n"]);
    const json = await runFctlProcess(["get", "execution", "waiting", "--details", "-o", "json", ...endpoint]);
    deepEqual([json.code, json.stdout, json.stderr], [0, "[]\n", ""]);
  });
});

Deno.test("get execution --details shows the admin's text escaped: an error with an escape sequence or a bidi override", async () => {
  let ms = START;
  await withCore(async (sandbox, endpoint) => {
    const message = "boom\x1b[31mred\u202eevil";
    sandbox.store.executions.plan({ execution: "hostile" }, { outcome: "FAILED", after: 10, message });
    await createExecutions(sandbox, ["hostile"]);
    ms += 60_000;
    const tree = await runFctlProcess(["get", "execution", "hostile", "--details", ...endpoint]);
    equal(tree.code, 0, tree.stderr);
    ok(!tree.stdout.includes("\x1b") && !tree.stdout.includes("\u202e"), tree.stdout);
    match(tree.stdout, /error: USER:Unknown: boom\\x1b\[31mred\\u202eevil\n/);
  }, { now: () => new Date(ms) });
});

Deno.test("get execution reads back executions driven to SUCCEEDED and FAILED by the clock, with --details", async () => {
  const clock = testClock();
  await withCore(async (sandbox, endpoint) => {
    sandbox.store.executions.plan({ execution: "good" }, { startAfter: 1000, after: 63_000 });
    sandbox.store.executions.plan({ execution: "bad" }, {
      outcome: "FAILED",
      after: 4000,
      message: "OOMKilled: the container ran out of memory " + "x".repeat(120),
      attempts: 2,
    });
    await createExecutions(sandbox, ["good", "bad"]);
    const queued = await runFctl(["get", "execution", "good", ...endpoint]);
    match(queued.stdout, /\| good \| core\.flyte_basics\.basic_workflow\.my_wf \| v1 +\| LAUNCH_PLAN \| QUEUED/);
    clock.advance(70_000);
    const table = await runFctl(["get", "execution", ...endpoint]);
    equal(table.code, 0, table.stderr);
    match(
      table.stdout,
      /\| NAME +\| LAUNCH PLAN NAME +\| VERSION \| TYPE +\| PHASE +\| SCHEDULED TIME \| STARTED +\| ELAPSED TIME \| ABORT DATA \(TRUNC\) \| ERROR DATA \(TRUNC\) +\|/,
    );
    match(
      table.stdout,
      /\| good +\| core\.flyte_basics\.basic_workflow\.my_wf \| v1 +\| LAUNCH_PLAN \| SUCCEEDED \| +\| 2026-03-01T00:00:01Z +\| 1m2s +\|/,
    );
    const bad = table.stdout.split("\n").find((line) => line.startsWith("| bad "))!;
    match(bad, /\| FAILED +\|/);
    const error = /\| (OOMKilled[^|]*?) +\|$/.exec(bad)![1];
    equal(error.length, 100, "the error is cut at 100 characters");

    // An aborted execution shows its cause.
    sandbox.store.executions.plan({ execution: "stuck" }, { outcome: "never" });
    await createExecutions(sandbox, ["stuck"]);
    await withFullAdmin(sandbox, async (admin) => {
      await admin.terminateExecution({
        id: { project: "flytesnacks", domain: "development", name: "stuck" },
        cause: "stopped by the test",
      });
    });
    const aborted = await runFctl(["get", "execution", "stuck", ...endpoint]);
    match(aborted.stdout, /\| stuck \| .*\| ABORTED +\| .*\| stopped by the test +\| +\|\n/);
    const tree = await runFctl(["get", "execution", "bad", "--details", ...endpoint]);
    equal(tree.code, 0, tree.stderr);
    match(tree.stdout, /^start-node - SUCCEEDED/m);
    // The failure is the last node's: its attempts fail in turn, the last with the execution's message.
    match(tree.stdout, /^n0 - SUCCEEDED - started 2026-03-01T00:00:00[.\d]*Z - 2s$/m);
    match(tree.stdout, /^n1 - FAILED - started [^ ]+ - 2s\n {2}error: USER:Unknown: OOMKilled: the container/m);
    match(
      tree.stdout,
      /^ {2}attempt 0 - FAILED - started [^ ]+ - 1s - python-task\n {4}error: USER:Unknown: attempt 1 failed$/m,
    );
    match(
      tree.stdout,
      /^ {2}attempt 1 - FAILED - .*\n.*\n {4}logs:\n {6}Kubernetes Logs \(User\): http:\/\/\S+bad-n1-1/m,
    );
    match(tree.stdout, /^ {4}c: ""$/m, "an empty string is shown as one");
    match(tree.stdout, /^ {2}inputs:\n {4}a: 3$/m);

    const good = await runFctl(["get", "execution", "good", "--nodeID", "n0", "-o", "json", ...endpoint]);
    equal(good.code, 0, good.stderr);
    const [node] = JSON.parse(good.stdout);
    // flytectl's keys, so that scripts written against its document read fctl's unchanged.
    deepEqual(Object.keys(node).sort(), ["inputs", "node_exec", "outputs", "task_execs"]);
    equal(node.node_exec.id.nodeId, "n0");
    equal(node.node_exec.closure.phase, "SUCCEEDED");
    deepEqual(node.inputs, { a: 3 });
    deepEqual(node.task_execs.map((t: { id: { retryAttempt?: number } }) => t.id.retryAttempt ?? 0), [0]);
    const yaml = await runFctl(["get", "execution", "good", "--details", "-o", "yaml", ...endpoint]);
    match(yaml.stdout, /^- node_exec:/m);
  }, { now: clock.now });
});

Deno.test("get execution --details reads a sub-workflow's nodes below their parent node", async () => {
  const clock = testClock();
  await withCore(async (sandbox, endpoint) => {
    await createExecutions(sandbox, ["nested"], "core.control_flow.subworkflows.nested_parent_wf", { a: int(3) });
    clock.advance(10_000);
    sandbox.clearRequests();
    const json = await runFctl(["get", "execution", "nested", "--details", "-o", "json", ...endpoint]);
    equal(json.code, 0, json.stderr);
    const tree = JSON.parse(json.stdout);
    const parents = tree.filter((node: { child_nodes?: unknown[] }) => node.child_nodes);
    ok(parents.length > 0, json.stdout);
    const parentIds = parents.map((node: { node_exec: { id: { nodeId: string } } }) => node.node_exec.id.nodeId);
    const below = calls(sandbox).filter((call) => (call as string[])[0] === "ListNodeExecutions").map((call) =>
      (call as string[])[2]
    );
    deepEqual(below.slice(0, 1 + parentIds.length), ["", ...parentIds]);
    const text = await runFctl(["get", "execution", "nested", "--details", ...endpoint]);
    const child = parents[0].child_nodes[0].node_exec.id.nodeId;
    match(text.stdout, new RegExp(`^${parentIds[0]} - SUCCEEDED[^\\n]*\\n( {2}.*\\n)*? {2}${child} - `, "m"));
  }, { now: clock.now });
});

Deno.test("get execution --details reads every page: more than 100 node executions, and more than 100 attempts of a node", async () => {
  const { id, taskInit, taskNode } = await import("../src/sandbox/_test_helpers.ts");
  const sandbox = await startSandbox();
  try {
    sandbox.store.addTask(taskInit("t", "v1"));
    // As many nodes as FlyteAdmin registers (100): with the start and end nodes, 102 node executions, two pages.
    const nodes = Array.from({ length: 100 }, (_, i) => taskNode(`n${i}`, "t", "v1"));
    const wfId = id(ResourceType.WORKFLOW, "wide", "v1");
    sandbox.store.addWorkflow({ id: wfId, spec: { template: { id: wfId, nodes } } });
    sandbox.store.addLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wide", "v1"), spec: { workflowId: wfId } });
    sandbox.store.executions.plan({ execution: "wide" }, { after: 0, attempts: 102 });
    await withFullAdmin(sandbox, async (admin) => {
      await admin.createExecution({
        project: "flytesnacks",
        domain: "development",
        name: "wide",
        spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "wide", "v1") },
      });
    });
    sandbox.clearRequests();
    const result = await runFctl([
      "get",
      "execution",
      "wide",
      "--details",
      "-o",
      "json",
      ...SCOPE,
      "--admin.endpoint",
      sandbox.endpoint,
    ]);
    equal(result.code, 0, result.stderr);
    const tree = JSON.parse(result.stdout);
    equal(tree.length, 102, "start-node, n0 … n99, end-node");
    deepEqual(tree.map((n: { node_exec: { id: { nodeId: string } } }) => n.node_exec.id.nodeId).slice(-2), [
      "n99",
      "end-node",
    ]);
    const n99 = tree.find((n: { node_exec: { id: { nodeId: string } } }) => n.node_exec.id.nodeId === "n99");
    equal(n99.task_execs.length, 102);
    equal(n99.task_execs[101].id.retryAttempt, 101);
    const requests = calls(sandbox);
    deepEqual(requests.filter((call) => (call as string[])[0] === "ListNodeExecutions"), [
      ["ListNodeExecutions", "wide", "", 100, ""],
      ["ListNodeExecutions", "wide", "", 100, "100"],
    ]);
    deepEqual(requests.filter((call) => (call as string[])[1] === "n99"), [
      ["ListTaskExecutions", "n99", 100, ""],
      ["ListTaskExecutions", "n99", 100, "100"],
    ]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("production admin: get execution as a fresh process (TLS, OAuth client credentials, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const { fixture } = await import("./helpers.ts");
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    await createExecutions(sandbox, ["prod-run"]);
    const listed = await runProductionProcess(sandbox, ["get", "execution", "-o", "json"]);
    equal(listed.code, 0, listed.stderr);
    deepEqual(JSON.parse(listed.stdout).map((e: { id: { name: string } }) => e.id.name), ["prod-run"]);
    const details = await runProductionProcess(sandbox, ["get", "execution", "prod-run", "--details"]);
    equal(details.code, 0, details.stderr);
    match(details.stdout, /^start-node - /m);
    equal(details.stderr, "");
    // The document a flytectl user's script reads: its keys, not fctl's own.
    const document = await runProductionProcess(sandbox, ["get", "execution", "prod-run", "--details", "-o", "json"]);
    equal(document.code, 0, document.stderr);
    const nodes = JSON.parse(document.stdout);
    equal(nodes[0].node_exec.id.nodeId, "start-node");
    ok(nodes.some((node: { task_execs?: unknown[] }) => node.task_execs?.length), document.stdout);
  } finally {
    await sandbox.close();
  }
});

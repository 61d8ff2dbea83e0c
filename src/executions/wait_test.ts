/**
 * waitForExecution against the sandbox over real gRPC, on the sandbox's test clock: success, failure with its
 * message, abort, a wait that times out, Ctrl-C; the poll rate (GetExecution calls against the clock) and backoff.
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { TypedInterfaceSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { AdminClient } from "../admin/client.ts";
import { ExitCode, InterruptedError } from "../errors.ts";
import { DEFAULT_MAX_WORKFLOW_NODES } from "../sandbox/compile.ts";
import type { ExecutionPlan } from "../sandbox/execution_lifecycle.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { DOMAIN, id, PROJECT, promiseBinding, taskNode, withSandbox } from "../sandbox/_test_helpers.ts";
import {
  executionFailure,
  type ExecutionProgress,
  LAST_POLL_INTERVAL_MS,
  pollInterval,
  waitForExecution,
  type WaitOptions,
  WaitTimeoutError,
} from "./wait.ts";

const START = Date.parse("2026-03-01T00:00:00Z");

/** A clock the sandbox and the wait share; the wait's sleep moves it. */
function testClock() {
  let ms = START;
  return {
    now: () => new Date(ms),
    ms: () => ms,
    advance: (by: number) => void (ms += by),
  };
}

const integer = { type: { case: "simple" as const, value: SimpleType.INTEGER } };
const INTERFACE: MessageInitShape<typeof TypedInterfaceSchema> = {
  inputs: { variables: {} },
  outputs: { variables: { o: { type: integer } } },
};

/** Task `t`, workflow `wf` of `nodes` nodes running it, launch plan `wf`. */
function seed(sandbox: Sandbox, nodes: number): void {
  const store = sandbox.store;
  const taskId = id(ResourceType.TASK, "t", "v1");
  store.addTask({
    id: taskId,
    spec: {
      template: {
        id: taskId,
        type: "python-task",
        metadata: { runtime: { version: "1.16.1", flavor: "python" } },
        interface: INTERFACE,
        target: { case: "container", value: { image: "python:3.12", args: ["pyflyte-execute"] } },
      },
    },
  });
  const wfId = id(ResourceType.WORKFLOW, "wf", "v1");
  // The demo cluster's node limit (FlyteAdmin's registration.maxWorkflowNodes, 100). Three pages of top-level node
  // executions need more nodes than that (the nodes of sub-workflows are not top-level): for them the sandbox is
  // configured as a FlyteAdmin with a higher limit, which accepts the workflow.
  store.maxWorkflowNodes = Math.max(DEFAULT_MAX_WORKFLOW_NODES, nodes);
  store.addWorkflow({
    id: wfId,
    spec: {
      template: {
        id: wfId,
        interface: INTERFACE,
        nodes: Array.from({ length: nodes }, (_, i) => taskNode(`n${i}`, "t", "v1")),
        outputs: [promiseBinding("o", `n${nodes - 1}`)],
      },
    },
  });
  store.addLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, "wf", "v1"), spec: { workflowId: wfId } });
}

const execId = (name: string) => ({ project: PROJECT, domain: DOMAIN, name });

/** A sandbox on the test clock with execution `name` (of a workflow of `nodes` nodes) created under `plan`, then `fn`. */
function withExecution(
  plan: ExecutionPlan,
  fn: (ctx: { sandbox: Sandbox; client: AdminClient; clock: ReturnType<typeof testClock> }) => Promise<void>,
  nodes = 3,
): Promise<void> {
  const clock = testClock();
  return withSandbox(async (sandbox, client) => {
    seed(sandbox, nodes);
    sandbox.store.executions.plan("default", plan);
    await client.admin.createExecution({
      ...execId("run"),
      spec: { launchPlan: id(ResourceType.LAUNCH_PLAN, "wf", "v1") },
      inputs: { literals: {} },
    });
    sandbox.clearRequests();
    await fn({ sandbox, client, clock });
  }, { now: clock.now });
}

/** The wait's options on the test clock: each sleep moves it (after `beforeSleep`), recording the sleeps. */
function clockOptions(clock: ReturnType<typeof testClock>, sleeps: number[], extra: Partial<WaitOptions> = {}) {
  return {
    now: clock.ms,
    sleep: (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      clock.advance(ms);
      return Promise.resolve();
    },
    ...extra,
  } satisfies WaitOptions;
}

/** GetExecution calls at most 2 in any second of the clock (never less than half a second apart). */
function assertPollRate(sandbox: Sandbox): number[] {
  const times = sandbox.requests.filter((r) => r.method === "GetExecution").map((r) => r.at);
  for (let i = 1; i < times.length; i++) ok(times[i] - times[i - 1] >= 500, `polls ${times[i - 1]}, ${times[i]}`);
  for (const t of times) ok(times.filter((u) => u >= t && u < t + 1000).length <= 2, `more than 2 calls at ${t}`);
  return times;
}

/** Every call of the wait, node counts included: at most 2 in any second of the clock. */
function assertCallRate(sandbox: Sandbox): void {
  const calls = sandbox.requests.filter((r) => r.method === "GetExecution" || r.method === "ListNodeExecutions")
    .map((r) => r.at);
  for (let i = 2; i < calls.length; i++) {
    ok(calls[i] - calls[i - 2] >= 1000, `3 calls within a second, the last at ${calls[i] - START} ms`);
  }
}

Deno.test("waitForExecution returns a succeeded execution, its updates counting the nodes", async () => {
  await withExecution(
    { outcome: "SUCCEEDED", startAfter: 2_000, after: 30_000 },
    async ({ sandbox, client, clock }) => {
      const updates: ExecutionProgress[] = [];
      const sleeps: number[] = [];
      const execution = await waitForExecution(
        client,
        execId("run"),
        clockOptions(clock, sleeps, { onUpdate: (p) => updates.push(p) }),
      );
      equal(execution.id?.name, "run");
      equal(executionFailure(execution), undefined);
      deepEqual(updates.map((u) => u.phase).filter((p, i, all) => all[i - 1] !== p), [
        "QUEUED",
        "RUNNING",
        "SUCCEEDED",
      ]);
      const last = updates.at(-1)!;
      deepEqual([last.running, last.finished], [0, 3]);
      equal(last.elapsedMs, 30_000);
      ok(updates.some((u) => u.phase === "RUNNING" && u.running + u.finished > 0), "a count while running");
      const times = assertPollRate(sandbox);
      equal(times.length, 31); // 0 s, 1 s, …, 30 s
      // Node counts: at most one every 5 s while running, and one at the end.
      const lists = sandbox.requests.filter((r) => r.method === "ListNodeExecutions").map((r) => r.at - START);
      ok(lists.length <= 30_000 / 5_000 + 2, `${lists.length} ListNodeExecutions`);
      for (let i = 1; i < lists.length - 1; i++) ok(lists[i] - lists[i - 1] >= 5_000, `counts at ${lists}`);
      assertCallRate(sandbox);
    },
  );
});

Deno.test("waitForExecution of 250 nodes: the count's three pages and the polls stay two calls a second", async () => {
  await withExecution(
    { outcome: "SUCCEEDED", startAfter: 2_000, after: 30_000 },
    async ({ sandbox, client, clock }) => {
      const updates: ExecutionProgress[] = [];
      await waitForExecution(client, execId("run"), clockOptions(clock, [], { onUpdate: (p) => updates.push(p) }));
      deepEqual([updates.at(-1)!.running, updates.at(-1)!.finished], [0, 250]);
      ok(sandbox.requests.filter((r) => r.method === "ListNodeExecutions").length > 3, "counts of several pages");
      assertCallRate(sandbox);
      assertPollRate(sandbox);
    },
    250,
  );
});

Deno.test("waitForExecution returns a failed execution; executionFailure says why (exit 1)", async () => {
  await withExecution(
    { outcome: "FAILED", after: 3_000, message: "OOMKilled\nexit 137" },
    async ({ client, clock }) => {
      const execution = await waitForExecution(client, execId("run"), clockOptions(clock, []));
      const failure = executionFailure(execution)!;
      equal(failure.message, "execution run FAILED: OOMKilled exit 137");
      equal(failure.exitCode, ExitCode.Failed);
    },
  );
});

Deno.test("waitForExecution returns an execution aborted while it waits, with its cause", async () => {
  await withExecution({ outcome: "never" }, async ({ client, clock }) => {
    const sleeps: number[] = [];
    const options = clockOptions(clock, sleeps);
    const execution = await waitForExecution(client, execId("run"), {
      ...options,
      sleep: async (ms, signal) => {
        await options.sleep(ms, signal);
        if (sleeps.length === 3) await client.admin.terminateExecution({ id: execId("run"), cause: "not needed" });
      },
    });
    equal(executionFailure(execution)?.message, "execution run ABORTED: not needed");
  });
});

Deno.test("waitForExecution of an execution that never ends times out, and backs off to 10 s", async () => {
  await withExecution({ outcome: "never" }, async ({ sandbox, client, clock }) => {
    const sleeps: number[] = [];
    const err = await waitForExecution(client, execId("run"), clockOptions(clock, sleeps, { timeoutMs: 5 * 60_000 }))
      .then(() => undefined, (e) => e);
    ok(err instanceof WaitTimeoutError, String(err));
    equal(err.exitCode, 124);
    equal(
      err.message,
      "gave up waiting for execution run after 5m0s (it is RUNNING); it goes on: terminate it with " +
        "fctl delete execution run -p flytesnacks -d development",
    );
    // The last poll is the first at or past the deadline, no more than a second past it.
    equal(clock.ms() - START, 5 * 60_000 + 783);
    // A second for the first minute, then growing to 10 s and staying there.
    deepEqual(sleeps.slice(0, 60), Array(60).fill(1000));
    deepEqual(sleeps.slice(60, 66), [1500, 2250, 3375, 5063, 7595, 10_000]);
    ok(sleeps.slice(66, -1).every((ms) => ms === LAST_POLL_INTERVAL_MS), String(sleeps));
    // 217 ms were left before the deadline, after a poll that came with a count (GetExecution, ListNodeExecutions):
    // the last wait is the second that keeps the calls two a second at most.
    equal(sleeps.at(-1), 1000);
    assertCallRate(sandbox);
    const times = assertPollRate(sandbox);
    ok(times.length < 60 + 6 + 25, `${times.length} polls in 5 minutes`);
  });
});

Deno.test("pollInterval: 1 s for a minute, then 1.5 times the last up to 10 s", () => {
  equal(pollInterval(59_999, 1000), 1000);
  equal(pollInterval(60_000, 1000), 1500);
  equal(pollInterval(120_000, 8000), 10_000);
  equal(pollInterval(3_600_000, 10_000), 10_000);
});

Deno.test("the poll schedule over a day: never two calls within half a second, 1 s for a minute, then backing off to 10 s", () => {
  // The loop's schedule as a function of elapsed time alone: each wait is pollInterval of the time so far.
  const polls = [0];
  let interval = 1000;
  while (polls.at(-1)! < 24 * 3_600_000) {
    interval = pollInterval(polls.at(-1)!, interval);
    polls.push(polls.at(-1)! + interval);
  }
  const gaps = polls.slice(1).map((at, i) => at - polls[i]);
  ok(gaps.every((gap) => gap >= 500), "two polls less than half a second apart");
  // So no second holds three: any three span a second at least.
  ok(polls.every((at, i) => i + 2 >= polls.length || polls[i + 2] - at >= 1000));
  ok(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1]), "a wait shorter than the one before");
  deepEqual(gaps.slice(0, 60), Array(60).fill(1000));
  const slowest = gaps.findIndex((gap) => gap === LAST_POLL_INTERVAL_MS);
  ok(slowest > 60 && polls[slowest] < 2 * 60_000, `10 s reached at ${polls[slowest]} ms`);
  ok(gaps.slice(slowest).every((gap) => gap === LAST_POLL_INTERVAL_MS));
  // A day's wait is about 8,700 polls, not 86,400.
  ok(polls.length < 60 + 10 + 24 * 360 + 1, `${polls.length} polls`);
});

Deno.test("waitForExecution ends on Ctrl-C, saying the execution goes on and how to terminate it", async () => {
  await withExecution({ outcome: "never" }, async ({ sandbox, client, clock }) => {
    const controller = new AbortController();
    const sleeps: number[] = [];
    const options = clockOptions(clock, sleeps, { signal: controller.signal });
    const wait = waitForExecution(client, execId("run"), {
      ...options,
      sleep: (ms, signal) => {
        if (sleeps.length === 2) controller.abort(new InterruptedError());
        return options.sleep(ms, signal);
      },
    });
    await rejects(wait, (err: unknown) => {
      ok(err instanceof InterruptedError, String(err));
      equal(err.exitCode, 130);
      equal(
        err.message,
        "interrupted: stopped waiting; execution run goes on: terminate it with " +
          "fctl delete execution run -p flytesnacks -d development",
      );
      return true;
    });
    equal(sandbox.store.executions.summaries()[0].phase, "RUNNING");
  });
});

Deno.test("waitForExecution's InterruptedError has the abort's reason as its cause", async () => {
  await withExecution({ outcome: "never" }, async ({ client, clock }) => {
    const controller = new AbortController();
    const reason = new Error("the service is shutting down");
    const sleeps: number[] = [];
    const options = clockOptions(clock, sleeps, { signal: controller.signal });
    const wait = waitForExecution(client, execId("run"), {
      ...options,
      sleep: (ms, signal) => {
        controller.abort(reason);
        return options.sleep(ms, signal);
      },
    });
    await rejects(wait, (err: unknown) => {
      ok(err instanceof InterruptedError, String(err));
      equal(err.cause, reason);
      return true;
    });
  });
});

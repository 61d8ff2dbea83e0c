import {
  deepStrictEqual as assertEquals,
  ok as assert,
  rejects as assertRejects,
  throws as assertThrows,
} from "node:assert/strict";
import { type JobOutcome, runGraph } from "./run_graph.ts";

/** Jobs that take `ms` of real time and record how many ran at once. */
function recorder(ms = 5, failMs = ms) {
  let active = 0;
  const log = { maxActive: 0, started: [] as string[] };
  const run = async (job: string) => {
    active++;
    log.maxActive = Math.max(log.maxActive, active);
    log.started.push(job);
    await new Promise((resolve) => setTimeout(resolve, job.startsWith("bad") ? failMs : ms));
    active--;
    return job.startsWith("bad") ? "failed" : "ok";
  };
  return { log, run };
}

const deps = (entries: Record<string, string[]>) =>
  new Map(Object.entries(entries).map(([job, on]) => [job, new Set(on)]));
const states = (outcomes: Map<string, JobOutcome<string, string>>) =>
  Object.fromEntries([...outcomes].map(([job, o]) => [job, o.state === "blocked" ? `blocked:${o.on}` : o.state]));

Deno.test("runGraph never runs more than `concurrency` jobs and uses every slot", async () => {
  const jobs = Array.from({ length: 20 }, (_, i) => `t${i}`);
  for (const concurrency of [1, 3, 8]) {
    const { log, run } = recorder();
    const outcomes = await runGraph({
      jobs,
      dependencies: new Map(),
      concurrency,
      run,
      isFailure: (r) => r === "failed",
      stopOnFailure: true,
    });
    assertEquals(log.maxActive, concurrency);
    assertEquals(log.started, jobs, "ready jobs start in the given order");
    assert([...outcomes.values()].every((o) => o.state === "finished" && !o.failed));
  }
});

Deno.test("runGraph starts a job only after its dependencies succeeded", async () => {
  const { log, run } = recorder();
  await runGraph({
    jobs: ["lp", "wf", "t1", "t2"],
    dependencies: deps({ lp: ["wf"], wf: ["t1", "t2"] }),
    concurrency: 8,
    run,
    isFailure: (r) => r === "failed",
    stopOnFailure: true,
  });
  assertEquals(log.started, ["t1", "t2", "wf", "lp"]);
});

Deno.test("runGraph blocks the dependents of a failure, naming the direct dependency", async () => {
  const { log, run } = recorder();
  const outcomes = await runGraph({
    jobs: ["bad1", "t2", "wf", "lp", "other"],
    dependencies: deps({ wf: ["bad1", "t2"], lp: ["wf"] }),
    concurrency: 1,
    run,
    isFailure: (r) => r === "failed",
    stopOnFailure: false,
  });
  assertEquals(log.started, ["bad1", "t2", "other"]);
  assertEquals(states(outcomes), {
    bad1: "finished",
    t2: "finished",
    wf: "blocked:bad1",
    lp: "blocked:wf",
    other: "finished",
  });
});

Deno.test("runGraph with stopOnFailure starts nothing after a failure but lets running jobs finish", async () => {
  // The failure ends first, while a and b still run.
  const { log, run } = recorder(20, 1);
  const outcomes = await runGraph({
    jobs: ["a", "bad", "b", "c", "d"],
    dependencies: new Map(),
    concurrency: 3,
    run,
    isFailure: (r) => r === "failed",
    stopOnFailure: true,
  });
  assertEquals(log.started, ["a", "bad", "b"]);
  assertEquals(states(outcomes), {
    a: "finished",
    bad: "finished",
    b: "finished",
    c: "notStarted",
    d: "notStarted",
  });
});

Deno.test("runGraph rethrows a job's error after the running jobs settle", async () => {
  const settled: string[] = [];
  await assertRejects(
    runGraph({
      jobs: ["boom", "slow"],
      dependencies: new Map(),
      concurrency: 2,
      run: async (job) => {
        if (job === "boom") throw new Error("connection lost");
        await new Promise((resolve) => setTimeout(resolve, 20));
        settled.push(job);
        return job;
      },
      isFailure: () => false,
      stopOnFailure: false,
    }),
    /connection lost/,
  );
  assertEquals(settled, ["slow"]);
});

Deno.test("runGraph stops scheduling when the signal aborts", async () => {
  const controller = new AbortController();
  const { log, run } = recorder();
  const outcomes = await runGraph({
    jobs: ["a", "b", "c", "d"],
    dependencies: new Map(),
    concurrency: 2,
    run: async (job) => {
      const result = await run(job);
      controller.abort();
      return result;
    },
    isFailure: () => false,
    stopOnFailure: false,
    signal: controller.signal,
  });
  assertEquals(log.started, ["a", "b"]);
  assertEquals(states(outcomes), { a: "finished", b: "finished", c: "notStarted", d: "notStarted" });
});

Deno.test("runGraph runs a dependency cycle in job order instead of hanging", async () => {
  const { log, run } = recorder(1);
  await runGraph({
    jobs: ["x", "y", "z"],
    dependencies: deps({ x: ["y"], y: ["x"], z: ["x"] }),
    concurrency: 4,
    run,
    isFailure: () => false,
    stopOnFailure: true,
  });
  assertEquals(log.started, ["x", "y", "z"]);
});

Deno.test("runGraph refuses a concurrency below 1", () => {
  const options = { jobs: [], dependencies: new Map(), run: () => Promise.resolve(0), isFailure: () => false };
  assertThrows(() => runGraph({ ...options, concurrency: 0, stopOnFailure: true }), RangeError);
  assertThrows(() => runGraph({ ...options, concurrency: 1.5, stopOnFailure: true }), RangeError);
});

Deno.test("runGraph starts the ready job with the longest chain of dependents first, then in given order", async () => {
  const { log, run } = recorder(1);
  await runGraph({
    // t3 feeds a workflow that feeds a launch plan; t1 and t2 feed nothing.
    jobs: ["t1", "t2", "t3", "wf", "lp"],
    dependencies: deps({ wf: ["t3"], lp: ["wf"] }),
    concurrency: 1,
    run,
    isFailure: (r) => r === "failed",
    stopOnFailure: true,
  });
  // Once wf has run, lp, t1 and t2 all end their chains: given order decides.
  assertEquals(log.started, ["t3", "wf", "t1", "t2", "lp"]);
});

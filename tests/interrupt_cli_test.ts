/**
 * Ctrl-C (SIGINT) ends every command that calls the admin at once, whatever call it is waiting on: a fresh fctl
 * process under the declared permissions, an admin that would take a minute to answer, one SIGINT as soon as the
 * admin has received the call; the run exits 130 with one line on stderr and nothing on stdout, well before the
 * admin would have answered, and nothing is changed.
 */
import { equal, match, ok } from "node:assert/strict";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { type Sandbox, SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { fctlMain, SUBPROCESS_HOME } from "./helpers.ts";
import { registerCore, withFullAdmin } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];
const TASK = "core.flyte_basics.lp.greet";
const LAUNCH_PLAN = "core.flyte_basics.lp.go_greet";
const WORKFLOW = "core.flyte_basics.basic_workflow.my_wf";
/** An execution that never ends, so that it can be waited for, updated and terminated. */
const EXECUTION = "running";
/** Much longer than any run may take once interrupted: the admin's answer is never waited for. */
const ADMIN_LATENCY_MS = 60_000;
/** A generous bound on the time from the SIGINT to the exit (a loaded machine), far below the admin's latency. */
const EXIT_BOUND_MS = 20_000;

const integer = (value: number) => ({
  value: {
    case: "scalar" as const,
    value: {
      value: { case: "primitive" as const, value: { value: { case: "integer" as const, value: BigInt(value) } } },
    },
  },
});
const text = (value: string) => ({
  value: {
    case: "scalar" as const,
    value: { value: { case: "primitive" as const, value: { value: { case: "stringValue" as const, value } } } },
  },
});

/** A command, and the call of it during which it is interrupted. */
interface Case {
  args: string[];
  /**
   * The RPC during which the run is interrupted (`*`: any), once the admin has received it; the admin is slow to
   * answer every call from the start (see {@link after}).
   */
  method: string;
  /**
   * A call the admin answers at once first (the admin is slow only once it has received this one): for a call
   * that comes after others, such as a wait's later polls.
   */
  after?: string;
  env?: Record<string, string>;
}

/** What an interrupted run did. */
interface Interrupted {
  code: number;
  stdout: string;
  stderr: string;
  /** From the SIGINT to the exit. */
  tookMs: number;
}

/** Resolves once `done()` holds; throws, naming what the admin received, once `exited()` does or after a minute. */
async function until(done: () => boolean, exited: () => boolean, what: () => Promise<string>): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (exited() || Date.now() - started > 60_000) throw new Error(await what());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Runs `fctl <args>` as a fresh process and sends it one SIGINT once the admin has received the case's call. */
async function interrupted(sandbox: Sandbox, { args, method, after, env }: Case): Promise<Interrupted> {
  sandbox.clearRequests();
  sandbox.setLatency(after ? 0 : ADMIN_LATENCY_MS);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...FCTL_RUN_FLAGS, await fctlMain(), ...args],
    env: { HOME: SUBPROCESS_HOME, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  const stderr = new Response(child.stderr).text();
  let exited = false;
  child.status.then(() => void (exited = true));
  const seen = async () =>
    `fctl ${args.join(" ")}: no ${method} call (the admin received ${
      sandbox.requests.map((r) => r.method).join(", ") || "none"
    }): ${await stderr}`;
  let from = 0;
  if (after) {
    await until(() => sandbox.requests.some((r) => r.method === after), () => exited, seen);
    sandbox.setLatency(ADMIN_LATENCY_MS);
    from = sandbox.requests.length;
  }
  await until(
    () => sandbox.requests.slice(from).some((r) => method === "*" || r.method === method),
    () => exited,
    seen,
  );
  const sent = performance.now();
  child.kill("SIGINT");
  const { code } = await child.status;
  const tookMs = performance.now() - sent;
  return { code, stdout: await stdout, stderr: await stderr, tookMs };
}

/** Each case's run ends at the interrupt: exit 130, one line on stderr, nothing on stdout, long before the admin answers. */
async function eachEndsAtOnce(sandbox: Sandbox, cases: readonly Case[]): Promise<void> {
  for (const c of cases) {
    const what = `fctl ${c.args.slice(0, 3).join(" ")} … (in ${c.method})`;
    const run = await interrupted(sandbox, c);
    equal(run.code, 130, `${what}: ${run.stderr}`);
    equal(run.stderr.trim().split("\n").length, 1, `${what}: ${run.stderr}`);
    match(run.stderr, /^Error: interrupted/, what);
    equal(run.stdout, "", `${what}: printed`);
    ok(run.tookMs < EXIT_BOUND_MS, `${what}: exited ${Math.round(run.tookMs)} ms after SIGINT`);
  }
  sandbox.setLatency(0);
}

/** A sandbox with the core package, an execution that never ends, and spec files. */
async function withAdmin(fn: (sandbox: Sandbox, dir: string, endpoint: string[]) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-interrupt-" });
  try {
    await registerCore(sandbox, ["v1"]);
    sandbox.store.executions.plan({ execution: EXECUTION }, { outcome: "never" });
    await withFullAdmin(sandbox, async (admin) => {
      const launchPlan = { project: "flytesnacks", domain: "development", name: WORKFLOW, version: "v1" };
      await admin.createExecution({
        project: "flytesnacks",
        domain: "development",
        name: EXECUTION,
        spec: { launchPlan: { resourceType: ResourceType.LAUNCH_PLAN, ...launchPlan } },
        inputs: { literals: { a: integer(3), b: text("hi") } },
      });
    });
    await Deno.writeTextFile(`${dir}/task.yaml`, `task: ${TASK}\n`);
    await Deno.writeTextFile(
      `${dir}/lp.yaml`,
      `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 7\n  day_of_week: Tuesday\n`,
    );
    await Deno.writeTextFile(`${dir}/project.yaml`, "id: ml\nname: ml\n");
    await fn(sandbox, dir, [...SCOPE, "--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Ctrl-C ends every get command and version at once, whatever call it waits on (exit 130, one line)", async () => {
  await withAdmin(async (sandbox, dir, endpoint) => {
    const get = (kind: string, ...more: string[]) => ["get", kind, ...more, ...endpoint];
    await eachEndsAtOnce(sandbox, [
      { args: get("task"), method: "ListTasks" },
      { args: get("task", TASK, "--version", "v1", "-o", "yaml"), method: "GetTask" },
      { args: get("task", TASK, "--latest", "-o", "json"), method: "ListTasks" },
      { args: get("task", TASK, "--execFile", `${dir}/task_spec.yaml`), method: "ListTasks" },
      { args: get("workflow"), method: "ListNamedEntities" },
      { args: get("workflow", WORKFLOW, "--version", "v1"), method: "GetWorkflow" },
      { args: get("workflow", WORKFLOW, "-o", "dot"), method: "ListWorkflows" },
      { args: get("launchplan"), method: "ListLaunchPlans" },
      { args: get("launchplan", LAUNCH_PLAN, "--latest", "-o", "yaml"), method: "ListLaunchPlans" },
      { args: get("launchplan", LAUNCH_PLAN, "--execFile", `${dir}/lp_spec.yaml`), method: "ListLaunchPlans" },
      { args: get("execution"), method: "ListExecutions" },
      { args: get("execution", EXECUTION), method: "GetExecution" },
      { args: get("execution", EXECUTION, "--details", "-o", "yaml"), method: "GetExecution" },
      { args: get("project"), method: "ListProjects" },
      { args: get("project", "flytesnacks", "-o", "yaml"), method: "GetProject" },
      // The table's first row is fctl's own version, known before any call: it is not printed either.
      { args: ["version", ...endpoint], method: "GetVersion" },
    ]);
    for (const file of ["task_spec.yaml", "lp_spec.yaml"]) {
      ok(!(await Deno.stat(`${dir}/${file}`).catch(() => undefined)), `${file} was written`);
    }
  });
});

Deno.test("Ctrl-C ends every command that changes something at once, and nothing is changed (exit 130, one line)", async () => {
  await withAdmin(async (sandbox, dir, endpoint) => {
    const run = (...args: string[]) => [...args, ...endpoint];
    const create = (...more: string[]) => run("create", "execution", ...more);
    const update = (kind: string, name: string, ...more: string[]) => run("update", kind, name, ...more, "--force");
    await eachEndsAtOnce(sandbox, [
      { args: create("--execFile", `${dir}/task.yaml`), method: "ListTasks" },
      { args: create("--execFile", `${dir}/lp.yaml`), method: "ListLaunchPlans" },
      { args: create("--execFile", `${dir}/lp.yaml`, "--dryRun"), method: "ListLaunchPlans" },
      { args: create("--relaunch", EXECUTION), method: "RelaunchExecution" },
      { args: create("--recover", EXECUTION), method: "RecoverExecution" },
      { args: run("delete", "execution", EXECUTION), method: "TerminateExecution" },
      { args: update("execution", EXECUTION, "--archive"), method: "GetExecution" },
      { args: update("launchplan", LAUNCH_PLAN, "--version", "v1", "--deactivate"), method: "GetLaunchPlan" },
      { args: update("project", "flytesnacks", "--archive"), method: "GetProject" },
      { args: update("task-meta", TASK, "--archive"), method: "GetNamedEntity" },
      { args: update("workflow-meta", WORKFLOW, "--archive"), method: "GetNamedEntity" },
      { args: update("launchplan-meta", LAUNCH_PLAN, "--archive"), method: "GetNamedEntity" },
      { args: run("create", "project", "--file", `${dir}/project.yaml`), method: "RegisterProject" },
    ]);
    const executions = sandbox.store.executions.summaries();
    equal(executions.length, 1, JSON.stringify(executions));
    equal(executions[0].phase, "RUNNING");
    const { projects } = await new Promise<{ projects: unknown[] }>((resolve, reject) =>
      withFullAdmin(sandbox, async (admin) => resolve(await admin.listProjects({}))).catch(reject)
    );
    equal(projects.length, 1, "create project registered one");
  });
});

Deno.test("Ctrl-C ends create execution --wait while a poll waits for the admin (exit 130, one line saying it goes on)", async () => {
  await withAdmin(async (sandbox, dir, endpoint) => {
    sandbox.store.executions.plan({ execution: "waited" }, { outcome: "never" });
    const run = await interrupted(sandbox, {
      args: ["create", "execution", "waited", "--execFile", `${dir}/lp.yaml`, "--wait", ...endpoint],
      // The first poll is answered; the calls after it (its node count, the next poll) wait for a slow admin.
      after: "GetExecution",
      method: "*",
    });
    sandbox.setLatency(0);
    equal(run.code, 130, run.stderr);
    ok(run.tookMs < EXIT_BOUND_MS, `exited ${Math.round(run.tookMs)} ms after SIGINT`);
    match(run.stderr, /\nError: interrupted: stopped waiting; execution waited goes on: terminate it with /);
  });
});

Deno.test("Ctrl-C ends auth status while the admin is asked who you are, against a production admin (TLS, OAuth)", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-interrupt-production-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    // ExternalCommand has a token without a cache: status asks the admin's IdentityService who it belongs to.
    await Deno.writeTextFile(`${dir}/token.sh`, `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, { mode: 0o700 });
    const env = {
      HOME: `${dir}/home`,
      DENO_DIR: `${SUBPROCESS_HOME}/.cache/deno`,
      FLYTE_SECRET: SANDBOX_CLIENT.secret,
    };
    const flags = [...SCOPE, "--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`];
    const secret = [...flags, "--admin.clientSecretEnvVar", "FLYTE_SECRET"];
    const external = [...flags, "--admin.authType", "ExternalCommand", "--admin.command", `${dir}/token.sh`];
    await eachEndsAtOnce(sandbox, [
      { args: ["get", "task", ...secret], method: "ListTasks", env },
      { args: ["auth", "status", ...external], method: "UserInfo", env },
    ]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

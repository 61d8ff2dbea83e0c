/**
 * Ctrl-C (SIGINT) ends every command that calls the admin at once, whatever call it is waiting on: a fresh fctl
 * process under the declared permissions, an admin that would take a minute to answer (every call, or every call
 * after a given one), one SIGINT as soon as the admin has received the call; the run exits 130 with one line on
 * stderr, well before the admin would have answered, prints nothing but what it did before that call, and changes
 * nothing more. Local inputs that create execution uploads, to the data proxy or to storage that never answers, too.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { BlobType_BlobDimensionality } from "../proto/gen/flyteidl/core/types_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { withMuteServer } from "../src/http/_test_mute_server.ts";
import { fctlProcess } from "./helpers.ts";
import {
  CORE_WORKFLOW as WORKFLOW,
  productionProcessEnv,
  registerCore,
  startCoreExecutions,
  withFullAdmin,
} from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];
const TASK = "core.flyte_basics.lp.greet";
const LAUNCH_PLAN = "core.flyte_basics.lp.go_greet";
/** An execution that never ends, so that it can be waited for, updated and terminated. */
const EXECUTION = "running";
/** Much longer than any run may take once interrupted: the admin's answer is never waited for. */
const ADMIN_LATENCY_MS = 60_000;
/** A generous bound on the time from the SIGINT to the exit (a loaded machine), far below the admin's latency. */
const EXIT_BOUND_MS = 20_000;

/** A command, and the call of it during which it is interrupted. */
interface Case {
  args: string[];
  /**
   * The RPC during which the run is interrupted (`*`: any), once the admin has received it; the admin is slow to
   * answer every call from the start, or from the call after {@link after}.
   */
  method: string;
  /** A call the admin answers at once: every call it receives after this one is slow (a command's later calls). */
  after?: string;
  env?: Record<string, string>;
  /** What the run printed before the interrupted call (default nothing). */
  stdout?: string | RegExp;
  /** Its one line on stderr (default `Error: interrupted`). */
  stderr?: RegExp;
}

/** What an interrupted run did. */
interface Interrupted {
  code: number;
  stdout: string;
  stderr: string;
  /** From the SIGINT to the exit. */
  tookMs: number;
}

/**
 * Waits until `done()` holds, then sends `child` one SIGINT. Once `child` has exited, or after a minute, it is ended
 * (if need be) and this throws with what it said and `why()`.
 */
async function interruptWhen(child: Deno.ChildProcess, done: () => boolean, why: () => string): Promise<void> {
  let exited = false;
  child.status.then(() => void (exited = true));
  const started = Date.now();
  while (!done()) {
    if (exited || Date.now() - started > 60_000) {
      if (!exited) child.kill("SIGKILL");
      await child.status;
      throw new Error(`not interrupted: ${why()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill("SIGINT");
}

/**
 * Makes the admin slow from the first call it receives after a call of `after`: the sandbox records each call, then
 * reads its latency, so a latency set as the call is recorded is that call's. Returns the undoing.
 */
function slowAfter(sandbox: Sandbox, after: string): () => void {
  const requests = sandbox.requests;
  const push = requests.push;
  let seen = false;
  requests.push = function (...items) {
    if (seen) sandbox.setLatency(ADMIN_LATENCY_MS);
    seen ||= items.some((r) => r.method === after);
    return push.apply(this, items);
  };
  return () => void (requests.push = push);
}

/** Runs `fctl <args>` as a fresh process and sends it one SIGINT once the admin has received the case's call. */
async function interrupted(sandbox: Sandbox, { args, method, after, env }: Case): Promise<Interrupted> {
  sandbox.clearRequests();
  sandbox.setLatency(after ? 0 : ADMIN_LATENCY_MS);
  const undo = after ? slowAfter(sandbox, after) : () => {};
  try {
    const child = (await fctlProcess(args, env)).spawn();
    const stdout = new Response(child.stdout).text();
    const stderr = new Response(child.stderr).text();
    const received = () => sandbox.requests.map((r) => r.method);
    // The calls the run may be interrupted in: every call from the first slow one.
    const slow = () => {
      const first = after ? received().indexOf(after) + 1 : 0;
      return first > 0 || !after ? received().slice(first) : [];
    };
    await interruptWhen(
      child,
      () => slow().some((m) => method === "*" || m === method),
      () => `fctl ${args.join(" ")}: no slow ${method} call (received ${received().join(", ")})`,
    ).catch(async (err) => {
      throw new Error(`${err.message}: ${await stderr}`);
    });
    const sent = performance.now();
    const { code } = await child.status;
    const tookMs = performance.now() - sent;
    return { code, stdout: await stdout, stderr: await stderr, tookMs };
  } finally {
    undo();
  }
}

/**
 * Each case's run ends at the interrupt: exit 130, one line on stderr, nothing more on stdout, long before the admin
 * answers.
 */
async function eachEndsAtOnce(sandbox: Sandbox, cases: readonly Case[]): Promise<void> {
  for (const c of cases) {
    const what = `fctl ${c.args.slice(0, 3).join(" ")} … (in ${c.method}${c.after ? ` after ${c.after}` : ""})`;
    const run = await interrupted(sandbox, c);
    equal(run.code, 130, `${what}: ${run.stderr}`);
    match(run.stderr, c.stderr ?? /^Error: interrupted\n$/, what);
    equal(run.stderr.trim().split("\n").length, 1, `${what}: ${run.stderr}`);
    if (c.stdout instanceof RegExp) match(run.stdout, c.stdout, `${what}: printed`);
    else equal(run.stdout, c.stdout ?? "", `${what}: printed`);
    ok(run.tookMs < EXIT_BOUND_MS, `${what}: exited ${Math.round(run.tookMs)} ms after SIGINT`);
  }
  sandbox.setLatency(0);
}

/** Tasks taking a file (`f`) and a directory (`d`): copies of the core package's greet with those inputs. */
async function registerBlobTasks(sandbox: Sandbox): Promise<void> {
  const blob = (dimensionality: BlobType_BlobDimensionality) => ({
    type: { type: { case: "blob" as const, value: { format: "", dimensionality } } },
  });
  const tasks: [string, object][] = [
    ["test.file_task", { f: { ...blob(BlobType_BlobDimensionality.SINGLE), description: "f" } }],
    ["test.dir_task", { d: { ...blob(BlobType_BlobDimensionality.MULTIPART), description: "d" } }],
  ];
  await withFullAdmin(sandbox, async (admin) => {
    const scope = { project: "flytesnacks", domain: "development" };
    const greet = await admin.getTask({ id: { resourceType: ResourceType.TASK, ...scope, name: TASK, version: "v1" } });
    const { $typeName: _, ...template } = greet.closure!.compiledTask!.template!;
    for (const [name, variables] of tasks) {
      const id = { resourceType: ResourceType.TASK, ...scope, name, version: "b1" };
      const taskInterface = { inputs: { variables }, outputs: template.interface?.outputs };
      await admin.createTask({ id, spec: { template: { ...template, id, interface: taskInterface } as never } });
    }
  });
}

/** A sandbox with the core package, an execution that never ends, and spec files. */
async function withAdmin(fn: (sandbox: Sandbox, dir: string, endpoint: string[]) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-interrupt-" });
  try {
    await registerCore(sandbox, ["v1"]);
    sandbox.store.executions.plan({ execution: EXECUTION }, { outcome: "never" });
    await startCoreExecutions(sandbox, [EXECUTION]);
    await registerBlobTasks(sandbox);
    await Deno.mkdir(`${dir}/inputs/sub`, { recursive: true });
    await Deno.writeTextFile(`${dir}/inputs/a.txt`, "alpha\n");
    await Deno.writeTextFile(`${dir}/inputs/sub/b.txt`, "beta\n");
    await Deno.writeTextFile(
      `${dir}/file_input.yaml`,
      `task: test.file_task\nversion: b1\ninputs:\n  f: ${dir}/inputs/a.txt\n`,
    );
    await Deno.writeTextFile(
      `${dir}/dir_input.yaml`,
      `task: test.dir_task\nversion: b1\ninputs:\n  d: ${dir}/inputs\n`,
    );
    await Deno.writeTextFile(`${dir}/task.yaml`, `task: ${TASK}\n`);
    const lp = `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 7\n  day_of_week: Tuesday\n`;
    await Deno.writeTextFile(`${dir}/lp.yaml`, lp);
    // Every input of a task is required: without them the run would stop before CreateExecution.
    await Deno.writeTextFile(
      `${dir}/task_v1.yaml`,
      `task: ${TASK}\nversion: v1\ninputs:\n  am: true\n  day_of_week: Monday\n  number: 1\n`,
    );
    await Deno.writeTextFile(`${dir}/lp_v1.yaml`, `${lp}version: v1\n`);
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

Deno.test("Ctrl-C ends a command at once in any of its later calls too, and nothing more is changed (exit 130, one line)", async () => {
  await withAdmin(async (sandbox, dir, endpoint) => {
    const run = (...args: string[]) => [...args, ...endpoint];
    const get = (kind: string, ...more: string[]) => run("get", kind, ...more);
    const update = (kind: string, name: string, ...more: string[]) => run("update", kind, name, ...more, "--force");
    // What an update shows before it applies the change.
    const diff = /^The following changes are to be applied\.\n--- before\n\+\+\+ after\n[^]*\n$/;
    sandbox.store.executions.plan({ execution: "waited" }, { outcome: "never" });
    // Listed oldest first, the versions do not say which is the newest: the spec file asks for it.
    const oldestFirst = ["--filter.asc", "--execFile"];
    await eachEndsAtOnce(sandbox, [
      { args: get("task", TASK, ...oldestFirst, `${dir}/task_spec.yaml`), after: "ListTasks", method: "ListTasks" },
      {
        args: get("launchplan", LAUNCH_PLAN, ...oldestFirst, `${dir}/lp_spec.yaml`),
        after: "ListLaunchPlans",
        method: "ListLaunchPlans",
      },
      { args: get("execution", EXECUTION, "--details"), after: "GetExecution", method: "ListNodeExecutions" },
      { args: get("execution", EXECUTION, "--details"), after: "ListNodeExecutions", method: "*" },
      {
        args: run("create", "execution", "--execFile", `${dir}/task_v1.yaml`),
        after: "GetTask",
        method: "CreateExecution",
      },
      {
        args: run("create", "execution", "--execFile", `${dir}/lp_v1.yaml`),
        after: "GetLaunchPlan",
        method: "CreateExecution",
      },
      {
        args: update("execution", EXECUTION, "--archive"),
        after: "GetExecution",
        method: "UpdateExecution",
        stdout: diff,
      },
      {
        // Activating reads the version active now too, for the change it shows.
        args: update("launchplan", LAUNCH_PLAN, "--version", "v1", "--activate"),
        after: "GetActiveLaunchPlan",
        method: "UpdateLaunchPlan",
        stdout: diff,
      },
      {
        args: update("project", "flytesnacks", "--archive"),
        after: "GetProject",
        method: "UpdateProject",
        stdout: diff,
      },
      {
        args: update("task-meta", TASK, "--archive"),
        after: "GetNamedEntity",
        method: "UpdateNamedEntity",
        stdout: diff,
      },
      // A local file or directory given as a blob input is uploaded before the execution is created.
      {
        args: run("create", "execution", "--execFile", `${dir}/file_input.yaml`),
        after: "GetTask",
        method: "CreateUploadLocation",
      },
      {
        args: run("create", "execution", "--execFile", `${dir}/dir_input.yaml`),
        after: "GetTask",
        method: "CreateUploadLocation",
      },
      // The first poll is answered; the calls after it (its node count, the next poll) wait for a slow admin.
      {
        args: run("create", "execution", "waited", "--execFile", `${dir}/lp_v1.yaml`, "--wait"),
        after: "GetExecution",
        method: "*",
        stdout: `execution identifier project:"flytesnacks" domain:"development" name:"waited"\n`,
        stderr:
          /^Error: interrupted: stopped waiting; execution waited goes on: terminate it with fctl delete execution /,
      },
      // The first execution is terminated (and said so); the interrupt ends the second's call.
      {
        args: run("delete", "execution", EXECUTION, "another"),
        after: "TerminateExecution",
        method: "TerminateExecution",
        stdout: `terminated ${EXECUTION}\n`,
      },
    ]);
    for (const file of ["task_spec.yaml", "lp_spec.yaml"]) {
      ok(!(await Deno.stat(`${dir}/${file}`).catch(() => undefined)), `${file} was written`);
    }
    const phases = sandbox.store.executions.summaries().map((e) => [e.name, e.phase]).sort();
    deepEqual(phases, [[EXECUTION, "ABORTED"], ["waited", "RUNNING"]]);
  });
});

Deno.test("Ctrl-C ends auth status while the admin is asked who you are, against a production admin (TLS, OAuth)", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-interrupt-production-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    // ExternalCommand has a token without a cache: status asks the admin's IdentityService who it belongs to.
    await Deno.writeTextFile(`${dir}/token.sh`, `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, { mode: 0o700 });
    const env = productionProcessEnv(`${dir}/home`);
    // A HOME of its own: no token cached by an earlier case.
    const fresh = (name: string) => ({ ...env, HOME: `${dir}/home-${name}` });
    const flags = [...SCOPE, "--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`];
    const secret = [...flags, "--admin.clientSecretEnvVar", "FLYTE_SECRET"];
    const external = [...flags, "--admin.authType", "ExternalCommand", "--admin.command", `${dir}/token.sh`];
    await eachEndsAtOnce(sandbox, [
      { args: ["get", "task", ...secret], method: "ListTasks", env },
      // No token cached: the admin refuses the first ListTasks, and discovery's calls wait for a slow admin.
      {
        args: ["get", "task", ...secret],
        after: "ListTasks",
        method: "GetPublicClientConfig",
        env: fresh("discovery"),
      },
      { args: ["auth", "status", ...external], method: "UserInfo", env },
    ]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Ctrl-C ends create execution at once while a local input is written to storage that does not answer", async () => {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-interrupt-storage-" });
  try {
    await registerCore(sandbox, ["v1"]);
    await registerBlobTasks(sandbox);
    await Deno.mkdir(`${dir}/inputs`);
    await Deno.writeTextFile(`${dir}/inputs/a.txt`, "alpha\n");
    await Deno.writeTextFile(
      `${dir}/file.yaml`,
      `task: test.file_task\nversion: b1\ninputs:\n  f: ${dir}/inputs/a.txt\n`,
    );
    await Deno.writeTextFile(`${dir}/dir.yaml`, `task: test.dir_task\nversion: b1\ninputs:\n  d: ${dir}/inputs\n`);
    for (const spec of ["file.yaml", "dir.yaml"]) {
      // The admin has no upload location to give, as one without a data proxy: local inputs go to the configured
      // storage, here one that takes the connection and never answers.
      sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
      await withMuteServer(async (storage) => {
        const child = (await fctlProcess([
          ...["create", "execution", "--execFile", `${dir}/${spec}`, ...SCOPE, "--admin.endpoint", sandbox.endpoint],
          ...["--storage.type", "s3", "--storage.connection.endpoint", storage.url, "--storage.container", "inputs"],
          ...["--storage.connection.auth-type", "accesskey", "--storage.connection.access-key", "key"],
          ...["--storage.connection.secret-key", "not-a-secret"],
        ])).spawn();
        const stdout = new Response(child.stdout).text();
        const stderr = new Response(child.stderr).text();
        await interruptWhen(child, () => storage.connections() > 0, () => `${spec}: no upload`).catch(async (err) => {
          throw new Error(`${err.message}: ${await stderr}`);
        });
        const sent = performance.now();
        const { code } = await child.status;
        const tookMs = performance.now() - sent;
        equal(code, 130, `${spec}: ${await stderr}`);
        equal(await stderr, "Error: interrupted\n", spec);
        equal(await stdout, "", spec);
        ok(tookMs < EXIT_BOUND_MS, `${spec}: exited ${Math.round(tookMs)} ms after SIGINT`);
      });
    }
    equal(sandbox.store.executions.summaries().length, 0);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

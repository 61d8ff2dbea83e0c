/**
 * `update launchplan` and `update execution`: the requests they send, the before/after they show, "No changes
 * detected", `--dryRun` sending no update, the question on a terminal (`y` applies, anything else aborts), the
 * refusal when stdin is not a terminal and `--force` is missing, usage errors before any call, and fresh
 * processes against a production admin.
 */
import { deepEqual, equal } from "node:assert/strict";
import type { ObjectGetRequest } from "../proto/gen/flyteidl/admin/common_pb.ts";
import type { ExecutionUpdateRequest } from "../proto/gen/flyteidl/admin/execution_pb.ts";
import type { LaunchPlanUpdateRequest } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { runCli } from "../src/cli/run.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { captureIo, fixture, runFctl, runFctlProcess } from "./helpers.ts";
import { CORE_WORKFLOW as WF, registerCore, runProductionProcess, startCoreExecutions } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

async function startExecution(sandbox: Sandbox, name: string): Promise<void> {
  await startCoreExecutions(sandbox, [name]);
  sandbox.clearRequests();
}

/** The admin requests: method and what identifies the entity, with the state an update sends. */
function calls(sandbox: Sandbox): unknown[] {
  return sandbox.requests.map(({ method, request }) => {
    switch (method) {
      case "GetLaunchPlan": {
        const id = (request as ObjectGetRequest).id!;
        return [method, id.name, id.version];
      }
      case "UpdateLaunchPlan": {
        const r = request as LaunchPlanUpdateRequest;
        return [method, r.id?.resourceType, r.id?.project, r.id?.domain, r.id?.name, r.id?.version, r.state];
      }
      case "UpdateExecution": {
        const r = request as ExecutionUpdateRequest;
        return [method, r.id?.project, r.id?.domain, r.id?.name, r.state];
      }
      default:
        return [method, (request as { id?: { name?: string } }).id?.name];
    }
  });
}

async function withCore(fn: (sandbox: Sandbox, endpoint: string[]) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  try {
    await registerCore(sandbox, ["v1"]);
    await fn(sandbox, [...SCOPE, "--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
  }
}

/** Runs fctl in-process with a terminal on stdin that answers `answer`. */
async function runOnTerminal(args: string[], answer: string | null) {
  const io = { ...captureIo(), stdinIsTerminal: true, readLine: () => Promise.resolve(answer) };
  const code = await runCli(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

const CHANGE = (before: string, after: string) =>
  `The following changes are to be applied.\n--- before\n+++ after\n-state: ${before}\n+state: ${after}\n`;

Deno.test("update launchplan: GetLaunchPlan then UpdateLaunchPlan with the state; no change sends nothing", async () => {
  await withCore(async (sandbox, endpoint) => {
    const lp = ["update", "launchplan", WF, "--version", "v1", ...endpoint];
    const activate = await runFctl([...lp, "--activate", "--force"]);
    deepEqual([activate.code, activate.stderr], [0, ""]);
    equal(activate.stdout, CHANGE("INACTIVE", "ACTIVE") + `updated launch plan ${WF} version v1 to ACTIVE\n`);
    deepEqual(calls(sandbox), [
      ["GetLaunchPlan", WF, "v1"],
      // Which version activating this one deactivates (none here).
      ["GetActiveLaunchPlan", WF],
      ["UpdateLaunchPlan", ResourceType.LAUNCH_PLAN, "flytesnacks", "development", WF, "v1", 1],
    ]);
    sandbox.clearRequests();
    const again = await runFctl([...lp, "--activate", "--force"]);
    deepEqual([again.code, again.stdout], [0, "No changes detected. Skipping the update.\n"]);
    deepEqual(calls(sandbox), [["GetLaunchPlan", WF, "v1"]]);
    sandbox.clearRequests();
    const dry = await runFctl([...lp, "--deactivate", "--dryRun"]);
    deepEqual([dry.code, dry.stdout], [
      0,
      CHANGE("ACTIVE", "INACTIVE") + "skipping UpdateLaunchPlan request (dryRun)\n",
    ]);
    deepEqual(calls(sandbox), [["GetLaunchPlan", WF, "v1"]]);
    sandbox.clearRequests();
    const archive = await runFctl([...lp, "--archive", "--force"]);
    deepEqual([archive.code, archive.stderr], [0, "warning: --archive is deprecated: use --deactivate\n"]);
    deepEqual(calls(sandbox).at(-1), [
      "UpdateLaunchPlan",
      ResourceType.LAUNCH_PLAN,
      "flytesnacks",
      "development",
      WF,
      "v1",
      0,
    ]);
  });
});

Deno.test("update launchplan and execution: bad input is one usage line (exit 2) before any call", async () => {
  await withCore(async (sandbox, endpoint) => {
    const cases: [string[], string][] = [
      [["update", "launchplan", WF, "--version", "v1"], "invalid state passed. Specify either activate or deactivate"],
      [
        ["update", "launchplan", WF, "--version", "v1", "--activate", "--deactivate"],
        "invalid state passed. Specify either activate or deactivate",
      ],
      [["update", "launchplan", WF, "--activate"], "launch plan version wasn't passed: add --version <version>"],
      [["update", "execution", "run-a"], "invalid state passed. Specify either --archive or --activate"],
      [
        ["update", "execution", "run-a", "--archive", "--activate"],
        "invalid state passed. Specify either --archive or --activate",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runFctl([...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", `Error: ${message}\n`], args.join(" "));
    }
    deepEqual(sandbox.requests, []);
    const missing = await runFctl([
      "update",
      "launchplan",
      WF,
      "--version",
      "v9",
      "--activate",
      "--force",
      ...endpoint,
    ]);
    deepEqual([missing.code, missing.stderr], [
      1,
      `Error: launch plan "${WF}" version "v9" not found in project "flytesnacks", domain "development"\n`,
    ]);
  });
});

Deno.test("update execution: archives and activates with UpdateExecution, asking on a terminal first", async () => {
  await withCore(async (sandbox, endpoint) => {
    await startExecution(sandbox, "run-a");
    const archive = ["update", "execution", "run-a", "--archive", ...endpoint];
    const refused = await runOnTerminal(archive, "n");
    equal(refused.code, 1);
    equal(refused.stderr, 'Continue? [y/n]: Error: update of execution "run-a" aborted by user\n');
    deepEqual(calls(sandbox), [["GetExecution", "run-a"]]);
    sandbox.clearRequests();
    const ended = await runOnTerminal(archive, null);
    equal(ended.code, 1);
    deepEqual(calls(sandbox), [["GetExecution", "run-a"]]);
    sandbox.clearRequests();
    const yes = await runOnTerminal(archive, "yes");
    deepEqual([yes.code, yes.stderr], [0, "Continue? [y/n]: "]);
    equal(
      yes.stdout,
      CHANGE("EXECUTION_ACTIVE", "EXECUTION_ARCHIVED") + "updated execution run-a to EXECUTION_ARCHIVED\n",
    );
    deepEqual(calls(sandbox), [["GetExecution", "run-a"], [
      "UpdateExecution",
      "flytesnacks",
      "development",
      "run-a",
      1,
    ]]);
    sandbox.clearRequests();
    const activate = await runFctl(["update", "execution", "run-a", "--activate", "--dryRun", ...endpoint]);
    equal(
      activate.stdout,
      CHANGE("EXECUTION_ARCHIVED", "EXECUTION_ACTIVE") + "skipping UpdateExecution request (dryRun)\n",
    );
    deepEqual(calls(sandbox), [["GetExecution", "run-a"]]);
    const missing = await runFctl(["update", "execution", "ghost", "--archive", "--force", ...endpoint]);
    deepEqual([missing.code, missing.stderr], [
      1,
      'Error: execution "ghost" not found in project "flytesnacks", domain "development"\n',
    ]);
  });
});

Deno.test("production admin: update as fresh processes; piped without --force refuses in one line, --force applies", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    await startExecution(sandbox, "prod-run");
    const piped = await runProductionProcess(sandbox, ["update", "execution", "prod-run", "--archive"]);
    equal(piped.code, 2);
    equal(
      piped.stderr,
      'Error: update of execution "prod-run" not applied: stdin is not a terminal to answer "Continue? [y/n]"; ' +
        "add --force\n",
    );
    deepEqual(sandbox.requests.filter(({ method }) => method === "UpdateExecution"), []);
    const forced = await runProductionProcess(sandbox, ["update", "execution", "prod-run", "--archive", "--force"]);
    deepEqual([forced.code, forced.stderr], [0, ""]);
    deepEqual(calls(sandbox).at(-1), ["UpdateExecution", "flytesnacks", "development", "prod-run", 1]);
    const lp = await runProductionProcess(sandbox, [
      "update",
      "launchplan",
      WF,
      "--version",
      "v1",
      "--activate",
      "--force",
    ]);
    deepEqual([lp.code, lp.stderr], [0, ""]);
    deepEqual(calls(sandbox).at(-1), [
      "UpdateLaunchPlan",
      ResourceType.LAUNCH_PLAN,
      "flytesnacks",
      "development",
      WF,
      "v1",
      1,
    ]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("update launchplan --activate shows the version it deactivates, as the admin will", async () => {
  const sandbox = await startSandbox();
  try {
    await registerCore(sandbox, ["v1", "v2"]);
    const lp = ["update", "launchplan", WF, ...SCOPE, "--admin.endpoint", sandbox.endpoint];
    const first = await runFctlProcess([...lp, "--version", "v1", "--activate", "--force"]);
    deepEqual([first.code, first.stderr], [0, ""]);
    equal(first.stdout, CHANGE("INACTIVE", "ACTIVE") + `updated launch plan ${WF} version v1 to ACTIVE\n`);
    const second = await runFctlProcess([...lp, "--version", "v2", "--activate", "--dryRun"]);
    deepEqual([second.code, second.stderr], [0, ""]);
    equal(
      second.stdout,
      CHANGE("INACTIVE", "ACTIVE") + "-active version: v1\n+active version: v2\n" +
        "skipping UpdateLaunchPlan request (dryRun)\n",
    );
  } finally {
    await sandbox.close();
  }
});

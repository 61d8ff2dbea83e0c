/**
 * `update task-meta|workflow-meta|launchplan-meta`: GetNamedEntity then UpdateNamedEntity with the whole metadata,
 * a description alone keeping an archived name archived (flytectl un-archives it), `--dryRun`, usage errors before
 * any call, and a fresh process against a production admin.
 */
import { deepEqual, equal } from "node:assert/strict";
import type { NamedEntityUpdateRequest } from "../proto/gen/flyteidl/admin/common_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl } from "./helpers.ts";
import { CORE_WORKFLOW as WF, registerCore, runProductionProcess } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

function calls(sandbox: Sandbox): unknown[] {
  return sandbox.requests.map(({ method, request }) => {
    const r = request as NamedEntityUpdateRequest;
    const id = [r.resourceType, r.id?.project, r.id?.domain, r.id?.name];
    return method === "UpdateNamedEntity"
      ? [method, ...id, r.metadata?.description, r.metadata?.state]
      : [method, ...id];
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

Deno.test("update workflow-meta and launchplan-meta send the whole metadata; a description never un-archives", async () => {
  await withCore(async (sandbox, endpoint) => {
    const get = ["GetNamedEntity", ResourceType.WORKFLOW, "flytesnacks", "development", WF];
    const archived = await runFctl(["update", "workflow-meta", WF, "--archive", "--force", ...endpoint]);
    equal(archived.code, 0, archived.stderr);
    equal(
      archived.stdout,
      "The following changes are to be applied.\n--- before\n+++ after\n" +
        "-state: NAMED_ENTITY_ACTIVE\n+state: NAMED_ENTITY_ARCHIVED\n" + `updated workflow ${WF}\n`,
    );
    deepEqual(calls(sandbox), [get, [
      "UpdateNamedEntity",
      ResourceType.WORKFLOW,
      "flytesnacks",
      "development",
      WF,
      "",
      1,
    ]]);
    sandbox.clearRequests();
    const described = await runFctl(["update", "workflow-meta", WF, "--description", "adds", "--force", ...endpoint]);
    equal(described.code, 0, described.stderr);
    deepEqual(calls(sandbox), [
      get,
      ["UpdateNamedEntity", ResourceType.WORKFLOW, "flytesnacks", "development", WF, "adds", 1],
    ]);
    sandbox.clearRequests();
    const dry = await runFctl(["update", "launchplan-meta", WF, "--description", "lp", "--dryRun", ...endpoint]);
    equal(dry.stdout.endsWith("skipping UpdateNamedEntity request (dryRun)\n"), true, dry.stdout);
    deepEqual(calls(sandbox), [["GetNamedEntity", ResourceType.LAUNCH_PLAN, "flytesnacks", "development", WF]]);
    sandbox.clearRequests();
    for (
      const [args, message] of [
        [
          ["update", "task-meta", "t", "--archive", "--activate"],
          "invalid state passed. Specify either --archive or --activate",
        ],
        [["update", "task-meta", "t"], "nothing to update: add --archive, --activate or --description"],
      ] as const
    ) {
      const result = await runFctl([...args, ...endpoint]);
      deepEqual([result.code, result.stderr], [2, `Error: ${message}\n`]);
    }
    deepEqual(sandbox.requests, []);
    const missing = await runFctl(["update", "task-meta", "ghost", "--archive", "--force", ...endpoint]);
    deepEqual([missing.code, missing.stderr], [
      1,
      'Error: task "ghost" not found in project "flytesnacks", domain "development"\n',
    ]);
  });
});

Deno.test("production admin: update workflow-meta as a fresh process (TLS, OAuth, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    const result = await runProductionProcess(sandbox, ["update", "workflow-meta", WF, "--archive", "--force"]);
    deepEqual([result.code, result.stderr], [0, ""]);
    deepEqual(calls(sandbox).at(-1), [
      "UpdateNamedEntity",
      ResourceType.WORKFLOW,
      "flytesnacks",
      "development",
      WF,
      "",
      1,
    ]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("update *-meta refuses a description FlyteAdmin would not keep (over 300 characters, or empty), before any call", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    for (const command of ["task-meta", "workflow-meta", "launchplan-meta"]) {
      const result = await runProductionProcess(sandbox, ["update", command, WF, "--description", "d".repeat(301)]);
      deepEqual([result.code, result.stdout, result.stderr], [
        2,
        "",
        "Error: description of 301 characters: at most 300 (FlyteAdmin keeps no more)\n",
      ]);
    }
    // FlyteAdmin writes the metadata skipping its empty fields: "updated" would be a lie.
    const empty = await runProductionProcess(sandbox, ["update", "task-meta", WF, "--description", ""]);
    deepEqual([empty.code, empty.stdout, empty.stderr], [
      2,
      "",
      'Error: invalid value "" for --description: FlyteAdmin keeps a task\'s description when sent an empty one, so ' +
      "it cannot be cleared; give a new description\n",
    ]);
    deepEqual(sandbox.requests, []);
  } finally {
    await sandbox.close();
  }
});

/**
 * Where FlyteAdmin says no to the project or domain: `register files` and `create execution` into a project the
 * admin does not have (a fresh admin has only its seed, flytesnacks), an archived one, or a domain it does not
 * know, as fresh processes against the production-shaped admin (TLS, OAuth). Each fails with exit 1 naming the
 * project or domain in FlyteAdmin's words, no stack trace, nothing created; `get task` there finds nothing.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { runProductionProcess, seedProjects } from "./entity_fixtures.ts";
import { fixture } from "./helpers.ts";

const UNKNOWN = "failed to validate that project [nope] and domain [development] are registered, " +
  "err: [project [nope] not found]";

async function withProductionSandbox(fn: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ production: true });
  try {
    await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

const stored = (sandbox: Sandbox) =>
  sandbox.store.tasks().length + sandbox.store.workflows().length + sandbox.store.launchPlans().length;

Deno.test("register files into a project the admin does not have fails (exit 1) naming it, nothing registered", async () => {
  await withProductionSandbox(async (sandbox) => {
    const args = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    const result = await runProductionProcess(sandbox, args, "nope");
    equal(result.code, 1, result.stderr);
    equal(stored(sandbox), 0);
    const lines = result.stderr.trimEnd().split("\n");
    assert(!/\bat \S+:\d+:\d+/.test(result.stderr), result.stderr);
    match(lines.at(-1)!, /^Error: \d+ of 84 files failed to register$/);
    for (const line of lines.slice(0, -1)) {
      assert(line.endsWith(UNKNOWN) || /^failed: and \d+ more/.test(line), line);
    }
    // Created through the admin, as a user would, the project takes the same package.
    await seedProjects(sandbox, [{ id: "nope" }]);
    const again = await runProductionProcess(sandbox, args, "nope");
    deepEqual([again.code, again.stderr], [0, ""]);
    equal(stored(sandbox), 83, "the package's entities (two of its 84 files hold the same task)");
  });
});

Deno.test("create execution into an unknown or archived project or an unknown domain: one line naming it, exit 1", async () => {
  await withProductionSandbox(async (sandbox) => {
    const dir = await Deno.makeTempDir({ prefix: "fctl-unknown-project-" });
    try {
      const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
      equal((await runProductionProcess(sandbox, register)).code, 0);
      await seedProjects(sandbox, [{ id: "old", archived: true }]);
      const execFile = `${dir}/exec.yaml`;
      const launchPlan = "core.flyte_basics.hello_world.my_wf";
      const written = await runProductionProcess(sandbox, [
        "get",
        "launchplan",
        launchPlan,
        "--latest",
        "--execFile",
        execFile,
      ]);
      equal(written.code, 0, written.stderr);
      const create = ["create", "execution", "--execFile", execFile];
      const cases: [string[], string][] = [
        [["--targetProject", "nope"], UNKNOWN],
        [["--targetProject", "old"], "project [old] is not active"],
        [["--targetDomain", "qa"], "domain [qa] is unrecognized by system"],
      ];
      for (const [flags, message] of cases) {
        const result = await runProductionProcess(sandbox, [...create, ...flags]);
        deepEqual(
          [result.code, result.stdout, result.stderr],
          [1, "", `Error: CreateExecution failed: InvalidArgument: ${message}\n`],
          flags.join(" "),
        );
      }
      deepEqual(sandbox.store.executions.summaries(), []);
      // Reading a project the admin does not have is no error to FlyteAdmin: nothing is there.
      const listed = await runProductionProcess(sandbox, ["get", "task", "-o", "json"], "nope");
      deepEqual([listed.code, listed.stdout.trim(), listed.stderr], [0, "[]", ""]);
      const one = await runProductionProcess(sandbox, ["get", "task", "core.flyte_basics.task_cache.square"], "nope");
      deepEqual([one.code, one.stderr], [
        1,
        'Error: task "core.flyte_basics.task_cache.square" not found in project "nope", domain "development"\n',
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

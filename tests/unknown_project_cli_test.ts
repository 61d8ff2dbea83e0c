/**
 * Where FlyteAdmin says no to the project or domain: `register files` and `create execution` into a project the
 * admin does not have (a fresh admin has only its seed, flytesnacks), an archived one, or a domain it does not
 * know, as fresh processes against the production-shaped admin (TLS, OAuth). Each fails with exit 1 and one line
 * naming the project or domain (a registration: what to do about it, and it stops at the first refusal), no stack
 * trace, nothing created; `get task` there finds nothing.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
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

/** Cells of the data rows of a results table (`| a | b | c |` lines after the header). */
const tableRows = (stdout: string) =>
  stdout.split("\n").filter((l) => l.startsWith("|")).slice(1).map((l) =>
    l.split("|").slice(1, -1).map((c) => c.trim())
  );

const creates = (sandbox: Sandbox) =>
  sandbox.requests.filter((r) => /^Create(Task|Workflow|LaunchPlan)$/.test(r.method)).length;

const CORE_ARGS = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];

/**
 * A refused registration's rows (name, status, info): a Failed row with the admin's refusal for each create sent,
 * and the rest not registered for that reason or because what they depend on was not; nothing registered.
 */
function assertRefusedRows(rows: string[][], refusal: string, notRegistered: string, sent: number): void {
  equal(rows.length, 84);
  const failed = rows.filter((r) => r[1] === "Failed");
  equal(failed.length, sent, "a Failed row for each create the admin refused, no more");
  for (const [name, status, info] of rows) {
    if (status === "Failed") equal(info, `Error registering file due to ${refusal}`, name);
    else {
      equal(status, "Skipped", name);
      assert(
        info === notRegistered || /^Not registered: depends on \S+, which (failed|was not registered)$/.test(info),
        info,
      );
    }
  }
}

Deno.test("register files into a project the admin does not have: one line naming it and how to create it, exit 1; created so, it goes in", async () => {
  await withProductionSandbox(async (sandbox) => {
    const result = await runProductionProcess(sandbox, CORE_ARGS, "nope");
    const create = "fctl create project --id nope --name nope";
    deepEqual([result.code, result.stderr], [
      1,
      `Error: project "nope" does not exist on the admin: none of the 84 files was registered; create it with: ${create}\n`,
    ]);
    equal(stored(sandbox), 0);
    assertRefusedRows(
      tableRows(result.stdout),
      UNKNOWN,
      "Not registered: project nope does not exist",
      creates(sandbox),
    );

    // The line's own advice, run as it says, and the same package goes in.
    const created = await runProductionProcess(sandbox, create.split(" ").slice(1), "nope");
    equal(created.code, 0, created.stderr);
    const again = await runProductionProcess(sandbox, CORE_ARGS, "nope");
    deepEqual([again.code, again.stderr], [0, ""]);
    equal(stored(sandbox), 83, "the package's entities (two of its 84 files hold the same task)");
  });
});

Deno.test("register files into a project id the admin could never create: one line saying what a project id is, no create command, exit 1", async () => {
  await withProductionSandbox(async (sandbox) => {
    const result = await runProductionProcess(sandbox, CORE_ARGS, "My Proj");
    deepEqual([result.code, result.stderr], [
      1,
      'Error: project "My Proj" does not exist on the admin: none of the 84 files was registered; ' +
      "check -p: a project id is lower case letters, digits and '-' (not first or last), at most 63 characters\n",
    ]);
    equal(stored(sandbox), 0);
  });
});

Deno.test("an archived project or an unknown domain stops the registration at the first refusal, --continueOnError or not", async () => {
  await withProductionSandbox(async (sandbox) => {
    await seedProjects(sandbox, [{ id: "old", archived: true }]);
    // One create at a time: the first one's refusal is the only create sent.
    const args = [...CORE_ARGS, "--continueOnError", "--concurrency", "1"];
    const archived = await runProductionProcess(sandbox, args, "old");
    const activate = "fctl update project old --activate";
    deepEqual([archived.code, archived.stderr], [
      1,
      `Error: project "old" is not active (archived) on the admin: none of the 84 files was registered; ` +
      `activate it with: ${activate}\n`,
    ]);
    equal(creates(sandbox), 1);
    assertRefusedRows(
      tableRows(archived.stdout),
      "project [old] is not active",
      "Not registered: project old is not active",
      1,
    );

    sandbox.clearRequests();
    const qa = await runProductionProcess(sandbox, [...args, "-o", "json"], "flytesnacks", "qa");
    const line = 'domain "qa" is not one the admin has (development, staging, production): ' +
      "none of the 84 files was registered; register into one of its domains with -d";
    deepEqual([qa.code, qa.stderr], [1, `Error: ${line}\n`]);
    equal(creates(sandbox), 1);
    const report = JSON.parse(qa.stdout);
    deepEqual([report.failed, report.error, report.entries.length], [1, line, 84]);
    const entries = report.entries.map((e: { name: string; status: string; info: string }) => [
      e.name,
      e.status,
      e.info,
    ]);
    assertRefusedRows(
      entries,
      "domain [qa] is unrecognized by system",
      "Not registered: the admin has no domain qa",
      1,
    );
    equal(stored(sandbox), 0);

    // Activated as the line says (--force answers its question, no terminal here), the project takes the package.
    const activated = await runProductionProcess(sandbox, [...activate.split(" ").slice(1), "--force"], "old");
    equal(activated.code, 0, activated.stderr);
    const again = await runProductionProcess(sandbox, CORE_ARGS, "old");
    deepEqual([again.code, again.stderr], [0, ""]);
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
      // As a registration says it: what was refused, that nothing was created, what to do.
      const cases: [string[], string][] = [
        [
          ["--targetProject", "nope"],
          'project "nope" does not exist on the admin: no execution was created; ' +
          "create it with: fctl create project --id nope --name nope",
        ],
        [
          ["--targetProject", "old"],
          'project "old" is not active (archived) on the admin: no execution was created; ' +
          "activate it with: fctl update project old --activate",
        ],
        [
          ["--targetDomain", "qa"],
          'domain "qa" is not one the admin has (development, staging, production): no execution was created; ' +
          "create it in one of its domains with --targetDomain",
        ],
        [
          ["--targetProject", "My Proj"],
          'project "My Proj" does not exist on the admin: no execution was created; check --targetProject: ' +
          "a project id is lower case letters, digits and '-' (not first or last), at most 63 characters",
        ],
      ];
      for (const [flags, message] of cases) {
        const result = await runProductionProcess(sandbox, [...create, ...flags]);
        deepEqual([result.code, result.stdout, result.stderr], [1, "", `Error: ${message}\n`], flags.join(" "));
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

/**
 * `delete execution`: one TerminateExecution per name with the cause, a line per execution, a finished or missing
 * execution named with why while the others are still terminated (exit 1), `--dryRun` sending nothing, and one
 * fresh process against a production admin.
 */
import { deepEqual, equal, match, rejects } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import type { ExecutionTerminateRequest } from "../proto/gen/flyteidl/admin/execution_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl, runFctlProcess } from "./helpers.ts";
import { registerCore, runProductionProcess, startCoreExecutions, withFullAdmin } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

/** Starts executions of the core package's basic workflow: `running` never finish, `finished` succeed at once. */
async function startExecutions(sandbox: Sandbox, running: string[], finished: string[] = []): Promise<void> {
  for (const name of running) sandbox.store.executions.plan({ execution: name }, { outcome: "never" });
  sandbox.store.executions.plan("default", { after: 0 });
  await startCoreExecutions(sandbox, [...running, ...finished]);
}

/** The TerminateExecution requests the sandbox received: project, domain, name and cause. */
function terminations(sandbox: Sandbox): unknown[] {
  return sandbox.requests.filter(({ method }) => method === "TerminateExecution").map(({ request }) => {
    const r = request as ExecutionTerminateRequest;
    return [r.id?.project, r.id?.domain, r.id?.name, r.cause];
  });
}

async function withCore(fn: (sandbox: Sandbox, endpoint: string[]) => Promise<void>): Promise<void> {
  let ms = Date.parse("2026-03-01T00:00:00Z");
  const sandbox = await startSandbox({ now: () => new Date(ms += 1_000) });
  try {
    await registerCore(sandbox, ["v1"]);
    await fn(sandbox, [...SCOPE, "--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
  }
}

Deno.test("delete execution terminates each name with its cause, one line each", async () => {
  await withCore(async (sandbox, endpoint) => {
    await startExecutions(sandbox, ["run-a", "run-b", "run-c"]);
    sandbox.clearRequests();
    const both = await runFctl(["delete", "execution", "run-a", "run-b", ...endpoint]);
    deepEqual([both.code, both.stdout, both.stderr], [0, "terminated run-a\nterminated run-b\n", ""]);
    deepEqual(terminations(sandbox), [
      ["flytesnacks", "development", "run-a", "terminated by fctl"],
      ["flytesnacks", "development", "run-b", "terminated by fctl"],
    ]);
    sandbox.clearRequests();
    const caused = await runFctl(["delete", "executions", "run-c", "--cause", "wrong inputs", ...endpoint]);
    deepEqual([caused.code, caused.stdout], [0, "terminated run-c\n"]);
    deepEqual(terminations(sandbox), [["flytesnacks", "development", "run-c", "wrong inputs"]]);
    const shown = await runFctl(["get", "execution", "run-c", "-o", "json", ...endpoint]);
    match(shown.stdout, /"cause": "wrong inputs"/);
  });
});

Deno.test("delete execution: a finished or missing execution is named with why, the others still terminated, exit 1", async () => {
  await withCore(async (sandbox, endpoint) => {
    await startExecutions(sandbox, ["run-a", "run-b"], ["done"]);
    sandbox.clearRequests();
    const result = await runFctl(["delete", "execution", "done", "run-a", "ghost", "run-b", ...endpoint]);
    equal(result.code, 1);
    equal(result.stdout, "terminated run-a\nterminated run-b\n");
    equal(
      result.stderr,
      'could not terminate done: execution "done" has already finished: only a running execution can be terminated ' +
        "(the admin said: Cannot abort an already terminated workflow execution)\n" +
        'could not terminate ghost: execution "ghost" not found in project "flytesnacks", domain "development"\n' +
        "Error: 2 of 4 executions not terminated: done, ghost\n",
    );
    deepEqual(terminations(sandbox).map((t) => (t as string[])[2]), ["done", "run-a", "ghost", "run-b"]);
  });
});

Deno.test("delete execution: a name with a line break or an escape is shown escaped on every line, never raw", async () => {
  const sandbox = await startSandbox();
  try {
    await registerCore(sandbox, ["v1"]);
    const endpoint = [...SCOPE, "--admin.endpoint", sandbox.endpoint];
    const names = ["a\nb", "c\x1b[31md"];
    const run = await runFctlProcess(["delete", "execution", ...names, ...endpoint]);
    equal(run.code, 1, run.stderr);
    deepEqual(run.stderr.trim().split("\n"), [
      'could not terminate a\\nb: execution "a\\nb" not found in project "flytesnacks", domain "development"',
      'could not terminate c\\x1b[31md: execution "c\\u001b[31md" not found in project "flytesnacks", domain "development"',
      "Error: 2 of 2 executions not terminated: a\\nb, c\\x1b[31md",
    ]);
    const dry = await runFctlProcess(["delete", "execution", ...names, "--dryRun", ...endpoint]);
    equal(dry.code, 0, dry.stderr);
    equal(
      dry.stdout,
      "would terminate a\\nb (dryRun: nothing sent)\nwould terminate c\\x1b[31md (dryRun: nothing sent)\n",
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("delete execution --dryRun sends nothing; bad input is a usage error before any call", async () => {
  await withCore(async (sandbox, endpoint) => {
    await startExecutions(sandbox, ["run-a"]);
    sandbox.clearRequests();
    const dry = await runFctl(["delete", "execution", "run-a", "run-b", "--dryRun", ...endpoint]);
    deepEqual([dry.code, dry.stdout, dry.stderr], [
      0,
      "would terminate run-a (dryRun: nothing sent)\nwould terminate run-b (dryRun: nothing sent)\n",
      "",
    ]);
    const missing = await runFctl(["delete", "execution", ...endpoint]);
    equal(missing.code, 2);
    const emptyCause = await runFctl(["delete", "execution", "run-a", "--cause", "", ...endpoint]);
    deepEqual([emptyCause.code, emptyCause.stderr], [
      2,
      'Error: invalid value "" for --cause: expected a reason, or leave --cause out\n',
    ]);
    deepEqual(sandbox.requests, []);
  });
});

Deno.test("production admin: delete execution as a fresh process (TLS, OAuth client credentials, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    await startExecutions(sandbox, ["prod-run"]);
    const result = await runProductionProcess(sandbox, ["delete", "execution", "prod-run", "--cause", "done here"]);
    deepEqual([result.code, result.stdout, result.stderr], [0, "terminated prod-run\n", ""]);
    // Recorded before the admin checks the token: the call refused for lacking one is sent again once signed in.
    deepEqual(terminations(sandbox).at(-1), ["flytesnacks", "development", "prod-run", "done here"]);
    const phase = await runProductionProcess(sandbox, ["get", "execution", "prod-run", "-o", "json"]);
    match(phase.stdout, /"phase": "ABORT(ING|ED)"/);
  } finally {
    await sandbox.close();
  }
});

Deno.test("delete execution: a failure not about one execution stops there, naming what was not terminated", async () => {
  await withCore(async (sandbox, endpoint) => {
    await startExecutions(sandbox, ["run-a", "run-b", "run-c"]);
    // Every other TerminateExecution fails INTERNAL, starting with this one: fctl's first goes through, its second
    // fails, and its third is never sent.
    sandbox.failRatio("TerminateExecution", Code.Internal, 0.5);
    await withFullAdmin(
      sandbox,
      (admin) =>
        rejects(admin.terminateExecution({ id: { project: "flytesnacks", domain: "development", name: "x" } })),
    );
    sandbox.clearRequests();
    const result = await runFctlProcess(["delete", "execution", "run-a", "run-b", "run-c", ...endpoint]);
    equal(result.code, 1);
    equal(result.stdout, "terminated run-a\n");
    deepEqual(result.stderr.trim().split("\n").slice(0, 1), ["not terminated: run-b, run-c (stopped at run-b)"]);
    match(result.stderr, /^Error: .*injected Internal for TerminateExecution/m);
    deepEqual(terminations(sandbox).map((t) => (t as string[])[2]), ["run-a", "run-b"]);
  });
});

Deno.test("delete execution: a name given twice is terminated once", async () => {
  await withCore(async (sandbox, endpoint) => {
    await startExecutions(sandbox, ["run-a", "run-b"]);
    sandbox.clearRequests();
    const result = await runFctlProcess(["delete", "execution", "run-a", "run-b", "run-a", ...endpoint]);
    deepEqual([result.code, result.stdout, result.stderr], [0, "terminated run-a\nterminated run-b\n", ""]);
    deepEqual(terminations(sandbox).map((t) => (t as string[])[2]), ["run-a", "run-b"]);
  });
});

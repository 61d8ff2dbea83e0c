/**
 * Who aborted or archived an execution, as FlyteAdmin records it (abort metadata's and state change details'
 * principal: the caller's token subject, `""` for an admin without auth; a created or relaunched execution's creator
 * likewise) and `get execution -o yaml` shows it, as flytectl does (`--details` shows the node tree only, as
 * flytectl's does); fresh fctl processes against a production-shaped sandbox.
 */
import { deepEqual, equal } from "node:assert/strict";
import { parse } from "yaml";
import { type Sandbox, SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctlProcess } from "./helpers.ts";
import { registerCore, runProductionProcess, startCoreExecutions } from "./entity_fixtures.ts";

/** Starts executions of the core package's basic workflow that never finish, as the client `withFullAdmin` signs in as. */
async function startExecutions(sandbox: Sandbox, names: string[]): Promise<void> {
  for (const name of names) sandbox.store.executions.plan({ execution: name }, { outcome: "never" });
  // FlyteAdmin records the caller, whatever the request names.
  await startCoreExecutions(sandbox, names, { principal: "sdk" });
}

type Shown = {
  spec: { metadata: { principal?: string } };
  closure: { phase: string; abortMetadata?: unknown; stateChangeDetails: { state?: string; principal?: string } };
};

/** What `get execution <name> -o yaml` shows of the principals: the creator's, the abort's and the state change's. */
function principals(yaml: string): unknown {
  const { spec, closure } = parse(yaml) as Shown;
  return {
    creator: spec.metadata.principal,
    abort: closure.abortMetadata,
    state: [closure.stateChangeDetails.state, closure.stateChangeDetails.principal],
  };
}

Deno.test("production admin: the principal of an abort and an archive is the caller's token subject, shown by get execution -o yaml", async () => {
  // The executions are created as another client than fctl's (the sandbox client), so each principal is told apart.
  const sandbox = await startSandbox({
    production: { clients: { "ci-bot": "ci-bot-secret-0b1d", [SANDBOX_CLIENT.id]: SANDBOX_CLIENT.secret } },
  });
  try {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    await startExecutions(sandbox, ["prod-run", "prod-kept"]);
    const get = async (name: string) => {
      const run = await runProductionProcess(sandbox, ["get", "execution", name, "-o", "yaml"]);
      equal(run.code, 0, run.stderr);
      return principals(run.stdout);
    };
    deepEqual(await get("prod-kept"), {
      creator: "ci-bot",
      abort: undefined,
      state: [undefined, "ci-bot"], // EXECUTION_ACTIVE is 0, which protobuf JSON leaves out
    });

    const deleted = await runProductionProcess(sandbox, ["delete", "execution", "prod-run", "--cause", "done here"]);
    deepEqual([deleted.code, deleted.stderr], [0, ""]);
    deepEqual(await get("prod-run"), {
      creator: "ci-bot",
      abort: { cause: "done here", principal: SANDBOX_CLIENT.id },
      state: [undefined, "ci-bot"],
    });

    const archived = await runProductionProcess(sandbox, ["update", "execution", "prod-kept", "--archive", "--force"]);
    deepEqual([archived.code, archived.stderr], [0, ""]);
    deepEqual(await get("prod-kept"), {
      creator: "ci-bot",
      abort: undefined,
      state: ["EXECUTION_ARCHIVED", SANDBOX_CLIENT.id],
    });

    // A relaunch is created by whoever relaunches it.
    const relaunched = await runProductionProcess(sandbox, ["create", "execution", "--relaunch", "prod-run"]);
    equal(relaunched.code, 0, relaunched.stderr);
    const name = /name:"([a-z0-9-]+)"/.exec(relaunched.stdout)?.[1] ?? relaunched.stdout;
    deepEqual(await get(name), { creator: SANDBOX_CLIENT.id, abort: undefined, state: [undefined, SANDBOX_CLIENT.id] });
  } finally {
    await sandbox.close();
  }
});

Deno.test("an admin without auth records no principal: FlyteAdmin's identity context of an anonymous call is empty", async () => {
  let ms = Date.parse("2026-03-01T00:00:00Z");
  const sandbox = await startSandbox({ now: () => new Date(ms += 1_000) });
  try {
    await registerCore(sandbox, ["v1"]);
    await startExecutions(sandbox, ["run-a"]);
    const endpoint = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    const deleted = await runFctlProcess(["delete", "execution", "run-a", "--cause", "stop", ...endpoint]);
    deepEqual([deleted.code, deleted.stderr], [0, ""]);
    const archived = await runFctlProcess(["update", "execution", "run-a", "--archive", "--force", ...endpoint]);
    deepEqual([archived.code, archived.stderr], [0, ""]);
    const shown = await runFctlProcess(["get", "execution", "run-a", "-o", "yaml", ...endpoint]);
    equal(shown.code, 0, shown.stderr);
    deepEqual(principals(shown.stdout), {
      creator: undefined,
      abort: { cause: "stop" },
      state: ["EXECUTION_ARCHIVED", undefined],
    });
  } finally {
    await sandbox.close();
  }
});

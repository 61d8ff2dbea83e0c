/**
 * Bad input given to the library, as a program gives it: every call that returns a promise rejects it with the
 * documented typed error (a `.catch` on the call sees it; nothing is thrown before the promise), and an execution
 * spec built in code that names no task or workflow, or both, is refused as a spec file doing so is, before any call.
 */
import { equal, ok as assert, rejects } from "node:assert/strict";
import {
  createAdminClient,
  createExecution,
  type ExecutionSpec,
  getLaunchPlan,
  getTask,
  getWorkflow,
  InvalidOptionError,
  listExecutions,
  UsageError,
} from "../mod.ts";
import { startSandbox } from "../testing.ts";

const SCOPE = { project: "flytesnacks", domain: "development" };

Deno.test("a bad option rejects the promise the get calls return; nothing is thrown before it", async () => {
  await using sandbox = await startSandbox();
  using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  const calls: [string, () => Promise<unknown>][] = [
    ["getTask", () => getTask(client, { ...SCOPE, limit: 0 })],
    ["getWorkflow", () => getWorkflow(client, { ...SCOPE, limit: 0 })],
    ["getLaunchPlan", () => getLaunchPlan(client, { ...SCOPE, limit: 0 })],
    ["listExecutions", () => listExecutions(client, { ...SCOPE, limit: 0 })],
  ];
  for (const [name, call] of calls) {
    let returned: Promise<unknown> | undefined;
    try {
      returned = call();
    } catch (err) {
      assert(false, `${name} threw before returning its promise: ${err}`);
    }
    // As the README's example handles errors: a `.catch` on the call.
    const caught = await returned!.then(() => undefined, (err: unknown) => err);
    assert(caught instanceof InvalidOptionError, `${name}: ${caught}`);
    equal(caught.message, 'invalid limit "0": must be 1 or more', name);
  }
  equal(sandbox.requests.length, 0, "nothing was sent");
});

Deno.test("createExecution of a spec built in code that names no task or workflow, or both: a UsageError saying so, no call", async () => {
  await using sandbox = await startSandbox();
  using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  const spec: ExecutionSpec = { file: "made in code", inputs: new Map(), envs: new Map() };
  await rejects(
    createExecution(client, { ...SCOPE, spec }),
    (err) =>
      err instanceof UsageError &&
      err.message ===
        'exec file "made in code": either task or workflow name should be specified to launch an execution',
  );
  await rejects(
    createExecution(client, { ...SCOPE, spec: { ...spec, task: "t", workflow: "w" } }),
    (err) =>
      err instanceof UsageError &&
      err.message ===
        'exec file "made in code": either task or workflow name should be specified to launch an execution, not ' +
          'both (task "t", workflow "w")',
  );
  equal(sandbox.requests.length, 0, "nothing was sent");
});

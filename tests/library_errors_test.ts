/**
 * The library's errors are one family a caller branches on: every failed admin operation is an `AdminError`
 * whose `status` names what happened, and a missing entity, whether the admin said NOT_FOUND or a read found
 * nothing, is its subclass `NotFoundError` (status `NotFound`), as `mod.ts` exports them.
 */
import { deepEqual, equal, match, ok as assert, rejects } from "node:assert/strict";
import {
  AdminError,
  AdminNotFoundError,
  createAdminClient,
  createExecution,
  type ExecutionSpec,
  ExitCode,
  FctlError,
  getTask,
  NotFoundError,
  OperationError,
  type ProjectRefusal,
  ProjectRefusedError,
  registerFiles,
} from "../mod.ts";
import { startSandbox } from "../testing.ts";
import { Code } from "../types.ts";
import { seedTasks } from "./task_fixtures.ts";
import { fixture } from "./helpers.ts";

const SCOPE = { project: "flytesnacks", domain: "development" };

Deno.test("a missing task is a NotFoundError, an AdminError with status NotFound, from a list or a get", async () => {
  await using sandbox = await startSandbox();
  using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  await seedTasks(client, [{ name: "core.basic.hello", version: "v1" }]);
  // No version of the name: ListTasks answers an empty page, which getTask reports as not found.
  await rejects(getTask(client, { ...SCOPE, name: "nope", latest: true }), (err) => {
    assert(err instanceof NotFoundError && err instanceof AdminError, String(err));
    assert(err instanceof OperationError && err instanceof FctlError);
    equal(err.status, "NotFound");
    equal(err.rpc, "ListTasks");
    equal(err.exitCode, ExitCode.Failed);
    equal(err.name, "NotFoundError");
    equal(err.message, 'task "nope" not found in project "flytesnacks", domain "development"');
    equal(err.serverMessage, err.message);
    return true;
  });
  // A missing version: the admin's own NOT_FOUND, the same class, its message naming the version and the newest.
  await rejects(getTask(client, { ...SCOPE, name: "core.basic.hello", version: "v9" }), (err) => {
    assert(err instanceof NotFoundError, String(err));
    equal(err.status, "NotFound");
    equal(err.rpc, "GetTask");
    match(
      err.message,
      /^task "core\.basic\.hello" has no version "v9" in project "flytesnacks", domain "development"; /,
    );
    return true;
  });
  // The listing that finds the newest version failing leaves it out of the message, still the same error.
  sandbox.failNext("ListTasks", Code.PermissionDenied);
  await rejects(getTask(client, { ...SCOPE, name: "core.basic.hello", version: "v9" }), (err) => {
    assert(err instanceof NotFoundError, String(err));
    equal(err.message, 'task "core.basic.hello" version "v9" not found in project "flytesnacks", domain "development"');
    return true;
  });
  // Any other status is an AdminError, not a NotFoundError.
  const task = { id: { ...SCOPE, name: "core.basic.hello", version: "v1" } };
  sandbox.failNext("GetTask", Code.InvalidArgument);
  await rejects(client.admin.getTask(task), (err) => {
    assert(err instanceof AdminError && !(err instanceof NotFoundError), String(err));
    equal(err.status, "InvalidArgument");
    return true;
  });
  equal(AdminNotFoundError, NotFoundError, "the former name is the same class");
});

Deno.test("a create the admin refuses for its project is a ProjectRefusedError a program can import, with what was refused and the admin's error as its cause", async () => {
  await using sandbox = await startSandbox();
  using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  const options = { paths: [fixture("flytesnacks-core.tgz")], archive: true, ...SCOPE, version: "v1" };
  equal((await registerFiles(client, options)).failed, 0);
  const spec: ExecutionSpec = {
    file: "spec.yaml",
    workflow: "core.flyte_basics.hello_world.my_wf",
    inputs: new Map(),
    envs: new Map(),
  };
  const missing: ProjectRefusal = { reason: "projectNotFound", project: "nope", domain: "development" };
  await rejects(createExecution(client, { ...SCOPE, targetProject: "nope", spec }), (err) => {
    assert(err instanceof ProjectRefusedError && err instanceof OperationError, String(err));
    deepEqual(err.refusal, missing);
    equal(err.exitCode, ExitCode.Failed);
    assert(err.message.startsWith('project "nope" does not exist on the admin: no execution was created'));
    // What the admin said stays reachable: its status and words.
    assert(err.cause instanceof AdminError, String(err.cause));
    equal(err.cause.rpc, "CreateExecution");
    assert(err.cause.serverMessage.includes("[nope]"), err.cause.serverMessage);
    return true;
  });
  const report = await registerFiles(client, { ...options, project: "nope" });
  assert(report.error instanceof ProjectRefusedError, String(report.error));
  deepEqual(report.error.refusal, missing);
});

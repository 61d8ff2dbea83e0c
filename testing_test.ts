/** The `./testing` export: the module example, run through the export a library user imports. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { createAdminClient } from "./src/admin/client.ts";
import { AdminError } from "./src/admin/errors.ts";
import { type RecordedRequest, type Sandbox, SANDBOX_BUCKET, SandboxStore, startSandbox } from "./testing.ts";

Deno.test("the testing export starts a sandbox a client can seed, fail, list and inspect, as its example does", async () => {
  const sandbox: Sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    assert(sandbox.store instanceof SandboxStore);
    sandbox.store.addTask({
      id: { resourceType: 1, project: "flytesnacks", domain: "development", name: "hello", version: "v1" },
      spec: {
        template: {
          type: "python-task",
          metadata: { runtime: { version: "1.16.1" } },
          interface: {},
          target: { case: "container", value: { image: "python:3.12" } },
        },
      },
    });
    const scope = { project: "flytesnacks", domain: "development" };
    sandbox.failNext("ListTasks", Code.Unavailable);
    const failed = await client.admin.listTasks({ id: scope, limit: 10 }).then(() => undefined, (err) => err);
    assertEquals(failed instanceof AdminError ? failed.status : failed, "Unavailable");
    const { tasks } = await client.admin.listTasks({ id: scope, limit: 10 });
    assertEquals(tasks.map((task) => task.id?.name), ["hello"]);
    const methods = sandbox.requests.map((request: RecordedRequest) => request.method);
    assertEquals(methods, ["ListTasks", "ListTasks"]);
    const location = await client.dataProxy.createUploadLocation({
      ...scope,
      filename: "f.tgz",
      contentMd5: new Uint8Array(16),
    });
    assert(location.nativeUrl.startsWith(`s3://${SANDBOX_BUCKET}/`), location.nativeUrl);
  } finally {
    client.close();
    await sandbox.close();
  }
});

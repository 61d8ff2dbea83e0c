import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { createAdminClient } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import { startSandbox } from "./mod.ts";
import { adminError, DOMAIN, PROJECT, taskInit, withSandbox } from "./_test_helpers.ts";

const scope = { project: PROJECT, domain: DOMAIN };

/** Runs `fn` with a client of flyteidl's whole AdminService, for methods fctl's admin client does not declare. */
async function withFullAdmin(endpoint: string, fn: (admin: Client<typeof AdminService>) => Promise<void>) {
  const sessionManager = new Http2SessionManager(endpoint);
  try {
    await fn(createClient(AdminService, createGrpcTransport({ baseUrl: endpoint, sessionManager })));
  } finally {
    sessionManager.abort();
  }
}

Deno.test("every request is recorded in order with its decoded message, including failures", async () => {
  await withSandbox(async (sandbox, client) => {
    await client.admin.createTask(taskInit("t", "v1"));
    await adminError(client.admin.getTask({}));
    await withFullAdmin(sandbox.endpoint, (admin) => assertRejects(admin.listExecutions({})));
    await client.dataProxy.createUploadLocation({ ...scope, filename: "f", contentMd5: new Uint8Array(16) });
    assertEquals(sandbox.requests.map((r) => `${r.service}.${r.method}`), [
      "AdminService.CreateTask",
      "AdminService.GetTask",
      "AdminService.ListExecutions",
      "DataProxyService.CreateUploadLocation",
    ]);
    const first = sandbox.requests[0].request as { id?: { name: string } };
    assertEquals(first.id?.name, "t");
    assert(sandbox.requests.every((r) => typeof r.at === "number"));
    sandbox.clearRequests();
    assertEquals(sandbox.requests, []);
  });
});

Deno.test("unimplemented methods answer UNIMPLEMENTED", async () => {
  await withSandbox(async (sandbox) => {
    await withFullAdmin(sandbox.endpoint, async (admin) => {
      await assertRejects(
        admin.listMatchableAttributes({}),
        (err) => err instanceof ConnectError && err.code === Code.Unimplemented,
      );
    });
  });
});

Deno.test("failNext fails the next calls before touching state, then lets calls through", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.failNext("CreateTask", Code.Unavailable);
    const err = await adminError(client.admin.createTask(taskInit("t", "v1")));
    assertEquals(err.status, "Unavailable");
    assertEquals(sandbox.store.tasks(), []);
    await client.admin.createTask(taskInit("t", "v1"));
    assertEquals(sandbox.store.tasks().length, 1);

    sandbox.failNext("*", Code.ResourceExhausted, 2);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const call = client.admin.listTasks({ id: scope, limit: 1 });
      statuses.push(await call.then(() => "OK", (err: unknown) => err instanceof AdminError ? err.status : err));
    }
    assertEquals(statuses, ["ResourceExhausted", "ResourceExhausted", "OK"]);
    assertEquals(sandbox.requests.length, 5);
  });
});

Deno.test("failRatio fails every other call when half fail", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.failRatio("ListTasks", Code.Unavailable, 0.5);
    const outcomes: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      outcomes.push(await client.admin.listTasks({ id: scope, limit: 1 }).then(() => true, () => false));
    }
    assertEquals(outcomes, [false, true, false, true, false, true]);
    sandbox.clearFaults();
    await client.admin.listTasks({ id: scope, limit: 1 });
  });
});

Deno.test("latency delays every response", async () => {
  await withSandbox(async (sandbox, client) => {
    await client.admin.listTasks({ id: scope, limit: 1 }); // connect first, so only latency is measured
    sandbox.setLatency(60);
    const start = performance.now();
    await client.admin.listTasks({ id: scope, limit: 1 });
    assert(performance.now() - start >= 55, `took ${performance.now() - start} ms`);
  }, { latencyMs: 0 });
});

Deno.test("close ends in-flight calls and open sessions promptly, and twice is fine", async () => {
  const sandbox = await startSandbox({ latencyMs: 60_000 });
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    const pending = client.admin.listTasks({ id: scope, limit: 1 }).then(
      () => "answered",
      (err: unknown) => err instanceof AdminError ? `${err.status}: ${err.serverMessage}` : err,
    );
    while (sandbox.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const start = performance.now();
    await sandbox.close();
    await sandbox.close();
    assertEquals(await pending, "Unavailable: sandbox is closing");
    assert(performance.now() - start < 2000);
    const after = await adminError(client.admin.listTasks({ id: scope, limit: 1 }));
    assertEquals(after.status, "Unavailable");
  } finally {
    client.close();
  }
});

Deno.test("serves gRPC over TLS when given a certificate", async () => {
  const dir = new URL("./testdata/", import.meta.url);
  const cert = await Deno.readTextFile(new URL("localhost_cert.pem", dir));
  const key = await Deno.readTextFile(new URL("localhost_key.pem", dir));
  const sandbox = await startSandbox({ tls: { cert, key } });
  const sessionManager = new Http2SessionManager(sandbox.endpoint, undefined, { ca: cert });
  try {
    assert(sandbox.endpoint.startsWith("https://127.0.0.1:"), sandbox.endpoint);
    const admin = createClient(AdminService, createGrpcTransport({ baseUrl: sandbox.endpoint, sessionManager }));
    sandbox.store.addTask(taskInit("t", "v1"));
    const { tasks } = await admin.listTasks({ id: scope, limit: 5 });
    assertEquals(tasks.map((t) => t.id?.name), ["t"]);
  } finally {
    sessionManager.abort();
    await sandbox.close();
  }
});

Deno.test("listens on the requested port", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const sandbox = await startSandbox({ port });
  try {
    assertEquals([sandbox.port, sandbox.endpoint], [port, `http://127.0.0.1:${port}`]);
  } finally {
    await sandbox.close();
  }
});

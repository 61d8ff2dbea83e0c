/**
 * What the library hands out to be closed can be closed by `await using`: the sandbox of `@fctl/fctl/testing`, an
 * admin client from `createAdminClient` and a store from `openStorage`, as `connect`'s connection can. A program that
 * declares them with `await using` leaves nothing open when the block ends, however it ends.
 */
import { equal, ok as assert, rejects } from "node:assert/strict";
import { createAdminClient, openStorage } from "../mod.ts";
import { startSandbox } from "../testing.ts";

const SCOPE = { project: "flytesnacks", domain: "development" };

Deno.test("await using a sandbox closes it when the block ends: its endpoint then refuses connections", async () => {
  let endpoint = "";
  {
    await using sandbox = await startSandbox();
    endpoint = sandbox.endpoint;
    await using client = createAdminClient({ endpoint, insecure: true });
    const { tasks } = await client.admin.listTasks({ id: SCOPE, limit: 1 });
    equal(tasks.length, 0);
  }
  const port = Number(new URL(endpoint).port);
  await rejects(Deno.connect({ hostname: "127.0.0.1", port }), (err) => err instanceof Deno.errors.ConnectionRefused);
});

Deno.test("await using an admin client closes its session; a later call opens a new one", async () => {
  await using sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  assert(Symbol.asyncDispose in client || Symbol.dispose in client, "the client is disposable");
  {
    await using disposed = client;
    await disposed.admin.listTasks({ id: SCOPE, limit: 1 });
  }
  // Closed, not broken: as close() documents, the next call opens a new session.
  await client.admin.listTasks({ id: SCOPE, limit: 1 });
  client.close();
});

Deno.test("await using a store from openStorage closes it", async () => {
  const root = await Deno.makeTempDir({ prefix: "fctl-library-disposal-" });
  try {
    {
      await using store = await openStorage({ type: "local", container: "bucket", defaultLocalRoot: root });
      await store.writeFile(`${store.baseReference()}/a.txt`, { bytes: new TextEncoder().encode("a") });
    }
    equal(await Deno.readTextFile(`${root}/bucket/a.txt`), "a");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

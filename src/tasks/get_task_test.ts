/** {@link getTask}'s signal cancels its calls, as that of the other library reads does. */
import { equal, ok, rejects } from "node:assert/strict";
import { AdminError } from "../admin/errors.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { getTask } from "./get_task.ts";

Deno.test("getTask: an abort of its signal cancels the call it waits on (Canceled), without waiting for the admin", async () => {
  await withSandbox(async (sandbox, client) => {
    // An admin that would take a minute to answer: the abort must not wait for it.
    sandbox.setLatency(60_000);
    const controller = new AbortController();
    const reading = getTask(client, { project: "flytesnacks", domain: "development" }, controller.signal);
    reading.catch(() => {});
    while (!sandbox.requests.some((r) => r.method === "ListTasks")) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    await rejects(reading, (err) => {
      ok(err instanceof AdminError, String(err));
      equal(err.status, "Canceled");
      return true;
    });
    sandbox.setLatency(0);
  });
});

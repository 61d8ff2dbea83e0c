/**
 * A reader that closes fctl's stdout before the end (`fctl get task -o yaml | head`) ends fctl as such a reader
 * ends a Unix tool: quietly, exit 141 (128 + SIGPIPE, what a shell reports for a program SIGPIPE ended), with
 * nothing on stderr; no "unexpected failure" line, no stack.
 */
import { equal } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { fctlMain, SUBPROCESS_HOME } from "./helpers.ts";
import { seedTasks } from "./task_fixtures.ts";

Deno.test("a reader that closes stdout early ends fctl quietly with exit 141", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    // Far more than a pipe holds (64 KiB): fctl is still writing when the reader goes.
    const description = "d".repeat(400);
    const tasks = Array.from({ length: 300 }, (_, i) => ({
      name: `core.closed.task_${i}`,
      version: "v1",
      inputs: { x: { description } },
    }));
    await seedTasks(client, tasks);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        ...FCTL_RUN_FLAGS,
        await fctlMain(),
        "get",
        "task",
        "-p",
        "flytesnacks",
        "-d",
        "development",
        "--filter.limit",
        "300",
        "-o",
        "yaml",
        "--admin.endpoint",
        sandbox.endpoint,
      ],
      env: { HOME: SUBPROCESS_HOME, NO_COLOR: "1" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Read a first piece, as `head` does, then close the pipe.
    const reader = child.stdout.getReader();
    await reader.read();
    await reader.cancel();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    equal(stderr, "");
    equal(status.code, 141);
  } finally {
    client.close();
    await sandbox.close();
  }
});

/**
 * Runs the real executable entry point as a subprocess with the declared permission set
 * (never -A), so a permission the code needs but does not declare fails here.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { seedTasks } from "./task_fixtures.ts";
import denoJson from "../deno.json" with { type: "json" };

const MAIN = new URL("../main.ts", import.meta.url).pathname;

async function fctl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args],
    env: { HOME: "/nonexistent-fctl-test-home", NO_COLOR: "1" },
    clearEnv: true,
    stdin: "null",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("main.ts round-trips get task over gRPC with only the declared permissions", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, [{ name: "core.sub.process", version: "v7" }]);
    const { code, stdout, stderr } = await fctl([
      "get",
      "task",
      "core.sub.process",
      "--latest",
      "-o",
      "json",
      "-p",
      "flytesnacks",
      "-d",
      "development",
      "--admin.endpoint",
      sandbox.endpoint,
    ]);
    equal(stderr, "");
    equal(code, 0);
    equal(JSON.parse(stdout).id.version, "v7");
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("main.ts exits 2 with one line for a usage error", async () => {
  const { code, stdout, stderr } = await fctl(["get", "task"]);
  equal(code, 2);
  equal(stdout, "");
  match(stderr, /^Error: project and domain are required parameters\n$/);
});

Deno.test("deno.json runs fctl and the demo with exactly the declared permissions and V8 flags", () => {
  for (const task of ["fctl", "demo"] as const) {
    const flags = denoJson.tasks[task].split(" ").filter((word) => /^--(allow|deny|v8-flags)/.test(word));
    deepEqual(flags, [...FCTL_RUN_FLAGS], task);
  }
  // The concurrency benchmark also needs --allow-run, but measures fctl under V8's default flags, as fctl runs.
  const benchFlags = denoJson.tasks["bench:register"].split(" ").filter((word) => word.startsWith("--v8-flags"));
  deepEqual(benchFlags, [], "bench:register");
});

Deno.test("main.ts answers --help and --version on stdout, exit 0", async () => {
  const help = await fctl(["get", "task", "--help"]);
  equal(help.code, 0);
  equal(help.stderr, "");
  match(help.stdout, /^Usage: fctl get task\|tasks \[options\] \[name\]\n/);
  const version = await fctl(["--version"]);
  deepEqual(version, { code: 0, stdout: `${denoJson.version}\n`, stderr: "" });
});

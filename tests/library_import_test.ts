/**
 * The library imported by path from another directory, the way the README documents it for a clone: with the
 * clone's `deno.json` (its import map names the pinned npm packages), everything `mod.ts`, `types.ts` and
 * `testing.ts` export loads, and a client built by `connect` talks to the sandbox.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url);

Deno.test("a program in another directory imports mod.ts, types.ts and testing.ts by path with --config", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-library-user-" });
  try {
    const program = `
import { connect, getTask } from "${new URL("mod.ts", ROOT).href}";
import { ResourceType } from "${new URL("types.ts", ROOT).href}";
import { startSandbox } from "${new URL("testing.ts", ROOT).href}";

const sandbox = await startSandbox();
try {
  await using flyte = await connect({ flags: { "admin.endpoint": sandbox.endpoint, "admin.insecure": true }, env: {} });
  const result = await getTask(flyte.client, { project: "flytesnacks", domain: "development" });
  console.log(result.kind, ResourceType[ResourceType.TASK]);
} finally {
  await sandbox.close();
}
`;
    await Deno.writeTextFile(join(dir, "program.ts"), program);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--config", new URL("deno.json", ROOT).pathname, "-A", "program.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    equal(decode(out.stderr), "");
    equal(decode(out.stdout), "list TASK\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

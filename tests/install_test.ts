/**
 * fctl from a clone, as the README says to run it: `deno task fctl` from any directory works in the user's
 * directory (relative paths are theirs), and `deno install -g` makes an `fctl` command that runs anywhere.
 */
import { deepEqual, equal } from "node:assert/strict";
import { dirname, join } from "node:path";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** A config file with a relative name in `dir`, and what `config view -o json` must then report of it. */
async function relativeConfig(dir: string): Promise<void> {
  await Deno.writeTextFile(join(dir, "project.yaml"), "admin:\n  endpoint: dns:///flyte.project.example:81\n");
}

function endpointOf(stdout: string): unknown {
  const rows = JSON.parse(stdout) as { key: string; value: unknown; source: string }[];
  return rows.find((row) => row.key === "admin.endpoint")?.value;
}

async function run(command: string, args: string[], cwd: string, env: Record<string, string>) {
  // INIT_CWD is set by the outermost task only (as npm does): `deno task test`'s must not reach these runs.
  const { INIT_CWD: _, ...inherited } = Deno.env.toObject();
  const out = await new Deno.Command(command, {
    args,
    cwd,
    env: { ...inherited, ...env },
    clearEnv: true,
    stdin: "null",
  })
    .output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("deno task fctl runs in the directory it is started from, not the clone's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-task-cwd-" });
  try {
    await relativeConfig(dir);
    const args = [
      "task",
      "--quiet",
      "--config",
      join(ROOT, "deno.json"),
      "fctl",
      "config",
      "view",
      "-c",
      "project.yaml",
    ];
    const result = await run(Deno.execPath(), [...args, "-o", "json"], dir, { NO_COLOR: "1" });
    equal(result.stderr, "");
    equal(result.code, 0);
    equal(endpointOf(result.stdout), "dns:///flyte.project.example:81");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno install -g (as the README shows it) makes an fctl command that works from any directory", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-install-" });
  try {
    const root = join(dir, "install-root");
    const work = join(dir, "project");
    await Deno.mkdir(work);
    await relativeConfig(work);
    const install = await run(
      Deno.execPath(),
      ["install", "-g", "--quiet", "--name", "fctl", "--root", root, "--config", join(ROOT, "deno.json")]
        .concat(...FCTL_RUN_FLAGS, join(ROOT, "main.ts")),
      dir,
      {},
    );
    equal(install.stderr, "");
    equal(install.code, 0);
    // The installed command finds `deno` on PATH, as on a user's machine.
    const env = { PATH: `${dirname(Deno.execPath())}:/usr/bin:/bin`, HOME: join(dir, "home"), NO_COLOR: "1" };
    const version = await run(join(root, "bin", "fctl"), ["--version"], work, env);
    deepEqual([version.code, version.stderr], [0, ""]);
    // config view loads npm packages (yaml): the installed command resolves them outside the clone.
    const view = await run(
      join(root, "bin", "fctl"),
      ["config", "view", "-c", "project.yaml", "-o", "json"],
      work,
      env,
    );
    equal(view.stderr, "");
    equal(view.code, 0);
    equal(endpointOf(view.stdout), "dns:///flyte.project.example:81");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

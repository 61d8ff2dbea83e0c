/**
 * fctl as it runs in a locked-down container: configured only through the environment (`FCTL_*`,
 * `FLYTECTL_CONFIG`), on a read-only filesystem (simulated with Deno's permissions: writes allowed only under
 * `TMPDIR`, since these tests run as root, whom file modes do not stop), with no home, a missing one or one
 * it cannot write. The token cache falls back to memory with one info line; temp files go to `TMPDIR`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { type Sandbox, SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { fctlMain, fixture } from "./helpers.ts";
import { taskSpec } from "./task_fixtures.ts";

/** What ships: the bundle of main.ts. */
const MAIN = await fctlMain();
/** Deno's module cache, where the other subprocess tests keep it (it is not the container's business). */
const DENO_DIR = "/nonexistent-fctl-test-home/.cache/deno";

/** The compile's permissions, with writes confined to `writable` as a read-only root filesystem would. */
function containerFlags(writable: string): string[] {
  const flags = FCTL_RUN_FLAGS.map((flag) => flag === "--allow-write" ? `--allow-write=${writable}` : flag);
  ok(flags.includes(`--allow-write=${writable}`), "the declared set allows writes, narrowed here");
  return flags;
}

async function fctl(args: string[], env: Record<string, string>, writable: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...containerFlags(writable), MAIN, ...args],
    env: { DENO_DIR, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** The container's environment: a config file named by FLYTECTL_CONFIG, everything else `FCTL_*`. */
async function containerEnv(sandbox: Sandbox, dir: string): Promise<Record<string, string>> {
  await Deno.mkdir(`${dir}/etc`);
  await Deno.writeTextFile(`${dir}/etc/ca.pem`, sandbox.caCertificate!);
  await Deno.writeTextFile(
    `${dir}/etc/config.yaml`,
    `admin:\n  endpoint: ${sandbox.endpoint}\n  authType: ClientSecret\n  clientId: ${SANDBOX_CLIENT.id}\n`,
  );
  await Deno.mkdir(`${dir}/tmp`);
  return {
    FLYTECTL_CONFIG: `${dir}/etc/config.yaml`,
    FCTL_ADMIN_CA_CERT_FILE_PATH: `${dir}/etc/ca.pem`,
    FCTL_ADMIN_CLIENT_SECRET_ENV_VAR: "FLYTE_SECRET",
    FLYTE_SECRET: SANDBOX_CLIENT.secret,
    FCTL_PROJECT: "flytesnacks",
    FCTL_DOMAIN: "development",
    FCTL_LOGGER_LEVEL: "4",
    TMPDIR: `${dir}/tmp`,
  };
}

Deno.test("in a container: no home, a missing one or a read-only one is no error; tokens stay in memory, said once", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-container-" });
  try {
    const spec = taskSpec({ name: "core.sub.process", version: "v7" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    const env = await containerEnv(sandbox, dir);
    const homes: [string, Record<string, string>, string][] = [
      ["no HOME", {}, "HOME is not set"],
      ["a missing HOME", { HOME: `${dir}/missing` }, `${dir}/missing does not exist`],
      ["a read-only HOME", { HOME: `${dir}/etc` }, `no permission to write ${dir}/etc/.flyte/fctl/tokens`],
    ];
    for (const [name, home, reason] of homes) {
      const { code, stdout, stderr } = await fctl(
        ["get", "task", "core.sub.process", "--latest", "-o", "json"],
        { ...env, ...home },
        `${dir}/tmp`,
      );
      equal(code, 0, `${name}: ${stderr}`);
      equal(JSON.parse(stdout).id.version, "v7", name);
      const cacheLines = stderr.split("\n").filter((line) => line.includes("token cache"));
      equal(cacheLines.length, 1, `${name}: ${stderr}`);
      ok(cacheLines[0].includes(`the token cache is not writable (${reason}`), `${name}: ${cacheLines[0]}`);
      ok(cacheLines[0].includes("tokens are kept in memory for this run"), name);
      ok(!/level=(error|warn)|"level":"(error|warning)"/.test(stderr), `${name}: ${stderr}`);
    }
    deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name).sort(), ["etc", "tmp"], "nothing created");
    deepEqual([...Deno.readDirSync(`${dir}/etc`)].map((entry) => entry.name).sort(), ["ca.pem", "config.yaml"]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("in a container: register files spills a large source into TMPDIR, the only writable place", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-container-tmp-" });
  try {
    const env = await containerEnv(sandbox, dir);
    // The fixture package with its source replaced by one past the in-memory limit (8 MiB), which fctl
    // writes to a private temp dir while it uploads.
    await Deno.mkdir(`${dir}/pkg`);
    const untar = await new Deno.Command("tar", { args: ["xzf", fixture("flytesnacks-core.tgz"), "-C", `${dir}/pkg`] })
      .output();
    equal(untar.success, true);
    const outputDir = `${dir}/pkg/core/_pb_output`;
    const source = [...Deno.readDirSync(outputDir)].find((entry) => /^fast.*\.tar\.gz$/.test(entry.name))!.name;
    const large = new Uint8Array(9 * 1024 * 1024);
    for (let i = 0; i < large.length; i += 65536) crypto.getRandomValues(large.subarray(i, i + 65536));
    await Deno.writeFile(`${outputDir}/${source}`, large);
    const archive = `${dir}/etc/package.tar`;
    const tar = await new Deno.Command("tar", { args: ["cf", archive, "-C", `${dir}/pkg`, "core"] }).output();
    equal(tar.success, true);

    const { code, stderr } = await fctl(
      ["register", "files", "--archive", archive, "--version", "v1"],
      { ...env, HOME: `${dir}/etc` },
      `${dir}/tmp`,
    );
    equal(code, 0, stderr);
    deepEqual([...sandbox.uploads.values()].map((bytes) => bytes.length), [large.length]);
    deepEqual([...Deno.readDirSync(`${dir}/tmp`)], [], "the temp dir is removed after the run");

    // The same run with TMPDIR elsewhere cannot write its temp dir: TMPDIR is what made it work.
    await Deno.mkdir(`${dir}/other-tmp`);
    const elsewhere = await fctl(
      ["register", "files", "--archive", archive, "--version", "v2"],
      { ...env, HOME: `${dir}/etc`, TMPDIR: `${dir}/other-tmp` },
      `${dir}/tmp`,
    );
    equal(elsewhere.code, 1, elsewhere.stderr);
    equal(
      elsewhere.stderr,
      "Error: cannot create a private dir in the temp dir (TMPDIR): Requires write access to <TMP>, run again with the --allow-write flag\n",
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

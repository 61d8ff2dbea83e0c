/**
 * fctl from a clone, as the README says to run it: `deno task fctl` from any directory works in the user's
 * directory (relative paths are theirs), and `deno task install` makes an `fctl` command that runs anywhere, with
 * no `deno` on `PATH`, under exactly the declared permissions.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { permissionFlags } from "../src/permissions.ts";
import { placeExecutable } from "../scripts/install.ts";
import denoJson from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url).pathname;

/** A config file with a relative name in `dir`, and what `config view -o json` must then report of it. */
async function relativeConfig(dir: string): Promise<void> {
  await Deno.writeTextFile(join(dir, "project.yaml"), "admin:\n  endpoint: dns:///flyte.project.example:81\n");
}

function endpointOf(stdout: string): unknown {
  const rows = JSON.parse(stdout) as { key: string; value: unknown; source: string }[];
  return rows.find((row) => row.key === "admin.endpoint")?.value;
}

/** Runs `command` with `env` added to this process's environment (`inherit`), or as its whole environment. */
async function run(command: string, args: string[], cwd: string, env: Record<string, string>, inherit = true) {
  // INIT_CWD is set by the outermost task only (as npm does): `deno task test`'s must not reach these runs.
  const { INIT_CWD: _, ...inherited } = Deno.env.toObject();
  const out = await new Deno.Command(command, {
    args,
    cwd,
    env: inherit ? { ...inherited, ...env } : env,
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

/** `deno task install <args>` of this clone, started in `cwd`, with `env` added. */
function install(args: string[], cwd: string, env: Record<string, string>) {
  return run(Deno.execPath(), ["task", "--quiet", "--config", join(ROOT, "deno.json"), "install", ...args], cwd, env);
}

/** What the command runs, as its `exec` line lists it (the words of the shell script's last command). */
function execWords(shim: string): string[] {
  const line = shim.split("\n").find((l) => l.startsWith("exec "));
  ok(line, shim);
  return line.split(" ").slice(1);
}

/** An Azure blob service on loopback that has no blob: every request gets 404 BlobNotFound. */
function emptyBlobService() {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    return new Response(null, { status: 404, headers: { "x-ms-error-code": "BlobNotFound" } });
  });
  return {
    endpoint: `http://127.0.0.1:${server.addr.port}/devstoreaccount1`,
    requests,
    close: () => server.shutdown(),
  };
}

Deno.test("deno task install makes an fctl command that runs from any directory with no deno on PATH, under exactly the declared permissions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-install-" });
  const blobs = emptyBlobService();
  try {
    const root = join(dir, "install-root");
    const work = join(dir, "project");
    await Deno.mkdir(work);
    await relativeConfig(work);
    // The install is run by a Deno that then goes away, as npm's cache of `npx deno` may.
    const cached = join(dir, "npm-cache", "deno");
    await Deno.mkdir(join(dir, "npm-cache"));
    await Deno.copyFile(Deno.execPath(), cached);
    const installed = await run(
      cached,
      ["task", "--quiet", "--config", join(ROOT, "deno.json"), "install"],
      dir,
      { DENO_INSTALL_ROOT: root, PATH: "/usr/bin:/bin" },
    );
    equal(installed.stderr, "");
    equal(installed.code, 0);
    await Deno.remove(join(dir, "npm-cache"), { recursive: true });
    const version = Deno.version.deno;
    const deno = join(root, "lib", "fctl", `deno-${version}`);
    const fctl = join(root, "bin", "fctl");
    const how = installed.stdout.includes("(linked to") ? "linked to the running deno" : "a copy of the running deno";
    equal(
      installed.stdout,
      `install: ${fctl} runs fctl from ${
        ROOT.replace(/\/$/, "")
      } (keep the clone there) with Deno ${version} at ${deno} (${how})\n` +
        `install: ${root}/bin is not on PATH; add it, e.g. in ~/.profile: export PATH="${root}/bin:$PATH"\n`,
    );
    // The command runs the install's own Deno (not npm's cache, not PATH's) with the declared permissions only.
    const shim = await Deno.readTextFile(fctl);
    const words = execWords(shim);
    equal(words[0], deno);
    deepEqual(words.filter((word) => /^--(allow|deny)-/.test(word)), permissionFlags());
    // What ships, copied into the install: the clone's working tree may change under it.
    const bundled = join(root, "lib", "fctl", "bundle", "main.js");
    deepEqual(words.slice(-2), [bundled, '"$@"']);
    ok(((await Deno.stat(fctl)).mode! & 0o111) !== 0, "the command is executable");

    // Started from another directory, with a PATH that has no deno.
    const PATH = "/usr/bin:/bin";
    for (const bin of PATH.split(":")) ok(!(await Deno.stat(join(bin, "deno")).catch(() => undefined)), bin);
    const env = { PATH, HOME: join(dir, "home"), NO_COLOR: "1" };
    const shown = await run(fctl, ["version", "-o", "json"], work, env, false);
    deepEqual([shown.code, shown.stderr], [0, ""]);
    equal(JSON.parse(shown.stdout)[0].Version, denoJson.version);
    // config view loads npm packages (yaml): the command resolves them from the clone, relative paths from `work`.
    const view = await run(fctl, ["config", "view", "-c", "project.yaml", "-o", "json"], work, env, false);
    equal(view.stderr, "");
    equal(view.code, 0);
    equal(endpointOf(view.stdout), "dns:///flyte.project.example:81");

    // Stow azure builds the Azure SDK's client, which reads os.release(): it works under the command, and fails
    // without --allow-sys=osRelease (the declared set is needed whole, and is what the command has).
    const key = btoa("fctl-install-test-azure-key-0123");
    const azure = [
      ...["register", "files", "--archive", "abfs://c/none.tgz", "--version", "v1", "-p", "p", "-d", "d"],
      ...["--storage.type", "stow", "--storage.stow.kind", "azure", "--storage.container", "c"],
      ...["--storage.stow.config", `account=devstoreaccount1,key=${key},endpoint=${blobs.endpoint}`],
      ...["--admin.endpoint", "dns:///127.0.0.1:9", "--admin.insecure"],
    ];
    const fetched = await run(fctl, azure, work, env, false);
    equal(fetched.stderr, 'Error: cannot download "abfs://c/none.tgz": no such object\n');
    equal(fetched.code, 1);
    deepEqual(blobs.requests, ["HEAD /devstoreaccount1/c/none.tgz"]);
    const withoutSys = words.slice(1, -2).filter((word) => word !== "--allow-sys=osRelease");
    const refused = await run(deno, [...withoutSys, bundled, ...azure], work, env, false);
    match(refused.stderr, /Requires sys access to "osRelease"/);
    equal(blobs.requests.length, 1, "the request was not sent");
  } finally {
    await blobs.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task install replaces its own command, another file only with --force, and --uninstall removes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-install-" });
  try {
    const root = join(dir, "root");
    const fctl = join(root, "bin", "fctl");
    const env = { DENO_INSTALL_ROOT: root, PATH: `${join(root, "bin")}:/usr/bin:/bin` };
    const first = await install([], dir, env);
    deepEqual([first.code, first.stderr], [0, ""]);
    equal(first.stdout.split("\n").length, 2, "bin is on PATH: no advice");
    // Again: its own command is replaced without asking, the Deno already there kept.
    const again = await install([], dir, env);
    deepEqual([again.code, again.stderr], [0, ""]);
    match(again.stdout, /\(already there\)\n$/);
    // Someone else's fctl stays unless --force.
    await Deno.writeTextFile(fctl, "#!/bin/sh\necho other fctl\n");
    const refused = await install([], dir, env);
    equal(refused.code, 1);
    equal(
      refused.stderr,
      `install: ${fctl} already exists and is not an fctl command of deno task install: add --force to replace it\n`,
    );
    equal(await Deno.readTextFile(fctl), "#!/bin/sh\necho other fctl\n");
    const uninstallRefused = await install(["--uninstall"], dir, env);
    equal(uninstallRefused.code, 1);
    equal(await Deno.readTextFile(fctl), "#!/bin/sh\necho other fctl\n");
    const forced = await install(["--force"], dir, env);
    deepEqual([forced.code, forced.stderr], [0, ""]);
    match(await Deno.readTextFile(fctl), /fctl: written by deno task install/);
    // A relative --root is relative to where the task was started, and wins over DENO_INSTALL_ROOT.
    const relative = await run(
      Deno.execPath(),
      ["task", "--quiet", "--config", join(ROOT, "deno.json"), "install", "--root", "other"],
      dir,
      { ...env, INIT_CWD: dir },
    );
    deepEqual([relative.code, relative.stderr], [0, ""]);
    match(relative.stdout, new RegExp(`^install: ${join(dir, "other", "bin", "fctl")} runs fctl`));
    // Only what the install wrote goes; no temp file is left anywhere.
    const removed = await install(["--uninstall"], dir, env);
    deepEqual([removed.code, removed.stderr], [0, ""]);
    equal(removed.stdout, `install: removed ${fctl} and ${join(root, "lib", "fctl")}\n`);
    deepEqual([...Deno.readDirSync(join(root, "bin"))], []);
    deepEqual([...Deno.readDirSync(join(root, "lib"))], []);
    const nothing = await install(["--uninstall"], dir, env);
    deepEqual([nothing.code, nothing.stdout], [0, `install: no fctl in ${root}\n`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task install refuses an unknown argument in one line, exit 2, and installs nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-install-" });
  try {
    const bad = await install(["--global"], dir, { DENO_INSTALL_ROOT: join(dir, "root") });
    equal(bad.code, 2);
    equal(
      bad.stderr,
      'install: unknown argument "--global" (usage: deno task install [--root DIR] [--force] [--uninstall])\n',
    );
    const noRoot = await install(["--root"], dir, { DENO_INSTALL_ROOT: join(dir, "root") });
    equal(noRoot.code, 2);
    equal(
      noRoot.stderr,
      "install: --root needs a directory (usage: deno task install [--root DIR] [--force] [--uninstall])\n",
    );
    deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the install's Deno is a hard link, a copy where linking fails (another filesystem), kept when there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-install-" });
  try {
    const source = join(dir, "deno");
    await Deno.writeTextFile(source, "#!/bin/sh\necho runtime\n", { mode: 0o755 });
    equal(await placeExecutable(source, join(dir, "linked")), "linked");
    equal((await Deno.stat(join(dir, "linked"))).nlink, 2);
    const copy = join(dir, "copied");
    const crossDevice = () => Promise.reject(new Error("Cross-device link (os error 18)"));
    equal(await placeExecutable(source, copy, crossDevice), "copied");
    const copied = await Deno.stat(copy);
    deepEqual([copied.nlink, copied.mode! & 0o777], [1, 0o755]);
    equal(await Deno.readTextFile(copy), "#!/bin/sh\necho runtime\n");
    equal(await placeExecutable(source, copy, crossDevice), "kept");
    deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort(), [
      "copied",
      "deno",
      "linked",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

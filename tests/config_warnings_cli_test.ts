/**
 * A typo in the configuration is never silent: unknown keys, deprecated options and skipped certificate
 * verification are shown at every `logger.level` (flytectl configs often say 0), unless `logger.mute`;
 * `config validate` lists them in its own report. Each run is a fresh fctl under the declared permissions.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { startSandbox } from "../src/sandbox/mod.ts";
import { runFctlProcess } from "./helpers.ts";
import { seedTasks, taskSpec } from "./task_fixtures.ts";
import { createAdminClient } from "../src/admin/client.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-config-warnings-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A flytectl-style config at `logger.level: 0` with one typo: `caCertFilPath` for `caCertFilePath`. */
function typoConfig(endpoint: string): string {
  return [
    "admin:",
    `  endpoint: ${JSON.stringify(endpoint)}`,
    "  insecure: true",
    "  caCertFilPath: /etc/ssl/flyte-ca.pem",
    "logger:",
    "  level: 0",
    "",
  ].join("\n");
}

const TYPO_WARNING = (file: string) =>
  `unknown key "admin.caCertFilPath" in config file "${file}" is ignored; did you mean "admin.caCertFilePath"?`;

/** The messages of the JSON log records on `stderr`, each line one record. */
function logMessages(stderr: string): { level: string; msg: string }[] {
  return stderr.trimEnd().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

Deno.test("config validate at logger.level 0: each unknown key with its suggestion, valid with 1 warning; --strict exits 2", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "config.yaml");
    await Deno.writeTextFile(file, typoConfig("dns:///flyte.example.com:443"));
    const valid = await runFctlProcess(["config", "validate", "-c", file]);
    equal(valid.code, 0, valid.stderr);
    equal(valid.stderr, `warning: ${TYPO_WARNING(file)}\n`);
    equal(valid.stdout, `configuration is valid with 1 warning (config file "${file}", environment and flags)\n`);

    const strict = await runFctlProcess(["config", "validate", "--strict", "-c", file]);
    equal(strict.code, 2);
    equal(strict.stdout, "");
    equal(strict.stderr, `invalid: ${TYPO_WARNING(file)}\nError: the configuration has 1 problem\n`);

    // The report is the command's own output: muting the logger does not hide it.
    const muted = await runFctlProcess(["config", "validate", "-c", file, "--logger.mute"]);
    equal(muted.code, 0);
    equal(muted.stderr, `warning: ${TYPO_WARNING(file)}\n`);
  });
});

Deno.test("get task with a logger.level 0 config warns once about its unknown key; logger.mute silences it", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, [{ name: "core.typo.config", version: "v1" }]);
    await withTempDir(async (dir) => {
      const file = join(dir, "config.yaml");
      await Deno.writeTextFile(file, typoConfig(sandbox.endpoint));
      const get = [
        "get",
        "task",
        "core.typo.config",
        "--latest",
        "-o",
        "json",
        "-p",
        "flytesnacks",
        "-d",
        "development",
      ];
      const warned = await runFctlProcess([...get, "-c", file]);
      equal(warned.code, 0, warned.stderr);
      equal(JSON.parse(warned.stdout).id.version, "v1");
      const records = logMessages(warned.stderr);
      equal(records.length, 1, warned.stderr);
      equal(records[0].level, "warning");
      equal(records[0].msg, TYPO_WARNING(file));

      const muted = await runFctlProcess([...get, "-c", file, "--logger.mute"]);
      equal(muted.code, 0, muted.stderr);
      equal(muted.stderr, "");
    });
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("config init writes a logger level that shows warnings", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "config.yaml");
    const init = await runFctlProcess(["config", "init", "--host", "localhost:8089", "--insecure", "--file", file]);
    equal(init.code, 0, init.stderr);
    const level = parse(await Deno.readTextFile(file)).logger.level;
    equal(level, 3, "3 is warn: unknown keys and retries' troubles are shown, info and debug are not");
    // The written file with a typo in it: the warning shows.
    const text = (await Deno.readTextFile(file)).replace("admin:\n", "admin:\n  clientIdd: fctl\n");
    await Deno.writeTextFile(file, text);
    const view = await runFctlProcess(["config", "view", "-c", file]);
    equal(view.code, 0, view.stderr);
    match(logMessages(view.stderr)[0].msg, /^unknown key "admin\.clientIdd" .*did you mean "admin\.clientId"\?$/);
  });
});

Deno.test("--admin.insecureSkipVerify warns at --logger.level 0 against a TLS admin, and only muted is it silent", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    await withTempDir(async (dir) => {
      const spec = taskSpec({ name: "core.skip.verify", version: "v3" });
      sandbox.store.addTask({ id: spec.template!.id!, spec });
      const token = join(dir, "token.sh");
      await Deno.writeTextFile(token, `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, { mode: 0o700 });
      const get = [
        "get",
        "task",
        "core.skip.verify",
        "--latest",
        "-o",
        "json",
        "-p",
        "flytesnacks",
        "-d",
        "development",
      ];
      get.push("--admin.endpoint", sandbox.endpoint, "--admin.authType", "ExternalCommand", "--admin.command", token);
      get.push("--admin.insecureSkipVerify", "--logger.level", "0");
      const warned = await runFctlProcess(get);
      equal(warned.code, 0, warned.stderr);
      equal(JSON.parse(warned.stdout).id.version, "v3");
      const records = logMessages(warned.stderr);
      equal(records.length, 1, warned.stderr);
      equal(records[0].msg, "admin.insecureSkipVerify is set: the admin service's certificate is not verified");

      const muted = await runFctlProcess([...get, "--logger.mute"]);
      equal(muted.code, 0, muted.stderr);
      assert(muted.stderr === "", muted.stderr);
    });
  } finally {
    await sandbox.close();
  }
});

Deno.test("config validate of a ~/.flyte/config.yaml shared with pyflyte (flytekit's images section) warns about nothing", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "config.yaml");
    await Deno.writeTextFile(
      file,
      [
        "admin:",
        "  endpoint: dns:///flyte.example.com",
        "  authType: Pkce",
        "  insecure: false",
        "console:",
        "  endpoint: https://flyte.example.com",
        "logger:",
        "  show-source: true",
        "  level: 0",
        "images:",
        "  default: ghcr.io/flyteorg/flytekit:py3.11-latest",
        "  spark: ghcr.io/flyteorg/flytekit:spark-latest",
        "",
      ].join("\n"),
    );
    const valid = await runFctlProcess(["config", "validate", "-c", file]);
    equal(valid.code, 0, valid.stderr);
    equal(valid.stderr, "");
    match(valid.stdout, /^configuration is valid \(/);
  });
});

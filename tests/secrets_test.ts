/**
 * Secrets never reach any output: every command runs at debug level (5, which also prints stacks of
 * errors) with secrets in the config file, a flag, the client secret variable and the client secret file,
 * and none of them appears on stdout or stderr, in success or failure.
 */
import { equal, ok as assert } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl } from "./helpers.ts";

const FILE_SECRET = "file-secret-key-8d1f";
const FLAG_SECRET = "flag-secret-key-77aa";
const ENV_CLIENT_SECRET = "env-client-secret-3c9b";
const FILE_CLIENT_SECRET = "file-client-secret-e2f0";
const SECRETS = [FILE_SECRET, FLAG_SECRET, ENV_CLIENT_SECRET, FILE_CLIENT_SECRET];

Deno.test("no secret appears in any output of any command at debug level", async () => {
  const dir = await Deno.makeTempDir();
  const sandbox = await startSandbox();
  try {
    const secretFile = `${dir}/client_secret`;
    await Deno.writeTextFile(secretFile, `${FILE_CLIENT_SECRET}\n`);
    const config = `${dir}/config.yaml`;
    await Deno.writeTextFile(
      config,
      `admin:\n  endpoint: ${sandbox.endpoint}\n  clientSecretEnvVar: MY_CLIENT_SECRET\n` +
        `  clientSecretLocation: ${secretFile}\n  authType: ClientSecret\n` +
        `storage:\n  connection:\n    secret-key: ${FILE_SECRET}\n  secret-key-typo: ${FILE_SECRET}\n` +
        `task:\n  project: flytesnacks\n  domain: development\n`,
    );
    const common = ["-c", config, "--logger.level", "5", "--logger.show-source"];
    const env = { MY_CLIENT_SECRET: ENV_CLIENT_SECRET };
    const runs: string[][] = [
      ["get", "task", ...common],
      ["get", "task", ...common, "-o", "yaml", "--logger.formatter.type", "text"],
      ["get", "task", "missing", ...common, "--logger.formatter.type", "gcp"],
      ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1", ...common],
      ["config", "view", "--all", ...common],
      ["config", "view", ...common, "-o", "json", "--storage.connection.secret-key", FLAG_SECRET],
      ["config", "validate", "--strict", ...common],
      ["get", "task", ...common, "--admin.endpoint", "127.0.0.1:1", "--admin.maxRetries", "2"],
      ["get", "task", ...common, "--storage.connection.secret-key", FLAG_SECRET, "--output", FLAG_SECRET],
      ["get", "task", ...common, "--storage.connection.secret-key", FLAG_SECRET, "--admin.maxRetries", "x"],
      ["--help", ...common],
    ];
    sandbox.failRatio("ListTasks", Code.Unavailable, 0.5);
    let sawStack = false;
    for (const args of runs) {
      const { stdout, stderr, code } = await runFctl(args, { env });
      for (const secret of SECRETS) {
        assert(!stdout.includes(secret), `${secret} on stdout of ${args.join(" ")}`);
        assert(!stderr.includes(secret), `${secret} on stderr of ${args.join(" ")}:\n${stderr}`);
      }
      if (/^\s+at /m.test(stderr)) sawStack = true;
      if (args[0] === "get" && args[2] === "-c" && args.length === common.length + 2) {
        equal(code, 0, stderr);
        assert(stderr.includes('"msg":"admin call"'), "debug records of calls are written");
        assert(stderr.includes("[redacted]"), "the configuration record shows the secret redacted");
      }
    }
    assert(sawStack, "debug level prints stacks of errors, so the check covers them");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a password in an endpoint URL never appears in an error or a log line", async () => {
  const password = "Pa55w0rd%2Fsecret";
  for (const endpoint of [`http://user:${password}@127.0.0.1:1`, `https://user:${password}@127.0.0.1:1`]) {
    const result = await runFctl([
      "get",
      "task",
      "-p",
      "p",
      "-d",
      "d",
      "--admin.endpoint",
      endpoint,
      "--logger.level",
      "5",
    ]);
    assert(result.code !== 0, result.stderr);
    assert(result.stderr.includes("user:[redacted]@127.0.0.1:1"), result.stderr);
    for (const text of [result.stdout, result.stderr]) {
      assert(!text.includes("Pa55w0rd"), text);
      assert(!text.includes("Pa55w0rd/secret"), text);
    }
  }
});

/**
 * Runs the real executable entry point as a subprocess with the declared permission set
 * (never -A), so a permission the code needs but does not declare fails here.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { startTlsServer } from "../src/http/_test_tls.ts";
import { followSignIn, freePort, waitFor } from "../src/auth/_test_helpers.ts";
import { fctlMain, fixture } from "./helpers.ts";
import { withMuteServer } from "../src/http/_test_mute_server.ts";
import { assertSourceThroughStorage, CORE, coreSource, KEY } from "./fast_source.ts";
import { S3RVER_KEYS, startTestS3 } from "../src/storage/_test_s3.ts";
import { seedTasks, taskSpec } from "./task_fixtures.ts";
import { packTar } from "modern-tar";
import denoJson from "../deno.json" with { type: "json" };

/** What ships: the bundle of main.ts. */
const MAIN = await fctlMain();
/** The HOME of subprocess runs: it exists only for Deno's cache, so no developer's config is read. */
const TEST_HOME = "/nonexistent-fctl-test-home";

async function fctl(
  args: string[],
  env: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args],
    env: { HOME: TEST_HOME, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    signal,
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** The newest version of the seeded task `core.sub.process`, as JSON. */
const GET_LATEST = [
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
];

Deno.test("main.ts round-trips get task over gRPC with only the declared permissions", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, [{ name: "core.sub.process", version: "v7" }]);
    const { code, stdout, stderr } = await fctl([...GET_LATEST, "--admin.endpoint", sandbox.endpoint]);
    equal(stderr, "");
    equal(code, 0);
    equal(JSON.parse(stdout).id.version, "v7");
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("main.ts against a production admin (TLS from a test CA, OAuth): ClientSecret and ExternalCommand with only the declared permissions", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-subprocess-auth-" });
  try {
    const spec = taskSpec({ name: "core.sub.process", version: "v7" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.writeTextFile(`${dir}/client_secret`, `${SANDBOX_CLIENT.secret}\n`, { mode: 0o600 });
    await Deno.writeTextFile(`${dir}/token.sh`, `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, { mode: 0o700 });
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`);
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags];
    // No token cache: this HOME does not exist. Deno's own cache stays where the other subprocess runs keep it.
    const home = { HOME: `${dir}/no-home`, DENO_DIR: `${TEST_HOME}/.cache/deno` };
    const flows = [
      ["--admin.clientSecretLocation", `${dir}/client_secret`],
      ["--admin.authType", "ExternalCommand", "--admin.command", `${dir}/token.sh`],
    ];
    for (const auth of flows) {
      const { code, stdout, stderr } = await fctl([...get, ...auth], home);
      equal(stderr, "", auth[1]);
      equal(code, 0, auth[1]);
      equal(JSON.parse(stdout).id.version, "v7");
    }
    const archive = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    const register = await fctl([...archive, ...flags, "--admin.clientSecretEnvVar", "FLYTE_SECRET"], {
      ...home,
      FLYTE_SECRET: SANDBOX_CLIENT.secret,
    });
    equal(register.stderr, "");
    equal(register.code, 0);
    equal(sandbox.uploads.size, 1);
    deepEqual(sandbox.auth!.tokenRequests.map((r) => r.status), [200, 200], "one token per ClientSecret process");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts signs in with Pkce under the declared permissions: the loopback server, the printed URL followed like a browser", async () => {
  const redirectUri = `http://localhost:${freePort()}/callback`;
  const sandbox = await startSandbox({ production: { redirectUri } });
  const dir = await Deno.makeTempDir({ prefix: "fctl-subprocess-pkce-" });
  try {
    const spec = taskSpec({ name: "core.sub.process", version: "v7" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const args = [...GET_LATEST];
    args.push("--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args, "--admin.authType", "Pkce"],
      env: { HOME: `${dir}/no-home`, DENO_DIR: `${TEST_HOME}/.cache/deno`, NO_COLOR: "1", PATH: "/usr/bin:/bin" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    const reading = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (stderr += chunk) }),
    );
    const stdout = new Response(child.stdout).text();
    const [, url] = await waitFor(() => stderr, /^ {2}(https:\/\/\S+)$/m, 30_000);
    const visit = await followSignIn(url, sandbox.caCertificate!);
    equal(visit.page, "fctl is signed in. You can close this window.\n");
    const status = await child.status;
    await reading;
    equal(status.code, 0, stderr);
    equal(JSON.parse(await stdout).id.version, "v7");
    match(stderr, /^Sign in to continue: open this URL in a browser \(waiting 2m0s\):\n {2}https:\S+\n$/);
    deepEqual(sandbox.auth!.tokenRequests.map((r) => [r.grantType, r.status]), [["authorization_code", 200]]);

    // Ctrl-C while fctl waits for the browser: one line, exit status 130.
    const waiting = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args, "--admin.authType", "Pkce"],
      env: { HOME: `${dir}/no-home`, DENO_DIR: `${TEST_HOME}/.cache/deno`, NO_COLOR: "1" },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let waitingErr = "";
    const readingWaiting = waiting.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (waitingErr += chunk) }),
    );
    await waitFor(() => waitingErr, /^ {2}https:\/\/\S+$/m, 30_000);
    waiting.kill("SIGINT");
    equal((await waiting.status).code, 130);
    await readingWaiting;
    match(waitingErr, /\nError: interrupted while waiting for the sign-in\n$/);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts auth login, status and logout with a token cache and admin.proxyCommand, with only the declared permissions", async () => {
  const sandbox = await startSandbox({ production: { proxyAuthorization: "Bearer iap-subprocess-token" } });
  const dir = await Deno.makeTempDir({ prefix: "fctl-subprocess-auth-commands-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.writeTextFile(`${dir}/proxy.sh`, `#!/bin/sh\necho iap-subprocess-token\n`, { mode: 0o700 });
    await Deno.mkdir(`${dir}/home`);
    const flags = ["--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`];
    flags.push("--admin.clientSecretEnvVar", "FLYTE_SECRET", "--admin.proxyCommand", `${dir}/proxy.sh`);
    const env = { HOME: `${dir}/home`, DENO_DIR: `${TEST_HOME}/.cache/deno`, FLYTE_SECRET: SANDBOX_CLIENT.secret };
    const login = await fctl(["auth", "login", ...flags], env);
    equal(login.stderr, "");
    equal(login.code, 0);
    match(login.stdout, /^logged in to .* with ClientSecret \(client flytepropeller\): token cached until /);
    const status = await fctl(["auth", "status", "-o", "json", ...flags], env);
    equal(status.stderr, "");
    equal(JSON.parse(status.stdout).identity, SANDBOX_CLIENT.id);
    const logout = await fctl(["auth", "logout", ...flags], env);
    match(logout.stdout, /^removed the cached tokens for .*: ClientSecret\/flytepropeller\n$/);
    equal(sandbox.auth!.tokenRequests.length, 1);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts exits 2 with one line for a usage error", async () => {
  const { code, stdout, stderr } = await fctl(["get", "task"]);
  equal(code, 2);
  equal(stdout, "");
  match(stderr, /^Error: project and domain are required parameters\n$/);
});

Deno.test("main.ts refuses a device or a FIFO as the config, secret or CA file at once: exit 2, one line naming it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/fifo`;
    equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    // Before the cap these grew memory without bound or blocked forever: the timeout turns a hang into a failure.
    const run = (args: string[]) => fctl(args, {}, AbortSignal.timeout(20_000));
    const cases: [string[], number, RegExp][] = [
      [
        ["config", "view", "-c", "/dev/zero"],
        2,
        /^Error: cannot read config file "\/dev\/zero": a character device, not a regular file\n$/,
      ],
      [["config", "view", "-c", fifo], 2, /^Error: cannot read config file ".*\/fifo": a FIFO, not a regular file\n$/],
      [["config", "view", "--admin.clientSecretLocation", fifo], 0, /^$/],
      [["config", "view", "--admin.clientSecretLocation", "/dev/zero"], 0, /^$/],
    ];
    for (const [args, expectedCode, stderrPattern] of cases) {
      const { code, stderr } = await run(args);
      match(stderr, stderrPattern, args.join(" "));
      equal(code, expectedCode, args.join(" "));
    }
    const ca = await run([
      "config",
      "validate",
      "--admin.endpoint",
      "dns:///localhost:1",
      "--admin.caCertFilePath",
      "/dev/zero",
    ]);
    match(
      ca.stdout + ca.stderr,
      /cannot read admin.caCertFilePath "\/dev\/zero": a character device, not a regular file/,
    );
    equal(ca.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno.json runs fctl and the demo with exactly the declared permissions and V8 flags", () => {
  for (const task of ["fctl", "demo"] as const) {
    // The command that runs fctl: the fctl task first brings the bundle up to date (scripts/bundle.ts).
    const run = denoJson.tasks[task].split(" && ").at(-1)!;
    const flags = run.split(" ").filter((word) => /^--(allow|deny|v8-flags)/.test(word));
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

Deno.test("main.ts config init, version (with GetVersion) and completion with only the declared permissions", async () => {
  const home = await Deno.makeTempDir({ prefix: "fctl-init-home-" });
  const sandbox = await startSandbox();
  try {
    const init = await fctl(["config", "init", "--host", `localhost:${sandbox.port}`, "--insecure"], { HOME: home });
    equal(init.code, 0, init.stderr);
    const file = `${home}/.flyte/config.yaml`;
    equal(init.stdout, `wrote config file ${file}\n`);
    equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    // The file it wrote is the one every other command reads: version reaches the admin through it.
    const version = await fctl(["version", "-o", "json"], { HOME: home });
    equal(version.code, 0, version.stderr);
    deepEqual(JSON.parse(version.stdout).map((v: { App: string }) => v.App), ["fctl", "controlPlane"]);
    const completion = await fctl(["completion", "bash"]);
    equal(completion.code, 0, completion.stderr);
    match(completion.stdout, /\ncomplete -o default -F _fctl fctl\n$/);
  } finally {
    await sandbox.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("main.ts against a production admin: https:// downloads and uploads (from memory and from disk) with only the declared permissions", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-subprocess-https-" });
  const archive = await Deno.readFile(fixture("flytesnacks-core.tgz"));
  // The archive host has a CA of its own: the CA file trusts both, as a bundle does.
  const archiveHost = await startTlsServer(() => new Response(archive));
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${archiveHost.caCert}`);
    await Deno.mkdir(`${dir}/pkg`);
    const untar = await new Deno.Command("tar", { args: ["xzf", fixture("flytesnacks-core.tgz"), "-C", `${dir}/pkg`] })
      .output();
    equal(untar.success, true);
    const files = [...Deno.readDirSync(`${dir}/pkg/core/_pb_output`)].map((e) =>
      `${dir}/pkg/core/_pb_output/${e.name}`
    );
    const source = files.find((path) => /\/fast[^/]*\.tar\.gz$/.test(path))!;
    const sourceBytes = await Deno.readFile(source);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    const env = { HOME: `${dir}/home`, DENO_DIR: `${TEST_HOME}/.cache/deno`, FLYTE_SECRET: SANDBOX_CLIENT.secret };

    // An archive downloaded over https: its small source is uploaded from memory.
    const url = `${archiveHost.url}/releases/flytesnacks-core.tgz?sig=secret`;
    const fromArchive = await fctl(["register", "files", "--archive", url, "--version", "v1", ...flags], env);
    equal(fromArchive.stderr, "");
    equal(fromArchive.code, 0);
    deepEqual([...sandbox.uploads.values()], [sourceBytes]);

    // The same files named one by one: the source is streamed from disk.
    sandbox.uploads.clear();
    const fromDisk = await fctl(["register", "files", ...files, "--version", "v2", ...flags], env);
    equal(fromDisk.stderr, "");
    equal(fromDisk.code, 0);
    deepEqual([...sandbox.uploads.values()], [sourceBytes]);

    // The authorization server and the object store each refuse once in passing (a fresh HOME: no cached token).
    // Both calls are sent again; at debug level every HTTP call has its record, with no query, token or secret.
    sandbox.uploads.clear();
    sandbox.auth!.failNextTokenRequests(1, 503);
    sandbox.failNextUploads(1, 503);
    const retried = await fctl(
      ["register", "files", "--archive", url, "--version", "v3", ...flags, "--logger.level", "5"],
      { ...env, HOME: `${dir}/home-retried` },
    );
    equal(retried.code, 0, retried.stderr);
    deepEqual([...sandbox.uploads.values()], [sourceBytes]);
    const records = retried.stderr.trimEnd().split("\n").map((line) => JSON.parse(line));
    const retries = records.filter((r) => r.msg.startsWith("retrying ")).map((r) => r.msg.replace(/https:\S+/, "URL"));
    deepEqual(retries, ["retrying POST URL after HTTP 503", "retrying PUT URL after HTTP 503"]);
    const calls = records.filter((r) => r.msg === "http call").map((r) => `${r.json.method} ${r.json.status}`);
    deepEqual(calls, ["GET 200", "POST 503", "POST 200", "PUT 503", "PUT 200"]);
    ok(!/\?|sig=secret|token=/.test(records.filter((r) => r.msg === "http call").map((r) => r.json.url).join(" ")));
    ok(!retried.stderr.includes(SANDBOX_CLIENT.secret), "no client secret at debug level");

    // A download that cannot connect names the URL, without its query, and the cause.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closed = `https://127.0.0.1:${listener.addr.port}/flytesnacks-core.tgz`;
    listener.close();
    const refused = await fctl(["register", "files", "--archive", `${closed}?sig=secret`, ...flags], env);
    equal(refused.code, 1);
    equal(refused.stderr, `Error: cannot download "${closed}": tcp connect error: Connection refused (os error 111)\n`);
  } finally {
    await archiveHost.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts against a production admin without DataProxy: the source goes to S3 over TLS, with only the declared permissions", async () => {
  const sandbox = await startSandbox({ production: true, dataProxy: false });
  const s3 = await startTestS3({ tls: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-subprocess-s3-" });
  try {
    // One CA file trusts both the admin's and the storage server's certificates, as a bundle does.
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${s3.caCert!}`);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    flags.push(
      "--storage.type",
      "s3",
      "--storage.container",
      "fctl-fast",
      "--storage.connection.endpoint",
      s3.endpoint,
    );
    flags.push("--storage.connection.auth-type", "accesskey", "--storage.connection.access-key", S3RVER_KEYS.accessKey);
    const env = {
      HOME: `${dir}/home`,
      DENO_DIR: `${TEST_HOME}/.cache/deno`,
      FLYTE_SECRET: SANDBOX_CLIENT.secret,
      FCTL_STORAGE_CONNECTION_SECRET_KEY: S3RVER_KEYS.secretKey,
    };
    const result = await fctl(["register", "files", "--archive", fixture(CORE), "--version", "v1", ...flags], env);
    equal(result.stderr, "");
    equal(result.code, 0);
    // The admin handed out no upload location; the bytes went to the bucket, which was created for them.
    deepEqual(await s3.object("fctl-fast", KEY), await coreSource());
    // The 4 tasks that do not use the source go out before there is a token, and are retried with it.
    assertSourceThroughStorage(sandbox, `s3://fctl-fast/${KEY}`, 39 + 4);
  } finally {
    await s3.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts: SIGTERM interrupts; a second one exits at once and still removes the temp dir", async () => {
  const sandbox = await startSandbox({ latencyMs: 30_000 });
  const tmp = await Deno.makeTempDir({ prefix: "fctl-signal-test-" });
  try {
    // A source past the in-memory limit (8 MiB) is streamed into the run's temp dir.
    const source = new Uint8Array(9 * 1024 * 1024);
    for (let i = 0; i < source.length; i += 65536) crypto.getRandomValues(source.subarray(i, i + 65536));
    const archive = `${tmp}/package.tar`;
    await Deno.writeFile(
      archive,
      await packTar([{ header: { name: "fast1.tar.gz", size: source.length }, body: source }]),
    );
    const work = `${tmp}/work`;
    await Deno.mkdir(work);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, "register", "files", "--archive", archive, "--version", "v1"]
        .concat(["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint]),
      env: { HOME: TEST_HOME, NO_COLOR: "1", TMPDIR: work },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const dirs = () => [...Deno.readDirSync(work)].filter((e) => e.name.startsWith("fctl-register-"));
    await waitFor(() => String(dirs().length), /^[1-9]/, 20_000);
    // Back to back: the second arrives while the first is being handled, which is the forced exit.
    child.kill("SIGTERM");
    child.kill("SIGTERM");
    const { code } = await child.status;
    equal(code, 130);
    deepEqual(dirs(), []);
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

/**
 * Runs fctl with `args(muteHostPort)`, the address of a server that takes connections and never answers; sends
 * SIGINT once fctl has connected to it, and returns the exit status, stderr and how long the exit took.
 */
async function interruptedWhileWaiting(
  args: (muteHostPort: string) => string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string; tookMs: number }> {
  let result: { code: number; stderr: string; tookMs: number } | undefined;
  await withMuteServer(async (mute) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args(mute.hostPort)],
      env: { HOME: TEST_HOME, NO_COLOR: "1", ...env },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();
    await waitFor(() => mute.connections() > 0 ? "asked" : "", /asked/, 30_000);
    const interrupted = performance.now();
    child.kill("SIGINT");
    const { code } = await child.status;
    result = { code, stderr: await stderr, tookMs: performance.now() - interrupted };
  });
  return result!;
}

Deno.test("main.ts: Ctrl-C while a token request waits for its answer ends the run at once, not at http.headersTimeout", async () => {
  const sandbox = await startSandbox({ production: {} });
  const dir = await Deno.makeTempDir({ prefix: "fctl-subprocess-token-interrupt-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const run = await interruptedWhileWaiting((mute) => [
      ...["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
      ...["--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET"],
      ...["--admin.tokenUrl", `http://${mute}/token`, "--admin.allowInsecureTokenEndpoint"],
      ...["--http.headersTimeout", "1m"],
    ], { FLYTE_SECRET: SANDBOX_CLIENT.secret });
    equal(run.code, 130);
    equal(run.stderr, "Error: interrupted\n");
    // Before, the token request ignored the interrupt and ran until the headers timeout: a minute here.
    ok(run.tookMs < 20_000, `fctl exited ${Math.round(run.tookMs)} ms after SIGINT`);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts: Ctrl-C while get task waits for an admin that does not answer ends the run at once, not after every attempt", async () => {
  const run = await interruptedWhileWaiting((mute) => [
    ...["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.endpoint", `dns:///${mute}`],
    ...["--admin.insecure", "--admin.perRetryTimeout", "15s", "--admin.maxRetries", "4"],
  ]);
  equal(run.code, 130);
  equal(run.stderr, "Error: interrupted\n");
  // Before, the calls carried no signal: the run waited out 4 attempts of 15 s after the first Ctrl-C.
  ok(run.tookMs < 20_000, `fctl exited ${Math.round(run.tookMs)} ms after SIGINT`);
});

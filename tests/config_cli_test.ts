/** `fctl config view|validate` and configuration handling through the real command graph. */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { runFctl } from "./helpers.ts";

async function withConfig(text: string, fn: (path: string) => Promise<void>) {
  const path = await Deno.makeTempFile({ suffix: ".yaml" });
  try {
    await Deno.writeTextFile(path, text);
    await fn(path);
  } finally {
    await Deno.remove(path);
  }
}

const CONFIG = `admin:
  endpoint: dns:///flyte.example.com:443
  perRetryTimeout: 1m30s
  scopes: [all]
storage:
  connection:
    secret-key: very-secret-key
task:
  project: flytesnacks
`;

Deno.test("config view: every set value with its source, secrets redacted", async () => {
  await withConfig(CONFIG, async (path) => {
    const { code, stdout, stderr } = await runFctl(
      ["config", "view", "-c", path, "-o", "json", "-d", "development"],
      { env: { FCTL_ADMIN_MAX_RETRIES: "2" } },
    );
    equal(stderr, "");
    equal(code, 0);
    const rows = JSON.parse(stdout) as { key: string; value: unknown; source: string }[];
    const byKey = Object.fromEntries(rows.map((r) => [r.key, [r.value, r.source]]));
    deepEqual(byKey, {
      config: [path, "flag --config"],
      project: ["flytesnacks", `file ${path} (task.project)`],
      domain: ["development", "flag --domain"],
      output: ["JSON", "flag --output"],
      "admin.endpoint": ["dns:///flyte.example.com:443", `file ${path} (admin.endpoint)`],
      "admin.maxRetries": [2, "env FCTL_ADMIN_MAX_RETRIES"],
      "admin.perRetryTimeout": ["1m30s", `file ${path} (admin.perRetryTimeout)`],
      "admin.scopes": [["all"], `file ${path} (admin.scopes)`],
      "storage.connection.secret-key": ["[redacted]", `file ${path} (storage.connection.secret-key)`],
    });
    assert(!stdout.includes("very-secret-key"));
  });
});

Deno.test("config view --all lists defaults too, as a table", async () => {
  const { code, stdout } = await runFctl(["config", "view", "--all"]);
  equal(code, 0);
  match(stdout, /\| admin\.perRetryTimeout +\| 15s +\| default +\|/);
  match(stdout, /\| admin\.clientId +\| flytepropeller +\| default +\|/);
});

Deno.test("config validate: a good config passes; problems are listed and exit 2", async () => {
  await withConfig(CONFIG, async (path) => {
    const ok = await runFctl(["config", "validate", "-c", path]);
    equal(ok.code, 0);
    equal(ok.stdout, `configuration is valid (config file "${path}", environment and flags)\n`);
  });
  await withConfig("admin:\n  authType: ExternalCommand\n  endpont: x\n", async (path) => {
    const bad = await runFctl(["config", "validate", "-c", path, "--strict", "--logger.mute"]);
    equal(bad.code, 2);
    equal(
      bad.stderr,
      "invalid: admin.authType ExternalCommand needs admin.command (the program that prints a token)\n" +
        `invalid: unknown key "admin.endpont" in config file "${path}" is ignored; did you mean "admin.endpoint"?\n` +
        "note: no admin endpoint is configured: commands that call the admin need one " +
        "(--admin.endpoint, FCTL_ADMIN_ENDPOINT or admin.endpoint in the config file)\n" +
        "Error: the configuration has 2 problems\n",
    );
  });
  await withConfig("admin:\n  maxRetries: lots\n", async (path) => {
    const bad = await runFctl(["config", "validate", "-c", path]);
    equal(bad.code, 2);
    equal(
      bad.stderr,
      `Error: invalid value "lots" for admin.maxRetries in "${path}": expected a whole number of at least 1\n`,
    );
  });
});

Deno.test("unknown keys and deprecated options warn on stderr as log records, and do not fail", async () => {
  await withConfig("admin:\n  endpont: x\n  useAuth: true\n", async (path) => {
    const { code, stderr } = await runFctl(["config", "view", "-c", path, "--logger.formatter.type", "text"]);
    equal(code, 0);
    const lines = stderr.trimEnd().split("\n");
    equal(lines.length, 2);
    match(
      lines[0],
      /^time="[^"]+" level=warning msg="unknown key \\"admin.endpont\\" .*did you mean \\"admin.endpoint\\"\?"$/,
    );
    match(lines[1], /level=warning msg="admin.useAuth in .* is deprecated: .*--admin.authType"$/);
  });
});

Deno.test("missing project or domain fails before connecting, exit 2", async () => {
  const { code, stderr } = await runFctl(["get", "task", "-p", "x", "--admin.endpoint", "127.0.0.1:1"]);
  equal(code, 2);
  equal(stderr, "Error: project and domain are required parameters\n");
});

Deno.test("every option of the schema is accepted on the command line", async () => {
  const args = [
    "config",
    "view",
    "--admin.insecureSkipVerify",
    "--admin.caCertFilePath",
    "/ca.pem",
    "--admin.httpProxyURL",
    "http://proxy:3128",
    "--admin.maxBackoffDelay",
    "2s",
    "--admin.defaultServiceConfig",
    '{"loadBalancingConfig":[{"round_robin":{}}]}',
    "--admin.authType",
    "deviceflow",
    "--admin.clientId",
    "c",
    "--admin.clientSecretEnvVar",
    "SECRET",
    "--admin.clientSecretLocation",
    "/s",
    "--admin.command",
    "a",
    "--admin.command",
    "b",
    "--admin.audience",
    "aud",
    "--admin.useAudienceFromAdmin",
    "--admin.scopes",
    "x,y",
    "--admin.authorizationServerUrl",
    "https://auth",
    "--admin.tokenUrl",
    "https://t",
    "--admin.allowInsecureTokenEndpoint",
    "--admin.authorizationHeader",
    "flyte-authorization",
    "--admin.tokenRefreshWindow",
    "1m",
    "--admin.pkceConfig.refreshTime",
    "1m",
    "--admin.pkceConfig.timeout",
    "1m",
    "--admin.deviceFlowConfig.pollInterval",
    "1s",
    "--admin.deviceFlowConfig.refreshTime",
    "1m",
    "--admin.deviceFlowConfig.timeout",
    "1m",
    "--storage.type",
    "stow",
    "--storage.stow.kind",
    "google",
    "--storage.stow.config",
    "a=1",
    "--storage.cache.max_size_mbs",
    "5",
    "--storage.cache.target_gc_percent",
    "70",
    "--storage.limits.maxDownloadMBs",
    "9",
    "--storage.defaultHttpClient.timeout",
    "10s",
    "--console.endpoint",
    "https://c",
    "--logger.show-source",
    "--logger.mute=true",
    "--files.dryRun",
    "--files.k8sServiceAccount",
    "sa",
    "-o",
    "yaml",
  ];
  const { code, stdout, stderr } = await runFctl(args);
  equal(stderr, "");
  equal(code, 0);
  match(stdout, /key: admin\.command\n {2}value:\n {4}- a\n {4}- b\n/);
  match(stdout, /key: admin\.authType\n {2}value: DeviceFlow\n/);
  match(stdout, /key: storage\.stow\.config\n {2}value:\n {4}a: "1"\n/);
});

Deno.test("config view with nothing set says so and points at --all", async () => {
  const { code, stdout, stderr } = await runFctl(["config", "view"]);
  equal(code, 0);
  assert(stdout.endsWith("0 rows\n"));
  equal(stderr, "every option has its default value; `fctl config view --all` lists them\n");
});

Deno.test("a bad pair of --storage.stow.config is named, with what would be valid", async () => {
  const { code, stderr } = await runFctl([
    "config",
    "view",
    "--storage.stow.config",
    "a=1",
    "--storage.stow.config",
    "novalue",
  ]);
  equal(code, 2);
  equal(
    stderr,
    'Error: invalid value "novalue" for --storage.stow.config: expected key=value pairs such as "region=us-east-1"\n',
  );
});

import { deepEqual, equal, match, ok as assert, rejects } from "node:assert/strict";
import { type ConfigProblemsError, loadConfig } from "./load.ts";
import { editDistance, KeySuggester } from "./nearest.ts";

function files(map: Record<string, string>) {
  return (path: string) => {
    if (path in map) return Promise.resolve(map[path]);
    return Promise.reject(new Deno.errors.NotFound(path));
  };
}

Deno.test("precedence is defaults < file < environment < flags", async () => {
  const readTextFile = files({
    "/home/u/.flyte/config.yaml":
      "admin:\n  endpoint: dns:///from-file:443\n  insecure: true\ntask:\n  project: p-file\n  domain: d-file\n",
  });
  const env = { HOME: "/home/u", FCTL_TASK_UNUSED: "x", FCTL_DOMAIN: "d-env", FCTL_OUTPUT: "json" };
  const { config, sources, file } = await loadConfig({ flags: { output: "yaml" }, env, readTextFile });
  equal(file, "/home/u/.flyte/config.yaml");
  const keys = ["config", "project", "domain", "output", "admin.endpoint", "admin.insecure"] as const;
  const pick = <T>(record: Record<string, T>) => Object.fromEntries(keys.map((k) => [k, record[k]]));
  deepEqual(
    pick(config),
    {
      config: "",
      project: "p-file",
      domain: "d-env",
      output: "YAML",
      "admin.endpoint": "dns:///from-file:443",
      "admin.insecure": true,
    },
  );
  deepEqual(pick(sources), {
    config: "default",
    project: "file",
    domain: "env",
    output: "flag",
    "admin.endpoint": "file",
    "admin.insecure": "file",
  });
});

Deno.test("config file: -c, else FLYTECTL_CONFIG, else ~/.flyte/config.yaml; only the default may be missing", async () => {
  const readTextFile = files({ "/a.yaml": "task: {project: a}", "/b.yaml": "task: {project: b}" });
  const base = { HOME: "/home/u" };
  equal((await loadConfig({ flags: {}, env: base, readTextFile })).file, undefined);
  equal(
    (await loadConfig({ flags: {}, env: { ...base, FLYTECTL_CONFIG: "/b.yaml" }, readTextFile })).config.project,
    "b",
  );
  const both = await loadConfig({
    flags: { config: "/a.yaml" },
    env: { ...base, FLYTECTL_CONFIG: "/b.yaml" },
    readTextFile,
  });
  equal(both.config.project, "a");
  await rejects(
    loadConfig({ flags: { config: "/missing.yaml" }, env: base, readTextFile }),
    /cannot read config file "\/missing.yaml": no such file/,
  );
});

Deno.test("bad values name where they came from and what is valid", async () => {
  const readTextFile = files({ "/c.yaml": "admin:\n  insecure: maybe\n", "/bad.yaml": "admin: [" });
  await rejects(
    loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile }),
    /invalid value "maybe" for admin.insecure in "\/c.yaml": expected true or false/,
  );
  await rejects(
    loadConfig({ flags: { config: "/bad.yaml" }, env: {}, readTextFile }),
    // One line that ends with the position: the parser's excerpt of the line is not repeated.
    /config file "\/bad.yaml" is not valid YAML: [^\n]* at line 1, column \d+$/,
  );
  await rejects(
    loadConfig({ flags: {}, env: { FCTL_OUTPUT: "xml" }, readTextFile }),
    /invalid value "xml" for environment variable FCTL_OUTPUT: expected one of TABLE, JSON, YAML, DOT, DOTURL/,
  );
});

const FLYTECTL_CONFIG = `admin:
  endpoint: dns:///flyte.example.com:443
  authType: Pkce
  insecure: false
  perRetryTimeout: 5m0s
  maxBackoffDelay: 1h30m
  scopes: [openid, offline]
  command:
    - gcloud
    - auth
    - print-access-token
  pkceConfig:
    timeout: 3m0s
  deviceFlowConfig:
    pollInterval: 10s
logger:
  show-source: true
  level: 0
  formatter:
    type: text
console:
  endpoint: https://console.example.com
storage:
  connection:
    access-key: minio
    auth-type: accesskey
    disable-ssl: true
    endpoint: http://localhost:30084
    region: us-east-1
    secret-key: miniostorage
  type: minio
  container: my-s3-bucket
  enable-multicontainer: true
  stow:
    kind: google
    config:
      json: "{}"
      project_id: p1
  limits:
    maxDownloadMBs: 10
task:
  project: flytesnacks
  domain: development
`;

Deno.test("a flytectl config file loads unchanged, every section typed", async () => {
  const { config, sources, warnings } = await loadConfig({
    flags: { config: "/c.yaml" },
    env: {},
    readTextFile: files({ "/c.yaml": FLYTECTL_CONFIG }),
  });
  deepEqual(warnings, []);
  deepEqual(
    {
      endpoint: config["admin.endpoint"],
      authType: config["admin.authType"],
      perRetryTimeout: config["admin.perRetryTimeout"],
      maxBackoffDelay: config["admin.maxBackoffDelay"],
      scopes: config["admin.scopes"],
      command: config["admin.command"],
      pkceTimeout: config["admin.pkceConfig.timeout"],
      poll: config["admin.deviceFlowConfig.pollInterval"],
      level: config["logger.level"],
      formatter: config["logger.formatter.type"],
      showSource: config["logger.show-source"],
      console: config["console.endpoint"],
      storageType: config["storage.type"],
      stow: config["storage.stow.config"],
      maxDownload: config["storage.limits.maxDownloadMBs"],
      project: config.project,
      maxRetries: config["admin.maxRetries"],
      maxRetriesSource: sources["admin.maxRetries"],
    },
    {
      endpoint: "dns:///flyte.example.com:443",
      authType: "Pkce",
      perRetryTimeout: 300_000,
      maxBackoffDelay: 5_400_000,
      scopes: ["openid", "offline"],
      command: ["gcloud", "auth", "print-access-token"],
      pkceTimeout: 180_000,
      poll: 10_000,
      level: 0,
      formatter: "text",
      showSource: true,
      console: "https://console.example.com",
      storageType: "MINIO",
      stow: { json: "{}", project_id: "p1" },
      maxDownload: 10,
      project: "flytesnacks",
      maxRetries: 4,
      maxRetriesSource: "default",
    },
  );
});

Deno.test("defaults: durations as in flytectl, client id and secret location", async () => {
  const { config } = await loadConfig({ flags: {}, env: {}, readTextFile: files({}) });
  equal(config["admin.perRetryTimeout"], 15_000);
  equal(config["admin.maxBackoffDelay"], 8_000);
  equal(config["admin.maxRetries"], 4);
  equal(config["admin.clientId"], "flytepropeller");
  equal(config["admin.clientSecretLocation"], "/etc/secrets/client_secret");
  equal(config["logger.level"], 3);
  equal(config["logger.formatter.type"], "json");
  deepEqual(config["admin.scopes"], []);
});

Deno.test("environment names are shell style and sit between the file and flags", async () => {
  const readTextFile = files({ "/c.yaml": "admin:\n  maxRetries: 2\n  insecureSkipVerify: false\n" });
  const cases: [Record<string, string>, Record<string, unknown>, unknown, string][] = [
    [{}, {}, 2, "file"],
    [{ FCTL_ADMIN_MAX_RETRIES: "6" }, {}, 6, "env"],
    [{ FCTL_ADMIN_MAX_RETRIES: "6" }, { "admin.maxRetries": "9" }, 9, "flag"],
  ];
  for (const [env, flags, want, source] of cases) {
    const loaded = await loadConfig({ flags: { config: "/c.yaml", ...flags }, env, readTextFile });
    equal(loaded.config["admin.maxRetries"], want);
    equal(loaded.sources["admin.maxRetries"], source);
  }
  const env = {
    FCTL_ADMIN_INSECURE_SKIP_VERIFY: "true",
    FCTL_ADMIN_PER_RETRY_TIMEOUT: "2s",
    FCTL_ADMIN_SCOPES: "a,b",
    FCTL_STORAGE_STOW_CONFIG: "k=v",
    FCTL_LOGGER_SHOW_SOURCE: "1",
  };
  const { config } = await loadConfig({ flags: { config: "/c.yaml" }, env, readTextFile });
  equal(config["admin.insecureSkipVerify"], true);
  equal(config["admin.perRetryTimeout"], 2_000);
  deepEqual(config["admin.scopes"], ["a", "b"]);
  deepEqual(config["storage.stow.config"], { k: "v" });
  equal(config["logger.show-source"], true);
});

Deno.test("unknown keys warn once each with the nearest valid key; they never fail", async () => {
  const readTextFile = files({
    "/c.yaml":
      "admin:\n  endpont: x:1\n  insecure: true\nlogger:\n  levl: 5\nstorage:\n  stow:\n    config:\n      anything: 1\nfoo: 1\nmaxRetries: 3\n",
  });
  const { warnings, config } = await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile });
  equal(config["admin.insecure"], true);
  deepEqual(warnings, [
    'unknown key "admin.endpont" in config file "/c.yaml" is ignored; did you mean "admin.endpoint"?',
    'unknown key "logger.levl" in config file "/c.yaml" is ignored; did you mean "logger.level"?',
    'unknown key "foo" in config file "/c.yaml" is ignored',
    'unknown key "maxRetries" in config file "/c.yaml" is ignored; did you mean "admin.maxRetries"?',
  ]);
});

Deno.test("deprecated options work and warn naming the replacement", async () => {
  const readTextFile = files({ "/c.yaml": "admin:\n  useAuth: true\nfiles:\n  k8ServiceAccount: sa\n" });
  const { warnings, config } = await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile });
  equal(config["files.k8ServiceAccount"], "sa");
  deepEqual(warnings, [
    'admin.useAuth in "/c.yaml" is deprecated: auth is used whenever the admin service asks for it; choose the flow with --admin.authType',
    'files.k8ServiceAccount in "/c.yaml" is deprecated: use --files.k8sServiceAccount',
  ]);
  const fromFlag = await loadConfig({ flags: { "files.k8ServiceAccount": "x" }, env: {}, readTextFile: files({}) });
  deepEqual(fromFlag.warnings, ["--files.k8ServiceAccount is deprecated: use --files.k8sServiceAccount"]);
});

Deno.test("wrong types in the file name the file, the key and the expected type", async () => {
  const cases: [string, RegExp][] = [
    [
      "admin:\n  maxRetries: many\n",
      /^invalid value "many" for admin.maxRetries in "\/c.yaml": expected a whole number/,
    ],
    [
      'admin:\n  perRetryTimeout: "15"\n',
      /^invalid value "15" for admin.perRetryTimeout in "\/c.yaml": expected a duration/,
    ],
    [
      "admin:\n  endpoint: {host: x}\n",
      /^invalid value a mapping for admin.endpoint in "\/c.yaml": expected a string$/,
    ],
    ["logger:\n  level: 9\n", /for logger.level in "\/c.yaml": expected a whole number from 0 to 6$/],
    ["- a\n- b\n", /^config file "\/c.yaml" must be a mapping of sections/],
    [
      "admin:\n  defaultServiceConfig: '{oops'\n",
      /^invalid gRPC service config in admin.defaultServiceConfig in "\/c.yaml": not valid JSON/,
    ],
  ];
  for (const [text, want] of cases) {
    await rejects(
      loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile: files({ "/c.yaml": text }) }),
      (err: Error) => want.test(err.message),
      text,
    );
  }
  await rejects(
    loadConfig({ flags: {}, env: { FCTL_ADMIN_DEFAULT_SERVICE_CONFIG: "[1]" }, readTextFile: files({}) }),
    /invalid gRPC service config in environment variable FCTL_ADMIN_DEFAULT_SERVICE_CONFIG: must be a JSON object/,
  );
});

Deno.test("YAML 1.1 like the Go readers: yes/no are booleans", async () => {
  const readTextFile = files({ "/c.yaml": "admin:\n  insecure: yes\n" });
  equal((await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile })).config["admin.insecure"], true);
});

Deno.test("a section of the wrong shape is refused naming the key, not skipped in silence", async () => {
  const cases: [string, RegExp][] = [
    [
      "admin: [endpoint, insecure]\n",
      /^UsageError: config file "\/c.yaml": "admin" must be a mapping of keys \(like "admin:" then indented "key: value" lines\), got a list$/,
    ],
    [
      "admin:\n  pkceConfig: yes\n",
      /^UsageError: config file "\/c.yaml": "admin.pkceConfig" must be a mapping of keys .*got the value "true"$/,
    ],
    ["storage: s3\n", /"storage" must be a mapping of keys .*got the value "s3"$/],
  ];
  for (const [text, want] of cases) {
    const readTextFile = files({ "/c.yaml": text });
    await rejects(loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile }), want, text);
  }
  // An empty section is a mapping with nothing in it, as in Go.
  const readTextFile = files({ "/c.yaml": "admin:\nstorage:\n" });
  await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile });
});

Deno.test("a file of 40,000 unknown keys: 20 warnings with suggestions and one line counting the rest", async () => {
  const lines = ["admin:", "  endpoint: dns:///a:443"];
  for (let i = 0; i < 40_000; i++) lines.push(`  unknownKey${i}: v`);
  const readTextFile = files({ "/c.yaml": lines.join("\n") });
  const { warnings, config } = await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile });
  equal(config["admin.endpoint"], "dns:///a:443");
  equal(warnings.length, 21);
  equal(warnings[0], 'unknown key "admin.unknownKey0" in config file "/c.yaml" is ignored');
  equal(warnings[20], '… and 39980 more unknown keys in config file "/c.yaml" are ignored');
});

Deno.test("a suggestion costs at most one bounded distance per candidate, and ranks as before", () => {
  const known = ["admin.endpoint", "admin.insecure", "admin.clientId", "storage.type", "storage.container"];
  const suggester = new KeySuggester(known);
  equal(suggester.suggest("admin.endpont"), "admin.endpoint");
  equal(suggester.suggest("storage.endpoint"), "admin.endpoint");
  equal(suggester.suggest("admin.zzzzzzzzzzzz"), undefined);
  // Three suggestions, each over the siblings then every key: never more than 2 × 5 distances each.
  assert(suggester.distances <= 3 * 2 * known.length, `${suggester.distances} distances`);
  equal(editDistance("abcdef", "uvwxyz", 2), 3);
  equal(editDistance("Endpoint", "endpont"), 1);
});

Deno.test("every bad value is reported in one error, not one per run", async () => {
  const readTextFile = files({ "/c.yaml": "admin:\n  insecure: maybe\n  maxRetries: lots\nstorage: s3\n" });
  await rejects(
    loadConfig({ flags: { config: "/c.yaml", output: "dot2" }, env: { FCTL_LOGGER_LEVEL: "9" }, readTextFile }),
    (err: Error) => {
      equal(err.name, "ConfigProblemsError");
      equal((err as ConfigProblemsError).problems.length, 5);
      match(err.message, /^the configuration has 5 problems: config file "\/c.yaml": "storage" must be a mapping/);
      match(err.message, /invalid value "maybe" for admin.insecure/);
      match(err.message, /invalid value "lots" for admin.maxRetries/);
      match(err.message, /invalid value "9" for environment variable FCTL_LOGGER_LEVEL/);
      match(err.message, /invalid value "dot2" for --output: expected one of TABLE, JSON, YAML, DOT, DOTURL/);
      return true;
    },
  );
});

Deno.test("keys real flytectl configs carry load without a warning", async () => {
  const text = `admin:
  endpoint: dns:///flyte.example.com:443
  maxMessageSizeBytes: 8388608
  proxyCommand: [iap-token]
  defaultOrg: acme
otel:
  type: noop
  file: {filename: /tmp/trace.txt}
  jaeger: {endpoint: "http://localhost:14268/api/traces"}
  otlpgrpc: {endpoint: "http://localhost:4317"}
  otlphttp: {endpoint: "http://localhost:4318/v1/traces"}
  sampler: {parentSampler: always, traceIdRatio: 0.01}
storage:
  defaultHttpClient:
    timeout: 30s
    headers: {X-Extra: [a]}
  signedUrl:
    stowConfigOverride: {key: value}
`;
  const readTextFile = files({ "/c.yaml": text });
  const { warnings, config } = await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile });
  deepEqual(warnings, []);
  equal(config["admin.maxMessageSizeBytes"], 8388608);
  deepEqual(config["admin.proxyCommand"], ["iap-token"]);
});

Deno.test("a duplicate key is named with its line, even deep in a large file", async () => {
  const lines = ["admin:"];
  for (let i = 0; i < 20_000; i++) lines.push(`  k${i}: v`);
  lines.push("  k7: again");
  const readTextFile = files({ "/c.yaml": lines.join("\n") });
  await rejects(
    loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile }),
    /config file "\/c.yaml" is not valid YAML: Map keys must be unique at line 20002, column 3: "k7" appears twice/,
  );
});

Deno.test("a file nested past 64 levels, or thousands deep (flow or block style), is refused in one line naming where", async () => {
  const flow = (depth: number) => `admin: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
  const block = Array.from({ length: 3_000 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " v\n";
  const readTextFile = files({ "/200.yaml": flow(200), "/5000.yaml": flow(5_000), "/block.yaml": block });
  const refusal = (file: string, where: string) =>
    new RegExp(
      `^UsageError: config file "\\${file}" is not valid YAML: it nests more than 64 levels deep, at ${where}$`,
    );
  // The 64th bracket: the admin section's value is the first level below the file's mapping.
  await rejects(
    loadConfig({ flags: { config: "/200.yaml" }, env: {}, readTextFile }),
    refusal("/200.yaml", "line 1, column 71"),
  );
  // Thousands deep, the parser runs out of stack first, at a point that depends on the stack: named all the same.
  await rejects(
    loadConfig({ flags: { config: "/5000.yaml" }, env: {}, readTextFile }),
    refusal("/5000.yaml", "line 1, column \\d+"),
  );
  await rejects(
    loadConfig({ flags: { config: "/block.yaml" }, env: {}, readTextFile }),
    refusal("/block.yaml", "line \\d+, column \\d+"),
  );
});

Deno.test("key names match whatever their case, as flytectl's reader matches them; two spellings of one key are refused", async () => {
  const text =
    "Admin:\n  Endpoint: dns:///x:1\n  insecureskipverify: true\n  PkceConfig:\n    TIMEOUT: 1m\nLogger:\n  Level: 4\n" +
    "Storage:\n  Stow:\n    Config:\n      Account: a\nTask:\n  Project: p\nimages:\n  Mindmeld: img\n";
  const { config, warnings, sources } = await loadConfig({
    flags: { config: "/c.yaml" },
    env: {},
    readTextFile: files({ "/c.yaml": text }),
  });
  deepEqual(warnings, []);
  equal(config["admin.endpoint"], "dns:///x:1");
  equal(config["admin.insecureSkipVerify"], true);
  equal(config["admin.pkceConfig.timeout"], 60_000);
  equal(config["logger.level"], 4);
  equal(sources["logger.level"], "file");
  // A free-form mapping's own keys keep their spelling.
  deepEqual(config["storage.stow.config"], { Account: "a" });
  equal(config.project, "p");
  await rejects(
    loadConfig({
      flags: { config: "/c.yaml" },
      env: {},
      readTextFile: files({ "/c.yaml": "admin:\n  insecure: true\n  Insecure: false\n" }),
    }),
    /^UsageError: config file "\/c.yaml": "admin.insecure" and "admin.Insecure" are the same key \(key names are case-insensitive, as flytectl reads them\); keep one$/,
  );
});

Deno.test("a dotted key is a path, as flytectl's reader splits it; given twice it is refused", async () => {
  const text =
    "admin.endpoint: dns:///dotted:1\nadmin:\n  insecure: true\n  PkceConfig.Timeout: 1m\nadmin.endpont: x\n";
  const { config, warnings } = await loadConfig({
    flags: { config: "/c.yaml" },
    env: {},
    readTextFile: files({ "/c.yaml": text }),
  });
  equal(config["admin.endpoint"], "dns:///dotted:1");
  equal(config["admin.insecure"], true);
  equal(config["admin.pkceConfig.timeout"], 60_000);
  deepEqual(warnings, [
    'unknown key "admin.endpont" in config file "/c.yaml" is ignored; did you mean "admin.endpoint"?',
  ]);
  await rejects(
    loadConfig({
      flags: { config: "/c.yaml" },
      env: {},
      readTextFile: files({ "/c.yaml": "admin:\n  endpoint: a\nadmin.endpoint: b\n" }),
    }),
    /^UsageError: config file "\/c.yaml": "admin.endpoint" is given twice, in its section and as a dotted key; keep one$/,
  );
});

Deno.test("a file's values in the forms Go's decoder takes: empty is zero, a bare duration is nanoseconds (warned)", async () => {
  const text = 'admin:\n  insecure: ""\n  maxMessageSizeBytes: ""\n  perRetryTimeout: 0\n  maxBackoffDelay: ""\n' +
    "  tokenRefreshWindow: 1500000000\n  useAudienceFromAdmin: t\nlogger:\n  show-source: 1\n";
  const { config, warnings } = await loadConfig({
    flags: { config: "/c.yaml" },
    env: {},
    readTextFile: files({ "/c.yaml": text }),
  });
  equal(config["admin.insecure"], false);
  equal(config["admin.maxMessageSizeBytes"], 0);
  equal(config["admin.perRetryTimeout"], 0);
  equal(config["admin.maxBackoffDelay"], 0);
  equal(config["admin.tokenRefreshWindow"], 1500);
  equal(config["admin.useAudienceFromAdmin"], true);
  equal(config["logger.show-source"], true);
  deepEqual(warnings, [
    'admin.tokenRefreshWindow in "/c.yaml" is the bare number 1500000000, read as 1500000000 nanoseconds as flytectl ' +
    'reads it; write a duration with its unit, such as "1500000000s"',
  ]);
  // Text without a unit is no duration to Go either; an empty enum is refused as Go refuses it.
  await rejects(
    loadConfig({ flags: { "admin.perRetryTimeout": "" }, env: {}, readTextFile: files({}) }),
    /expected a duration/,
  );
  await rejects(
    loadConfig({
      flags: { config: "/c.yaml" },
      env: {},
      readTextFile: files({ "/c.yaml": 'admin:\n  authType: ""\n' }),
    }),
    /for admin.authType in "\/c.yaml": expected one of/,
  );
});

Deno.test("flytectl's root: section sets project, domain and output, ahead of task:; its unused keys warn saying why", async () => {
  const text = "root:\n  project: from-root\n  domain: ''\n  output: yaml\n  interactive: true\ntask:\n  project: p\n" +
    "  domain: d\n  org: o\nadminutils:\n  batchSize: 10\n";
  const loaded = await loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile: files({ "/c.yaml": text }) });
  equal(loaded.config.project, "from-root");
  equal(loaded.config.domain, "d");
  equal(loaded.config.output, "YAML");
  deepEqual(loaded.fileKeys, { project: "root.project", output: "root.output" });
  deepEqual(loaded.warnings, [
    'flytectl key "root.interactive" in config file "/c.yaml" is not used by fctl: fctl has no interactive mode',
    'flytectl key "task.org" in config file "/c.yaml" is not used by fctl: organisations are a Union extension fctl does not speak',
    'flytectl key "adminutils.batchSize" in config file "/c.yaml" is not used by fctl: lists are paged with --filter.limit and --filter.page',
  ]);
  await rejects(
    loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile: files({ "/c.yaml": "root:\n  output: xml\n" }) }),
    /^UsageError: invalid value "xml" for root.output in "\/c.yaml": expected one of/,
  );
});

Deno.test("of a file of several YAML documents only the first is read, as flytectl reads it, with a warning", async () => {
  const text = "admin:\n  endpoint: dns:///first:1\n---\nadmin:\n  endpoint: dns:///second:1\n---\nadmin: [\n";
  const { config, warnings } = await loadConfig({
    flags: { config: "/c.yaml" },
    env: {},
    readTextFile: files({ "/c.yaml": text }),
  });
  equal(config["admin.endpoint"], "dns:///first:1");
  deepEqual(warnings, ['config file "/c.yaml" holds 3 YAML documents; only the first is read, as flytectl reads it']);
  const one = await loadConfig({
    flags: { config: "/c.yaml" },
    env: {},
    readTextFile: files({ "/c.yaml": "---\nadmin:\n  endpoint: dns:///x:1\n...\n" }),
  });
  deepEqual([one.config["admin.endpoint"], one.warnings], ["dns:///x:1", []]);
});

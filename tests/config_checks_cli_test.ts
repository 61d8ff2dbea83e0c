/**
 * The registry of configuration checks (`src/cli/config_checks.ts`), as a fresh fctl process under the declared
 * permissions meets it: `config validate` reaches every registered check, `admin.tokenUrl` and
 * `admin.authorizationServerUrl` are shown without their query or user information, an `http://` token endpoint
 * with a TLS admin is flagged unless allowed, and a rule says the same thing when a command meets it at run time
 * (against a production-shaped admin: TLS from a test CA, OAuth enforced) as when `config validate` reports it.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { CONFIG_CHECKS } from "../src/cli/config_checks.ts";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { runFctlProcess, type RunResult } from "./helpers.ts";
import { taskSpec } from "./task_fixtures.ts";

/** A TLS admin (no scheme: TLS by default) that no check contacts. */
const TLS_ADMIN = ["--admin.endpoint", "dns:///flyte.example.org"];

/** `config validate` with a TLS admin and `flags`, in the environment `env`. */
function validate(flags: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runFctlProcess(["config", "validate", ...TLS_ADMIN, ...flags], env);
}

/** What `config validate` writes for exactly these problems. */
function invalid(...problems: string[]): string {
  const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
  return problems.map((problem) => `invalid: ${problem}\n`).join("") + `Error: the configuration has ${count}\n`;
}

/** For each registered check (by name): a configuration breaking it and nothing else, and the one line it gives. */
const VIOLATIONS: Record<string, { flags: string[]; env?: Record<string, string>; problem: string }> = {
  "admin endpoint and its proxy": {
    flags: [],
    env: { HTTPS_PROXY: "socks5://proxy:1080" },
    problem: 'unsupported HTTPS_PROXY scheme "socks5:": only http:// proxies are supported',
  },
  "CA file": {
    flags: ["--admin.caCertFilePath", "/nonexistent/ca.pem"],
    problem: 'cannot read admin.caCertFilePath "/nonexistent/ca.pem": no such file',
  },
  "HTTP proxy": {
    flags: ["--admin.httpProxyURL", "proxy 3128"],
    problem: 'admin.httpProxyURL "proxy 3128" is not a URL: expected one such as http://proxy:3128',
  },
  "skip-verify without TLS": {
    flags: ["--admin.insecure", "--admin.insecureSkipVerify"],
    problem: "admin.insecure and admin.insecureSkipVerify are both set: skip-verify only applies to TLS",
  },
  "ExternalCommand program": {
    flags: ["--admin.authType", "ExternalCommand"],
    problem: "admin.authType ExternalCommand needs admin.command (the program that prints a token)",
  },
  "client secret": {
    flags: ["--admin.authType", "ClientSecret", "--admin.clientSecretEnvVar", "NOPE"],
    problem: 'the environment variable "NOPE" named by admin.clientSecretEnvVar is not set',
  },
  "sign-in timeout": {
    flags: ["--admin.authType", "DeviceFlow", "--admin.deviceFlowConfig.timeout", "0s"],
    problem: "admin.deviceFlowConfig.timeout is 0: DeviceFlow could never finish",
  },
  "authorization server URLs": {
    flags: ["--admin.authorizationServerUrl", "ldap://idp.example.org"],
    problem: 'invalid admin.authorizationServerUrl "ldap://idp.example.org": expected an https:// (or http://) URL',
  },
  "plain-HTTP token endpoints": {
    flags: ["--admin.tokenUrl", "http://idp.example.org/token"],
    problem: "refusing to send credentials to the token endpoint http://idp.example.org/token (admin.tokenUrl) " +
      "over plain HTTP while the admin is reached over TLS; set admin.allowInsecureTokenEndpoint to allow it",
  },
  "storage": {
    flags: ["--storage.type", "stow", "--storage.stow.kind", "swift"],
    problem: 'storage.stow.kind "swift" is not supported; accepted kinds: s3, google, azure',
  },
};

Deno.test("config validate reaches every registered check: a configuration breaking one is reported in one line, exit 2", async () => {
  const names = CONFIG_CHECKS.map((check) => check.name);
  equal(new Set(names).size, names.length, `check names are unique: ${names.join(", ")}`);
  // A check added to the registry needs its violation here, so that this test reaches it too.
  deepEqual(names.toSorted(), Object.keys(VIOLATIONS).toSorted());
  for (const check of CONFIG_CHECKS) assert(check.keys.length > 0, `${check.name} names the options it reads`);
  for (const [name, { flags, env, problem }] of Object.entries(VIOLATIONS)) {
    const result = await validate(flags, env);
    equal(result.stderr, invalid(problem), name);
    equal(result.stdout, "", name);
    equal(result.code, 2, name);
  }
  const fine = await validate([]);
  equal(fine.stderr, "");
  equal(fine.code, 0);
});

/** What a proxy URL of a scheme no HTTP client proxies through gives, shown without user information or query. */
const PROXY_SCHEME_PROBLEM =
  'admin.httpProxyURL "ftp://proxy.example.org:2121/" is not a proxy URL: expected an http://, ' +
  "https://, socks5:// or socks5h:// URL with a host, such as http://proxy:3128";

Deno.test("config validate refuses an admin.httpProxyURL of another scheme than http, https, socks5 or socks5h", async () => {
  const refused = await validate(["--admin.httpProxyURL", "ftp://robot:pa55@proxy.example.org:2121/?k=v"]);
  equal(refused.stderr, invalid(PROXY_SCHEME_PROBLEM));
  equal(refused.code, 2);
  for (const proxy of ["socks4://proxy.example.org:1080", "proxy.example.org:3128", "socks5://"]) {
    const result = await validate(["--admin.httpProxyURL", proxy]);
    equal(result.code, 2, proxy);
    match(
      result.stderr,
      /^invalid: admin\.httpProxyURL .* is not a proxy URL: expected an http:\/\/, https:\/\/, socks5:\/\//,
      proxy,
    );
  }
  for (const proxy of ["http://proxy:3128", "https://proxy:3129", "socks5://proxy:1080", "socks5h://proxy:1080"]) {
    const result = await validate(["--admin.httpProxyURL", proxy]);
    equal(result.stderr, "", proxy);
    equal(result.code, 0, proxy);
  }
});

Deno.test("config validate takes a flytectl file without admin.endpoint (only storage: or logger:), noting what needs one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-config-checks-" });
  const note = "note: no admin endpoint is configured: commands that call the admin need one " +
    "(--admin.endpoint, FCTL_ADMIN_ENDPOINT or admin.endpoint in the config file)\n";
  try {
    const files = {
      storage:
        "storage:\n  type: minio\n  container: my-s3-bucket\n  connection:\n    endpoint: http://localhost:30084\n" +
        "    access-key: minio\n    secret-key: miniostorage\n    auth-type: accesskey\n    disable-ssl: true\n",
      logger: "logger:\n  show-source: true\n  level: 0\n",
    };
    for (const [name, text] of Object.entries(files)) {
      const file = `${dir}/${name}_only.yaml`;
      await Deno.writeTextFile(file, text);
      for (const strict of [[], ["--strict"]]) {
        const result = await runFctlProcess(["config", "validate", "-c", file, ...strict]);
        equal(result.code, 0, result.stderr);
        equal(result.stderr, note, name);
        assert(result.stdout.endsWith(`configuration is valid (config file "${file}", environment and flags)\n`));
        assert(!result.stdout.includes("miniostorage"));
      }
    }
    // A command that calls the admin still refuses it, in one line.
    const get = await runFctlProcess(["get", "project", "-c", `${dir}/storage_only.yaml`]);
    equal(get.code, 2);
    equal(
      get.stderr,
      "Error: no admin endpoint is configured; set --admin.endpoint, FCTL_ADMIN_ENDPOINT or admin.endpoint in the " +
        "config file\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("config validate shows admin.tokenUrl and admin.authorizationServerUrl without their query or user information", async () => {
  const result = await validate([
    ...["--admin.tokenUrl", "ftp://robot:pa55word@idp.example.org/token?client_secret=s3cr3t-value#frag"],
    ...["--admin.authorizationServerUrl", "gopher://idp.example.org/auth?key=other-s3cr3t"],
  ]);
  equal(
    result.stderr,
    invalid(
      'invalid admin.tokenUrl "ftp://idp.example.org/token": expected an https:// (or http://) URL',
      'invalid admin.authorizationServerUrl "gopher://idp.example.org/auth": expected an https:// (or http://) URL',
    ),
  );
  equal(result.code, 2);
  for (const secret of ["s3cr3t", "robot", "pa55word", "frag"]) assert(!result.stderr.includes(secret), secret);
});

Deno.test("config validate flags http:// token endpoints with a TLS admin, unless allowed or the admin is plaintext too", async () => {
  const plain = [
    ...["--admin.tokenUrl", "http://idp.example.org/token?client_secret=s3cr3t"],
    ...["--admin.authorizationServerUrl", "http://idp.example.org"],
  ];
  const refusals = [
    "refusing to send credentials to the token endpoint http://idp.example.org/token (admin.tokenUrl) over plain " +
    "HTTP while the admin is reached over TLS; set admin.allowInsecureTokenEndpoint to allow it",
    "refusing to read the authorization server metadata (where credentials go) at http://idp.example.org " +
    "(admin.authorizationServerUrl) over plain HTTP while the admin is reached over TLS; set " +
    "admin.allowInsecureTokenEndpoint to allow it",
  ];
  const flagged = await validate(plain);
  equal(flagged.stderr, invalid(...refusals));
  equal(flagged.code, 2);
  // An explicit https:// admin is TLS as well; admin.insecure false wins over an http:// endpoint's scheme.
  for (
    const admin of [["--admin.endpoint", "https://flyte.example.org"], [
      "--admin.endpoint",
      "http://flyte.example.org",
      "--admin.insecure=false",
    ]]
  ) {
    const tls = await validate([...plain, ...admin]);
    equal(tls.stderr, invalid(...refusals), admin.join(" "));
  }
  for (
    const allowed of [
      ["--admin.allowInsecureTokenEndpoint"],
      ["--admin.insecure"],
      ["--admin.endpoint", "http://localhost:30080"],
      ["--admin.authType", "ExternalCommand", "--admin.command", "print-token"],
    ]
  ) {
    const result = await validate([...plain, ...allowed]);
    equal(result.stderr, "", allowed.join(" "));
    equal(result.code, 0, allowed.join(" "));
  }
});

Deno.test("a rule says at run time what config validate says: get task against a production admin and validate, same line", async () => {
  const sandbox = await startSandbox({ production: {} });
  const dir = await Deno.makeTempDir({ prefix: "fctl-config-checks-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const spec = taskSpec({ name: "core.checked", version: "v1" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    const connection = [
      ...["--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`],
      ...["--admin.clientSecretEnvVar", "FLYTE_SECRET"],
    ];
    const get = ["get", "task", "core.checked", "--latest", "-o", "json", "-p", "flytesnacks", "-d", "development"];
    const env = { FLYTE_SECRET: SANDBOX_CLIENT.secret };
    const cases: [string[], string][] = [
      [["--admin.authType", "ExternalCommand"], VIOLATIONS["ExternalCommand program"].problem],
      [["--admin.authType", "ClientSecret", "--admin.clientSecretEnvVar", "NOPE"], VIOLATIONS["client secret"].problem],
      [
        ["--admin.tokenUrl", "ftp://idp.example.org/token?client_secret=s3cr3t"],
        'invalid admin.tokenUrl "ftp://idp.example.org/token": expected an https:// (or http://) URL',
      ],
      [
        ["--admin.tokenUrl", "http://127.0.0.1:9/token?client_secret=s3cr3t"],
        "refusing to send credentials to the token endpoint http://127.0.0.1:9/token (admin.tokenUrl) over plain " +
        "HTTP while the admin is reached over TLS; set admin.allowInsecureTokenEndpoint to allow it",
      ],
      [["--admin.httpProxyURL", "proxy 3128"], VIOLATIONS["HTTP proxy"].problem],
      [["--admin.httpProxyURL", "ftp://robot:pa55@proxy.example.org:2121/?k=v"], PROXY_SCHEME_PROBLEM],
      [
        ["--admin.authType", "Pkce", "--admin.pkceConfig.timeout", "0s"],
        "admin.pkceConfig.timeout is 0: Pkce could never finish",
      ],
    ];
    for (const [flags, problem] of cases) {
      const run = await runFctlProcess([...get, ...connection, ...flags], env);
      equal(run.stderr, `Error: ${problem}\n`, flags.join(" "));
      equal(run.stdout, "", flags.join(" "));
      equal(run.code, 2, flags.join(" "));
      const checked = await runFctlProcess(["config", "validate", ...connection, ...flags], env);
      equal(checked.stderr, invalid(problem), flags.join(" "));
      equal(checked.code, 2, flags.join(" "));
    }
    // The same connection without them works: what failed above was the rule.
    const fine = await runFctlProcess([...get, ...connection], env);
    equal(fine.code, 0, fine.stderr);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * `fctl auth login|status|logout`, `admin.proxyCommand` and the auth checks of `config validate`, against the
 * sandbox's production profile (TLS from a test CA, OAuth enforced, IdentityService) through the real command
 * graph, each run with a `HOME` of its own so the token cache is the test's.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { type ProductionProfile, type Sandbox, SANDBOX_CLIENT } from "../src/sandbox/mod.ts";
import { runFctl, runFctlProcess, type RunResult } from "./helpers.ts";
import { productionAdmin } from "./entity_fixtures.ts";

/** A token of the sandbox's authorization server, as it could appear in output. */
const SANDBOX_TOKEN = /\b(at|rt)-[A-Za-z0-9_-]{20,}/;

interface Production {
  sandbox: Sandbox;
  dir: string;
  home: string;
  /** Project, domain, the endpoint and the test CA. */
  flags: string[];
  file(name: string, text: string, mode?: number): Promise<string>;
  /** Runs fctl in process with `HOME` set to {@link home} and the client secret in `FLYTE_CLIENT_SECRET`. */
  run(args: string[], env?: Record<string, string>): Promise<RunResult>;
}

async function withProduction(profile: ProductionProfile, fn: (p: Production) => Promise<void>): Promise<void> {
  await using admin = await productionAdmin({ production: profile }, "fctl-auth-commands-");
  const { sandbox, dir } = admin;
  const file = async (name: string, text: string, mode = 0o600) => {
    await Deno.writeTextFile(`${dir}/${name}`, text, { mode });
    return `${dir}/${name}`;
  };
  const home = `${dir}/home`;
  await Deno.mkdir(home);
  const flags = [
    ...["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
    ...["--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET"],
  ];
  const run = (args: string[], env: Record<string, string> = {}) =>
    runFctl(args, { env: { HOME: home, FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret, ...env } });
  await fn({ sandbox, dir, home, flags, file, run });
}

function assertClean(result: RunResult, secrets: string[], label: string): void {
  for (const text of [result.stdout, result.stderr]) {
    for (const secret of secrets) assert(!text.includes(secret), `${label}: a secret in the output`);
    assert(!SANDBOX_TOKEN.test(text), `${label}: a token in the output`);
  }
}

const tokenFiles = (home: string) => {
  try {
    return [...Deno.readDirSync(`${home}/.flyte/fctl/tokens`)].map((e) => e.name);
  } catch {
    return [];
  }
};

Deno.test("auth login caches a token that get task uses; status shows the identity and expiry; logout forgets it", async () => {
  await withProduction({}, async ({ sandbox, home, flags, run }) => {
    const host = new URL(sandbox.endpoint).host;
    const login = await run(["auth", "login", ...flags, "--logger.level", "5"]);
    equal(login.code, 0, login.stderr);
    match(
      login.stdout,
      new RegExp(`^logged in to ${host} with ClientSecret \\(client flytepropeller\\): token cached until \\S+Z\\n$`),
    );
    assertClean(login, [SANDBOX_CLIENT.secret], "login");
    deepEqual(sandbox.auth!.tokenRequests.map((r) => r.grantType), ["client_credentials"]);
    equal(tokenFiles(home).length, 1);
    deepEqual(
      sandbox.requests.filter((r) => r.service === "AdminService").map((r) => r.method),
      [],
      "login runs the flow without asking the admin first",
    );

    sandbox.clearRequests();
    const get = await run(["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags]);
    equal(get.code, 0, get.stderr);
    deepEqual(sandbox.requests.map((r) => r.method), ["ListTasks"], "the cached token is sent up front");
    equal(sandbox.auth!.tokenRequests.length, 1, "no token request after login");

    for (const level of ["3", "5"]) {
      const status = await run(["auth", "status", "-o", "json", ...flags, "--logger.level", level]);
      equal(status.code, 0, status.stderr);
      const doc = JSON.parse(status.stdout);
      equal(doc.endpoint, host);
      equal(doc.flow, "ClientSecret");
      equal(doc.cached, true);
      equal(doc.expired, false);
      match(doc.expiresAt, /^\d{4}-\d\d-\d\dT.*Z$/);
      equal(doc.identity, SANDBOX_CLIENT.id);
      assertClean(status, [SANDBOX_CLIENT.secret], `status at level ${level}`);
    }
    const table = await run(["auth", "status", ...flags]);
    equal(table.code, 0, table.stderr);
    match(table.stdout, /ENDPOINT +\| FLOW +\| CLIENT +\| CACHED TOKEN +\| IDENTITY/);
    match(table.stdout, /\| ClientSecret +\| flytepropeller +\| expires \S+Z +\| flytepropeller +\|/);
    const yaml = await run(["auth", "status", "-o", "yaml", ...flags]);
    match(yaml.stdout, /^identity: flytepropeller$/m);
    equal(sandbox.auth!.tokenRequests.length, 1, "status uses the cached token");

    const logout = await run(["auth", "logout", ...flags]);
    equal(logout.code, 0, logout.stderr);
    equal(logout.stdout, `removed the cached tokens for ${host}: ClientSecret/flytepropeller\n`);
    deepEqual(tokenFiles(home), []);
    const again = await run(["auth", "logout", ...flags]);
    equal(again.stdout, `no cached tokens for ${host}\n`);

    const loggedOut = await run(["auth", "status", "-o", "json", ...flags]);
    deepEqual(
      { ...JSON.parse(loggedOut.stdout), endpoint: undefined },
      {
        endpoint: undefined,
        flow: "ClientSecret",
        clientId: "flytepropeller",
        cached: false,
        identityError: "not logged in",
      },
    );

    sandbox.clearRequests();
    const fresh = await run(["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags]);
    equal(fresh.code, 0, fresh.stderr);
    deepEqual(
      sandbox.requests.filter((r) => r.service === "AdminService").map((r) => r.method),
      ["ListTasks", "ListTasks"],
      "without a cached token the admin asks for one",
    );
    equal(sandbox.auth!.tokenRequests.length, 2, "a new token after logout");
  });
});

Deno.test("auth login and status with ExternalCommand (fresh processes): no client id, the token not cached; help shows examples", async () => {
  await withProduction({}, async ({ sandbox, home, flags, file }) => {
    const script = await file("token.sh", `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, 0o700);
    const external = [...flags, "--admin.authType", "ExternalCommand", "--admin.command", script];
    const login = await runFctlProcess(["auth", "login", ...external], { HOME: home });
    equal(login.code, 0, login.stderr);
    // ExternalCommand signs in with no client id: naming admin.clientId's default (flytepropeller) would mislead.
    match(
      login.stdout,
      /^logged in to \S+ with ExternalCommand: token not cached: admin\.command is run again when needed\n$/,
    );
    const status = await runFctlProcess(["auth", "status", "-o", "json", ...external], { HOME: home });
    equal(status.code, 0, status.stderr);
    const doc = JSON.parse(status.stdout);
    equal(doc.identity, SANDBOX_CLIENT.id, status.stderr);
    equal(doc.flow, "ExternalCommand");
    assert(!("clientId" in doc), status.stdout);
    assertClean(status, [], "status");
    const table = await runFctlProcess(["auth", "status", ...external], { HOME: home });
    equal(table.code, 0, table.stderr);
    match(
      table.stdout,
      /\| ExternalCommand +\| none \(admin\.command gives the token\) +\| none +\| flytepropeller +\|/,
    );
    assert(!/\| ExternalCommand +\| flytepropeller/.test(table.stdout), table.stdout);
  });
  for (const command of ["login", "status", "logout"]) {
    const help = await runFctl(["auth", command, "--help"]);
    equal(help.code, 0);
    match(help.stdout, new RegExp(`\\nExamples:\\n  fctl auth ${command}\\n  fctl auth ${command} `));
  }
});

Deno.test("admin.proxyCommand: its token goes as proxy-authorization on every call, run once; a failure is one line", async () => {
  const proxyToken = "iap-token-3c9e61f0";
  await withProduction({ proxyAuthorization: `Bearer ${proxyToken}` }, async ({ sandbox, dir, flags, file, run }) => {
    const runs = `${dir}/proxy-runs`;
    const script = await file("proxy.sh", `#!/bin/sh\necho run >> "${runs}"\necho "  ${proxyToken}"\n`, 0o700);
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags];
    const result = await run([...get, "--admin.proxyCommand", script, "--logger.level", "5"]);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v7");
    // ListTasks (rejected: no token), discovery, ListTasks again: the proxy let every one through.
    deepEqual(sandbox.requests.map((r) => r.method).sort(), [
      "GetOAuth2Metadata",
      "GetPublicClientConfig",
      "ListTasks",
      "ListTasks",
    ]);
    equal(Deno.readTextFileSync(runs), "run\n", "the command runs once per process");
    assertClean(result, [proxyToken, SANDBOX_CLIENT.secret], "proxy");

    const noProxy = await run(get);
    equal(noProxy.code, 1);
    // The proxy refuses discovery too, which FlyteAdmin answers without credentials: admin.authType cannot help.
    match(
      noProxy.stderr,
      /^Error: cannot discover the admin service's auth settings: connection to \S+ \(insecure: false, auth: ClientSecret\): GetOAuth2Metadata failed: Unauthenticated: Invalid IAP credentials: empty token \(FlyteAdmin answers GetOAuth2Metadata without credentials: something in front of it, such as an identity-aware proxy, asks for its own; see admin.proxyCommand\)\n$/,
    );

    const failing = await file(
      "proxy-fail.sh",
      `#!/bin/sh\necho "gcloud: reauthentication required for $IAP_KEY" >&2\nexit 3\n`,
      0o700,
    );
    for (const level of ["3", "5"]) {
      const failed = await run(
        [...get, "--admin.proxyCommand", failing, "--admin.clientSecretEnvVar", "IAP_KEY", "--logger.level", level],
        { IAP_KEY: "iap-secret-key-77" },
      );
      equal(failed.code, 1);
      equal(failed.stdout, "");
      const errors = failed.stderr.split("\n").filter((l) => l.startsWith("Error: "));
      deepEqual(errors, [
        `Error: admin.proxyCommand "${failing}" failed with exit status 3: ` +
        "gcloud: reauthentication required for [redacted]",
      ]);
      assertClean(failed, ["iap-secret-key-77"], "failing proxy");
    }
  });
});

Deno.test("config view and validate know admin.proxyCommand", async () => {
  const view = await runFctl(["config", "view", "--admin.proxyCommand", "gcloud,auth,print-identity-token"]);
  equal(view.code, 0, view.stderr);
  match(view.stdout, /\| admin\.proxyCommand +\| gcloud,auth,print-identity-token +\| flag --admin\.proxyCommand +\|/);
  const ok = await runFctl(["config", "validate", "--admin.endpoint", "x:1", "--admin.proxyCommand", "gcloud"]);
  equal(ok.stderr, "");
  equal(ok.code, 0);
});

Deno.test("config validate: auth settings that cannot work are one line each, exit 2", async () => {
  const endpoint = ["--admin.endpoint", "dns:///flyte.example.org", "--logger.mute"];
  const cases: [string[], Record<string, string>, string[]][] = [
    [["--admin.authType", "ExternalCommand"], {}, [
      "admin.authType ExternalCommand needs admin.command (the program that prints a token)",
    ]],
    [["--admin.authType", "ClientSecret", "--admin.clientSecretEnvVar", "NOPE"], {}, [
      'the environment variable "NOPE" named by admin.clientSecretEnvVar is not set',
    ]],
    [["--admin.authType", "ClientSecret", "--admin.clientSecretLocation", "/nonexistent/secret"], {}, [
      'cannot read the client secret file "/nonexistent/secret" (admin.clientSecretLocation): no such file',
    ]],
    [["--admin.authType", "Pkce", "--admin.pkceConfig.timeout", "0s"], {}, [
      "admin.pkceConfig.timeout is 0: Pkce could never finish",
    ]],
    [["--admin.authType", "DeviceFlow", "--admin.deviceFlowConfig.timeout", "0s"], {}, [
      "admin.deviceFlowConfig.timeout is 0: DeviceFlow could never finish",
    ]],
    [["--admin.tokenUrl", "ftp://idp/token", "--admin.authorizationServerUrl", "not a url"], {}, [
      'invalid admin.tokenUrl "ftp://idp/token": expected an https:// (or http://) URL',
      'invalid admin.authorizationServerUrl "not a url": expected an https:// (or http://) URL',
    ]],
  ];
  for (const [flags, env, lines] of cases) {
    const result = await runFctl(["config", "validate", ...endpoint, ...flags], { env });
    equal(result.code, 2, flags.join(" "));
    equal(
      result.stderr,
      lines.map((l) => `invalid: ${l}\n`).join("") +
        `Error: the configuration has ${lines.length} problem${lines.length === 1 ? "" : "s"}\n`,
    );
  }
  // A set variable and the default flow's absent secret file (the flow was not chosen) are fine.
  const fine = await runFctl(
    ["config", "validate", ...endpoint, "--admin.authType", "ClientSecret", "--admin.clientSecretEnvVar", "S"],
    { env: { S: "x" } },
  );
  equal(fine.code, 0, fine.stderr);
  equal((await runFctl(["config", "validate", ...endpoint])).code, 0);
});

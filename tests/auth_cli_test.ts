/**
 * fctl against a production-shaped admin (the sandbox's production profile: TLS from a CA made for the test,
 * OAuth enforced, a real authorization server), through the real command graph: `get task` and
 * `register files` with ClientSecret (the secret from a variable and from a file) and ExternalCommand, and
 * every auth failure as one clear line with its exit status and nothing secret in any output.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { type Sandbox, SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl, type RunResult } from "./helpers.ts";
import { startTlsServer } from "../src/http/_test_tls.ts";
import { productionAdmin } from "./entity_fixtures.ts";

/** A token of the sandbox's authorization server, as it could appear in output. */
const SANDBOX_TOKEN = /\b(at|rt)-[A-Za-z0-9_-]{20,}/;

interface Production {
  sandbox: Sandbox;
  dir: string;
  /** The flags every run needs: project, domain, the endpoint and the test CA. */
  flags: string[];
  /** A file holding `text`. */
  file(name: string, text: string, mode?: number): Promise<string>;
  /** Runs fctl in process; `HOME` is a directory that does not exist (no token cache) unless `env` names one. */
  run(args: string[], env?: Record<string, string>): Promise<RunResult>;
}

async function withProduction(fn: (p: Production) => Promise<void>): Promise<void> {
  await using admin = await productionAdmin({ production: true }, "fctl-auth-cli-");
  const { sandbox, dir } = admin;
  const file = async (name: string, text: string, mode = 0o600) => {
    await Deno.writeTextFile(`${dir}/${name}`, text, { mode });
    return `${dir}/${name}`;
  };
  const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
  // A HOME that does not exist: tokens stay in memory, so every run is a process of its own.
  const run = (args: string[], env: Record<string, string> = {}) =>
    runFctl(args, { env: { HOME: `${dir}/no-home`, ...env } });
  await fn({ sandbox, dir, flags: [...flags, "--admin.caCertFilePath", `${dir}/ca.pem`], file, run });
}

const count = (sandbox: Sandbox, method: string) => sandbox.requests.filter((r) => r.method === method).length;

function assertClean(result: RunResult, secrets: string[], label: string): void {
  for (const text of [result.stdout, result.stderr]) {
    for (const secret of secrets) assert(!text.includes(secret), `${label}: a secret in the output`);
    assert(!SANDBOX_TOKEN.test(text), `${label}: a token in the output`);
  }
}

Deno.test("production admin: get task with ClientSecret from a variable, from a file, and with ExternalCommand", async () => {
  await withProduction(async ({ sandbox, flags, file, run }) => {
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags];
    const secretFile = await file("client_secret", `  ${SANDBOX_CLIENT.secret}\n`);
    const token = sandbox.auth!.issueToken();
    const script = await file("token.sh", `#!/bin/sh\necho "${token}"\n`, 0o700);
    const runs: [string, string[], Record<string, string>, number][] = [
      ["variable", ["--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET"], {
        FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret,
      }, 1],
      ["file", ["--admin.clientSecretLocation", secretFile], {}, 1],
      ["command", ["--admin.authType", "ExternalCommand", "--admin.command", script], {}, 0],
    ];
    for (const [label, authFlags, env, tokenRequests] of runs) {
      sandbox.auth!.tokenRequests.splice(0);
      sandbox.clearRequests();
      for (const level of ["3", "5"]) {
        const result = await run([...get, ...authFlags, "--logger.level", level], env);
        equal(result.code, 0, `${label}: ${result.stderr}`);
        equal(JSON.parse(result.stdout).id.version, "v7", label);
        if (level === "3") equal(result.stderr, "", label);
        else match(result.stderr, /"the admin service asked for a token"/);
        assertClean(result, [SANDBOX_CLIENT.secret, token], label);
      }
      equal(sandbox.auth!.tokenRequests.length, 2 * tokenRequests, label);
      equal(count(sandbox, "GetPublicClientConfig"), 2, `${label}: discovery once per process`);
    }
  });
});

Deno.test("production admin: register files --archive (fast registration: upload locations and uploads) with ClientSecret and ExternalCommand", async () => {
  await withProduction(async ({ sandbox, flags, file, run }) => {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), ...flags];
    const secretEnv = { FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret };
    const first = await run(
      [...register, "--version", "v1", "--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET"],
      secretEnv,
    );
    equal(first.stderr, "");
    equal(first.code, 0);
    equal(first.stdout.split("\n").filter((l) => /^\| core\/.*\| Success /.test(l)).length, 84);
    equal(sandbox.uploads.size, 1);
    deepEqual(sandbox.auth!.tokenRequests.map((r) => [r.grantType, r.status]), [["client_credentials", 200]]);
    equal(count(sandbox, "GetPublicClientConfig"), 1);
    equal(count(sandbox, "GetOAuth2Metadata"), 1);
    // Where the source goes is decided before the first create: the upload location's refusal brings the token,
    // so no create is sent without it.
    equal(count(sandbox, "CreateTask") + count(sandbox, "CreateWorkflow") + count(sandbox, "CreateLaunchPlan"), 84);

    const script = await file("token.sh", `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, 0o700);
    const second = await run([
      ...register,
      ...["--version", "v2", "--admin.authType", "ExternalCommand", "--admin.command", script],
    ]);
    equal(second.stderr, "");
    equal(second.code, 0);
    equal(second.stdout.split("\n").filter((l) => /^\| core\/.*\| Success /.test(l)).length, 84);
    equal(sandbox.auth!.tokenRequests.length, 1, "ExternalCommand asks the authorization server nothing");
  });
});

Deno.test("production admin at debug level: the token request and the upload to the signed URL have a record each, with no query, token or secret", async () => {
  await withProduction(async ({ sandbox, flags, run }) => {
    const result = await run(
      [
        ...["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1", ...flags],
        ...["--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET", "--logger.level", "5"],
      ],
      { FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret },
    );
    equal(result.code, 0, result.stderr);
    assertClean(result, [SANDBOX_CLIENT.secret], "debug records");
    // The signed URL's signature (`?token=<uuid>`) is a secret of the upload; no record may carry a query.
    assert(!/[?&]token=|\?\S*=/.test(result.stderr), result.stderr);
    const records = result.stderr.trimEnd().split("\n").map((line) => JSON.parse(line));
    const calls = records.filter((r) => r.msg === "http call");
    deepEqual(calls.map((r) => [r.json.method, r.json.status]), [["POST", 200], ["PUT", 200]]);
    equal(calls[0].json.url, sandbox.auth!.tokenEndpoint);
    // The folder is the MD5 in base32 with its padding, path-escaped, as FlyteAdmin names it.
    match(
      calls[1].json.url,
      /^https:\/\/127\.0\.0\.1:\d+\/[\w-]+\/flytesnacks\/development\/[A-Z2-7]{26}(?:%3D){6}\/fast\w+\.tar\.gz$/,
    );
    for (const call of calls) equal(typeof call.json.ms, "number");
    // The first ListTasks-like call is refused for its missing token: its status is named, as in error lines.
    assert(records.some((r) => r.msg === "admin call failed" && r.json.status === "Unauthenticated"), result.stderr);
  });
});

Deno.test("production admin: an upload the object store refuses in passing (503 Slow Down) is sent again, and the registration succeeds", async () => {
  await withProduction(async ({ sandbox, flags, run }) => {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), ...flags];
    const env = { FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret };
    const secret = ["--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET"];
    sandbox.failNextUploads(2);
    const retried = await run([...register, "--version", "v1", ...secret, "--logger.level", "4"], env);
    equal(retried.code, 0, retried.stderr);
    equal(retried.stdout.split("\n").filter((l) => /^\| core\/.*\| Success /.test(l)).length, 84);
    equal(sandbox.uploads.size, 1);
    const retries = retried.stderr.trimEnd().split("\n").map((line) => JSON.parse(line))
      .filter((r) => r.msg.startsWith("retrying PUT "));
    deepEqual(retries.map((r) => [r.level, r.json.attempt, r.json.maxAttempts]), [["info", 1, 4], ["info", 2, 4]]);
    match(retries[0].msg, /^retrying PUT https:\/\/127\.0\.0\.1:\d+\/[^?\s]+ after HTTP 503$/);
    assertClean(retried, [SANDBOX_CLIENT.secret], "retry records");

    // As many refusals as attempts: the registration fails on the last answer, and creates nothing that needs it.
    sandbox.failNextUploads(2);
    const refused = await run([...register, "--version", "v2", ...secret, "--admin.maxRetries", "2"], env);
    equal(refused.code, 1);
    match(refused.stderr.trimEnd().split("\n").at(-1)!, /^Error: uploading .* failed: HTTP 503: SlowDown/);
    equal(sandbox.uploads.size, 1);
  });
});

Deno.test("production admin: a client-credentials token request the authorization server refuses in passing is sent again", async () => {
  await withProduction(async ({ sandbox, flags, run }) => {
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags];
    const secret = ["--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET"];
    const env = { FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret };
    sandbox.auth!.failNextTokenRequests(1, 503);
    const retried = await run([...get, ...secret, "--logger.level", "4"], env);
    equal(retried.code, 0, retried.stderr);
    equal(JSON.parse(retried.stdout).id.version, "v7");
    deepEqual(sandbox.auth!.tokenRequests.map((r) => [r.grantType, r.status]), [
      ["client_credentials", 503],
      ["client_credentials", 200],
    ]);
    match(retried.stderr, /"msg":"retrying POST https:\/\/127\.0\.0\.1:\d+\/oauth2\/token after HTTP 503"/);
    assertClean(retried, [SANDBOX_CLIENT.secret], "token retry");

    // As many refusals as attempts: one line naming the server's answer.
    sandbox.auth!.tokenRequests.splice(0);
    sandbox.auth!.failNextTokenRequests(2, 503);
    const refused = await run([...get, ...secret, "--admin.maxRetries", "2"], env);
    equal(refused.code, 1);
    equal(
      refused.stderr,
      `Error: token request to ${sandbox.auth!.tokenEndpoint} for client "flytepropeller" failed: ` +
        "temporarily_unavailable: the authorization server is busy; try again (HTTP 503)\n",
    );
    equal(sandbox.auth!.tokenRequests.length, 2);
  });
});

Deno.test("production admin: each auth failure is one line with its exit status, and no secret at any log level", async () => {
  await withProduction(async ({ sandbox, flags, file, run }) => {
    const wrongSecret = "wrong-client-secret-5e1d";
    const vaultKey = "vault-key-91c2";
    const failing = await file(
      "token.sh",
      `#!/bin/sh\necho "contacting vault" >&2\necho "vault refused key $VAULT_KEY" >&2\nexit 7\n`,
      0o700,
    );
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [
        ["--admin.clientSecretEnvVar", "WRONG"],
        { WRONG: wrongSecret },
        1,
        new RegExp(
          `^Error: token request to ${
            sandbox.auth!.tokenEndpoint.replace(/[.]/g, "\\.")
          } for client "flytepropeller" ` +
            `failed: invalid_client: client authentication failed \\(HTTP 401\\)$`,
        ),
      ],
      [
        ["--admin.clientSecretEnvVar", "NOPE"],
        {},
        2,
        /^Error: the environment variable "NOPE" named by admin\.clientSecretEnvVar is not set$/,
      ],
      [
        ["--admin.clientSecretLocation", "/nonexistent/client_secret"],
        {},
        2,
        /^Error: cannot read the client secret file "\/nonexistent\/client_secret" \(admin\.clientSecretLocation\): no such file$/,
      ],
      [
        // The variable is registered as a secret (admin.clientSecretEnvVar), so the command's stderr shows it redacted.
        ["--admin.authType", "ExternalCommand", "--admin.command", failing, "--admin.clientSecretEnvVar", "VAULT_KEY"],
        { VAULT_KEY: vaultKey },
        1,
        /^Error: admin\.command ".*token\.sh" failed with exit status 7: contacting vault \| vault refused key \[redacted\]$/,
      ],
    ];
    // Registration stops at the first refused token: one line, no table.
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1", ...flags];
    const refused = await run([...register, ...cases[0][0]], cases[0][1]);
    deepEqual([refused.code, refused.stdout], [1, ""]);
    match(refused.stderr.trimEnd(), cases[0][3]);
    equal(sandbox.uploads.size, 0);
    for (const [authFlags, env, code, line] of cases) {
      for (const level of ["3", "5"]) {
        const result = await run(["get", "task", ...flags, ...authFlags, "--logger.level", level], env);
        equal(result.code, code, result.stderr);
        equal(result.stdout, "");
        assertClean(result, [wrongSecret, vaultKey, SANDBOX_CLIENT.secret], authFlags.join(" "));
        const errorLines = result.stderr.split("\n").filter((l) => l.startsWith("Error: "));
        equal(errorLines.length, 1, result.stderr);
        match(errorLines[0], line);
        if (level === "3") equal(result.stderr, `${errorLines[0]}\n`);
      }
    }
    // Without the CA file, skipping verification reaches the admin, but the token endpoint (HTTPS, verified
    // whatever the flag says) refuses its certificate: the line says what mends that.
    const unverified = await run(
      [
        "get",
        "task",
        ...flags,
        "--admin.caCertFilePath",
        "",
        "--admin.insecureSkipVerify",
        "--admin.clientSecretEnvVar",
        "S",
      ],
      { S: SANDBOX_CLIENT.secret },
    );
    equal(unverified.code, 1, unverified.stderr);
    match(
      unverified.stderr.trimEnd().split("\n").at(-1)!,
      /^Error: token request to \S+ for client "flytepropeller" failed: invalid peer certificate: UnknownIssuer \(trust the server's CA with admin\.caCertFilePath\)$/,
    );
    assertClean(unverified, [SANDBOX_CLIENT.secret], "insecureSkipVerify without the CA file");
  });
});

Deno.test("production admin: the token cache file (0600 in a 0700 directory under $HOME/.flyte) spares the next run discovery and the token request", async () => {
  await withProduction(async ({ sandbox, dir, flags, run }) => {
    const home = `${dir}/home`;
    await Deno.mkdir(home);
    const env = { HOME: home, FLYTE_CLIENT_SECRET: SANDBOX_CLIENT.secret };
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", ...flags];
    const auth = ["--admin.clientSecretEnvVar", "FLYTE_CLIENT_SECRET"];
    equal((await run([...get, ...auth], env)).code, 0);
    const files = [...Deno.readDirSync(`${home}/.flyte/fctl/tokens`)].map((e) => e.name);
    equal(files.length, 1);
    equal(Deno.statSync(`${home}/.flyte/fctl/tokens`).mode! & 0o777, 0o700);
    equal(Deno.statSync(`${home}/.flyte/fctl/tokens/${files[0]}`).mode! & 0o777, 0o600);
    equal(sandbox.auth!.tokenRequests.length, 1);

    sandbox.clearRequests();
    const second = await run([...get, ...auth, "--logger.level", "5"], env);
    equal(second.code, 0, second.stderr);
    deepEqual(sandbox.requests.map((r) => r.method), ["ListTasks"], "the stored token is sent up front");
    equal(sandbox.auth!.tokenRequests.length, 1);
    assertClean(second, [SANDBOX_CLIENT.secret], "cached");

    // Revoked: replaced once with the stored refresh token, and the file now holds the new token.
    sandbox.auth!.revokeAll();
    const before = Deno.readTextFileSync(`${home}/.flyte/fctl/tokens/${files[0]}`);
    sandbox.clearRequests();
    equal((await run([...get, ...auth], env)).code, 0);
    const admin = sandbox.requests.filter((r) => r.service === "AdminService").map((r) => r.method);
    deepEqual(admin, ["ListTasks", "ListTasks"], "rejected, then retried once");
    deepEqual(sandbox.auth!.tokenRequests.map((r) => r.grantType), ["client_credentials", "refresh_token"]);
    assert(Deno.readTextFileSync(`${home}/.flyte/fctl/tokens/${files[0]}`) !== before);

    // Another client id has its own token.
    const other = await run([...get, ...auth, "--admin.clientId", "someone-else"], env);
    equal(other.code, 1);
    equal([...Deno.readDirSync(`${home}/.flyte/fctl/tokens`)].length, 1);

    // A cache that cannot be written (a mode bit would not stop root, who may run the tests: .flyte/fctl is a
    // file): memory for the run, said once at info level.
    const blocked = `${dir}/blocked-home`;
    await Deno.mkdir(`${blocked}/.flyte`, { recursive: true });
    await Deno.writeTextFile(`${blocked}/.flyte/fctl`, "not a directory");
    const readOnly = await run([...get, ...auth, "--logger.level", "4"], { ...env, HOME: blocked });
    equal(readOnly.code, 0, readOnly.stderr);
    const lines = readOnly.stderr.split("\n").filter(Boolean);
    equal(lines.length, 1, readOnly.stderr);
    match(
      lines[0],
      /"level":"info","msg":"the token cache is not writable \(.*\): tokens are kept in memory for this run"/,
    );
    await Deno.chmod(`${home}/.flyte/fctl/tokens`, 0o700);
  });
});

Deno.test("an admin without auth: no discovery, no token, and auth settings that could not work do not matter", async () => {
  const sandbox = await startSandbox();
  try {
    const result = await runFctl([
      ...["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
      ...["--admin.clientSecretEnvVar", "NOT_SET", "--logger.level", "5"],
    ]);
    equal(result.code, 0, result.stderr);
    deepEqual(sandbox.requests.map((r) => r.method), ["ListTasks"]);
    assert(!result.stderr.includes("asked for a token"));
  } finally {
    await sandbox.close();
  }
});

Deno.test("production admin: register examples over https (GitHub API and assets trusted through the CA file) with ClientSecret", async () => {
  await withProduction(async ({ sandbox, flags, file, run }) => {
    const core = await Deno.readFile(fixture("flytesnacks-core.tgz"));
    const githubToken = "ghp_production_token_4f1a";
    const github = await startTlsServer((req) => {
      const path = new URL(req.url).pathname;
      if (path === "/repos/flyteorg/flytesnacks/releases/latest") {
        const asset = `${github.url}/download/v9.9.9/flytesnacks-core.tgz`;
        return Response.json({
          tag_name: "v9.9.9",
          assets: [{ name: "flytesnacks-core.tgz", size: core.length, browser_download_url: asset }],
        });
      }
      if (path === "/download/v9.9.9/flytesnacks-core.tgz") return new Response(core);
      return Response.json({ message: "Not Found" }, { status: 404 });
    });
    try {
      // One CA file trusted for both: the admin's and GitHub's (each test server has a CA of its own).
      const cas = await file("both-ca.pem", `${sandbox.caCertificate!}\n${github.caCert}`);
      const result = await run(
        ["register", "examples", ...flags, "--admin.caCertFilePath", cas, "--admin.clientSecretEnvVar", "FLYTE_SECRET"],
        { FLYTE_SECRET: SANDBOX_CLIENT.secret, GITHUB_API_URL: github.url, GITHUB_TOKEN: githubToken },
      );
      equal(result.stderr, "");
      equal(result.code, 0);
      equal(result.stdout.split("\n").filter((l) => /\| core\/.*\| Success /.test(l)).length, 84);
      equal(sandbox.uploads.size, 1);
      deepEqual(sandbox.auth!.tokenRequests.map((r) => [r.grantType, r.status]), [["client_credentials", 200]]);
      deepEqual(
        github.seen.map((r) => [new URL(r.url).pathname, r.headers.get("authorization")]),
        [
          ["/repos/flyteorg/flytesnacks/releases/latest", `Bearer ${githubToken}`],
          ["/download/v9.9.9/flytesnacks-core.tgz", `Bearer ${githubToken}`],
        ],
      );
      assertClean(result, [SANDBOX_CLIENT.secret, githubToken], "register examples");
    } finally {
      await github.close();
    }
  });
});

Deno.test("a FIFO as admin.clientSecretLocation is refused naming it, never read (it would block forever)", async () => {
  await withProduction(async ({ dir, flags, run }) => {
    const fifo = `${dir}/client_secret`;
    const mkfifo = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert(mkfifo.success);
    const result = await run(["get", "task", ...flags, "--admin.clientSecretLocation", fifo]);
    equal(result.stdout, "");
    match(
      result.stderr,
      /^Error: cannot read the client secret file ".*client_secret" \(admin\.clientSecretLocation\): .*FIFO.*\n$/,
    );
    equal(result.code, 2);
  });
});

/**
 * `connect` as a library user calls it (`mod.ts`, `testing.ts`, `types.ts`): a client built from a config file,
 * option values and an environment, against the sandbox's production profile (TLS from its CA, OAuth), with
 * the command line's retries and auth.
 */
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { connect, getTask, UsageError } from "../../mod.ts";
import { SANDBOX_CLIENT, startSandbox } from "../../testing.ts";
import { Code, type Task } from "../../types.ts";
import { taskSpec } from "../../tests/task_fixtures.ts";

Deno.test("connect: a production admin (TLS, ClientSecret) from a temp config file; an injected UNAVAILABLE is retried", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-connect-" });
  try {
    const spec = taskSpec({ name: "core.lib.hello", version: "v3" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.writeTextFile(`${dir}/secret`, `${SANDBOX_CLIENT.secret}\n`, { mode: 0o600 });
    await Deno.mkdir(`${dir}/.flyte`);
    await Deno.writeTextFile(
      `${dir}/.flyte/config.yaml`,
      [
        "admin:",
        `  endpoint: ${sandbox.endpoint}`,
        "  authType: ClientSecret",
        `  clientId: ${SANDBOX_CLIENT.id}`,
        `  clientSecretLocation: ${dir}/secret`,
        `  caCertFilePath: ${dir}/ca.pem`,
        "",
      ].join("\n"),
    );
    let log = "";
    sandbox.failNext("ListTasks", Code.Unavailable);
    // `~/` is the given HOME; the rest comes from the environment, as for the command line.
    await using flyte = await connect({
      config: "~/.flyte/config.yaml",
      env: { HOME: dir, FCTL_LOGGER_LEVEL: "4", FCTL_PROJECT: "flytesnacks", FCTL_DOMAIN: "development" },
      log: { write: (text) => void (log += text) },
    });
    equal(flyte.config.file, `${dir}/.flyte/config.yaml`);
    const { project, domain } = flyte.config.config;
    const result = await getTask(flyte.client, { project, domain, name: "core.lib.hello", latest: true });
    equal(result.kind, "one");
    const task: Task | undefined = result.kind === "one" ? result.task : undefined;
    equal(task?.id?.version, "v3");
    deepEqual(
      sandbox.requests.filter((r) => r.service === "AdminService").map((r) => r.method),
      // UNAVAILABLE (injected), its retry answered UNAUTHENTICATED (no token yet), then the call with a token.
      ["ListTasks", "ListTasks", "ListTasks"],
      JSON.stringify(sandbox.requests.map((r) => [r.service, r.method])),
    );
    match(log, /retrying .*ListTasks after Unavailable/);
    deepEqual(sandbox.auth!.tokenRequests.map((r) => [r.clientId, r.status]), [[SANDBOX_CLIENT.id, 200]]);
    ok(!log.includes(SANDBOX_CLIENT.secret), "the secret is never logged");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("connect: flags win over the environment and the file; ExternalCommand as the command line runs it", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-connect-flags-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.writeTextFile(`${dir}/token.sh`, `#!/bin/sh\necho "${sandbox.auth!.issueToken()}"\n`, { mode: 0o700 });
    await Deno.writeTextFile(`${dir}/config.yaml`, "admin:\n  endpoint: dns:///unreachable.invalid:1\n");
    await using flyte = await connect({
      config: `${dir}/config.yaml`,
      flags: { "admin.endpoint": sandbox.endpoint, "admin.authType": "ExternalCommand", "logger.mute": true },
      env: { FCTL_ADMIN_COMMAND: `${dir}/token.sh`, FCTL_ADMIN_CA_CERT_FILE_PATH: `${dir}/ca.pem` },
    });
    equal(flyte.config.sources["admin.endpoint"], "flag");
    equal(flyte.config.sources["admin.command"], "env");
    const { tasks } = await flyte.client.admin.listTasks({
      id: { project: "flytesnacks", domain: "development" },
      limit: 10,
    });
    deepEqual(tasks, []);
    equal(sandbox.auth!.tokenRequests.length, 0, "the command's token, not the token endpoint");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("connect: an unknown option, a missing config file, a bad value: one UsageError naming it", async () => {
  await rejects(
    connect({ flags: { "admin.endpiont": "dns:///x" }, env: {} }),
    (err) =>
      err instanceof UsageError && err.message === `unknown option "admin.endpiont"; did you mean "admin.endpoint"?`,
  );
  await rejects(
    connect({ config: "/nonexistent/fctl/config.yaml", env: {} }),
    (err) =>
      err instanceof UsageError &&
      err.message === `cannot read config file "/nonexistent/fctl/config.yaml": no such file`,
  );
  await rejects(
    connect({ config: "", env: {} }),
    (err) =>
      err instanceof UsageError &&
      err.message === `invalid config "": give the path of a config file, or "default" to find it as fctl does`,
  );
  await rejects(
    connect({ config: "~/config.yaml", env: {} }),
    (err) => err instanceof UsageError && err.message === `cannot find config file "~/config.yaml": HOME is not set`,
  );
  await rejects(
    connect({ flags: { "admin.maxRetries": "many" }, env: {} }),
    (err) => err instanceof UsageError && /^invalid value "many" for --admin.maxRetries: /.test(err.message),
  );
});

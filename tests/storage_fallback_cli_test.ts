/**
 * A storage mistake is found before the first create: against a production-shaped admin (TLS from a test CA,
 * OAuth enforced) without DataProxy, `register files` of a package with a fast-registration source decides first
 * where the source goes, and storage that cannot take it (`mem`, no `storage.container`, a stow config missing
 * keys) is refused in one line, exit 2, with nothing created; `config validate` names the same problems. A package
 * without a source needs no storage and registers whatever storage says. Each run is a fresh `fctl` process under
 * the declared permissions.
 */
import { equal, match } from "node:assert/strict";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctlProcess } from "./helpers.ts";
import { CORE, SOURCE } from "./fast_source.ts";
import { productionProcessEnv } from "./entity_fixtures.ts";

/** What the admin holds, and the creates it was sent. */
function entities(sandbox: Sandbox): { held: number; creates: number } {
  const { store } = sandbox;
  return {
    held: store.tasks().length + store.workflows().length + store.launchPlans().length,
    creates: sandbox.requests.filter((r) => /^Create(Task|Workflow|LaunchPlan)$/.test(r.method)).length,
  };
}

const STOW_MISSING_KEYS = [
  "storage.stow.config for kind s3 with auth_type accesskey needs access_key_id",
  "storage.stow.config for kind s3 with auth_type accesskey needs secret_key",
];

/** The storage mistakes, each with the one line that names it. */
const MISTAKES: { label: string; storage: Record<string, unknown>; error: string }[] = [
  {
    label: "mem storage",
    storage: { type: "mem", container: "fctl-fast" },
    error: `cannot upload fast-registration source "core/_pb_output/${SOURCE}": the admin service offers no upload ` +
      "location, and storage.type mem keeps it where the admin's cluster cannot read it; configure s3, minio or " +
      "stow storage the cluster reads, or, for an admin on this machine, pass --storage.allow-local-fallback",
  },
  {
    label: "s3 access keys missing",
    storage: { type: "s3", connection: { endpoint: "http://127.0.0.1:9", "auth-type": "accesskey" } },
    // Both problems of the connection at once, as config validate lists them.
    error: "the storage settings have 2 problems: storage.connection.auth-type accesskey needs " +
      "storage.connection.access-key; storage.connection.auth-type accesskey needs storage.connection.secret-key",
  },
  {
    label: "s3 without a container",
    storage: {
      type: "s3",
      connection: { endpoint: "http://127.0.0.1:9", "auth-type": "accesskey", "access-key": "a", "secret-key": "b" },
    },
    error: "storage.container must be set to write to s3 storage",
  },
  {
    label: "stow s3 missing keys",
    storage: { type: "stow", container: "fctl-fast", stow: { kind: "s3", config: { endpoint: "http://127.0.0.1:9" } } },
    error: `the storage settings have 2 problems: ${STOW_MISSING_KEYS.join("; ")}`,
  },
];

Deno.test("production admin without DataProxy: a storage mistake is refused before the first create, exit 2, nothing registered", async () => {
  const sandbox = await startSandbox({ production: true, dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-storage-fallback-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    // No token cache: this HOME does not exist.
    const env = productionProcessEnv(`${dir}/no-home`);
    const config = async (name: string, storage: Record<string, unknown>) => {
      const path = `${dir}/${name}.yaml`;
      const admin = { endpoint: sandbox.endpoint, caCertFilePath: `${dir}/ca.pem`, clientSecretEnvVar: "FLYTE_SECRET" };
      await Deno.writeTextFile(path, JSON.stringify({ admin, storage }, null, 2));
      return path;
    };
    const scope = ["-p", "flytesnacks", "-d", "development", "--version", "v1"];
    for (const [i, { label, storage, error }] of MISTAKES.entries()) {
      const file = await config(`mistake-${i}`, storage);
      const result = await runFctlProcess(["register", "files", "--archive", fixture(CORE), ...scope, "-c", file], env);
      equal(result.code, 2, `${label}: ${result.stderr}`);
      equal(result.stderr, `Error: ${error}\n`, label);
      equal(result.stdout, "", label);
      // The admin was asked where the source could go, and nothing else.
      equal(entities(sandbox).creates, 0, label);
      equal(entities(sandbox).held, 0, label);
    }
    // The rule is one: config validate names the stow mistake the same way.
    const stow = MISTAKES.find((m) => m.label === "stow s3 missing keys")!;
    const validate = await runFctlProcess(["config", "validate", "-c", await config("validate", stow.storage)], env);
    equal(validate.code, 2, validate.stderr);
    for (const problem of STOW_MISSING_KEYS) match(validate.stderr, new RegExp(`invalid: ${problem}\n`));

    // A package without a fast-registration source needs no storage: the same mistake does not stop it.
    const noSource = await runFctlProcess(
      [
        "register",
        "files",
        "--archive",
        fixture("valid-register.tgz"),
        ...scope,
        "-c",
        await config("ok", stow.storage),
      ],
      env,
    );
    equal(noSource.code, 0, noSource.stderr);
    equal(noSource.stderr, "");
    equal(entities(sandbox).held, 4);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

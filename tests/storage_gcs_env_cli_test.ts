/**
 * fctl takes stow google's `GOOGLE_APPLICATION_CREDENTIALS` from its environment: the storage reads the variable from
 * the run's environment, which the command line passes on (a library caller passes its own). A fresh fctl process
 * under the declared permissions registers against a production-shaped admin (TLS, OAuth) without DataProxy, so that
 * the source goes to the configured storage: a Cloud Storage API server on loopback, whose token endpoint the
 * credentials file names.
 */
import { equal, ok } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { startFakeGcs } from "../src/storage/_test_gcs_server.ts";
import { fixture, runFctlProcess } from "./helpers.ts";

Deno.test("register files with stow google and no json: the credentials file GOOGLE_APPLICATION_CREDENTIALS names signs the upload", async () => {
  const gcs = await startFakeGcs();
  const sandbox = await startSandbox({ production: true, dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-gcs-env-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.writeTextFile(`${dir}/credentials.json`, gcs.serviceAccountJson);
    const stow = { kind: "google", config: { json: "", project_id: "fctl-test-project", endpoint: gcs.endpoint } };
    await Deno.writeTextFile(
      `${dir}/config.yaml`,
      JSON.stringify({ storage: { type: "stow", container: "fctl-fast", stow } }),
    );
    const result = await runFctlProcess([
      "register",
      "files",
      "--archive",
      fixture("flytesnacks-core.tgz"),
      "--version",
      "v1",
      "-p",
      "flytesnacks",
      "-d",
      "development",
      "--admin.endpoint",
      sandbox.endpoint,
      "--admin.caCertFilePath",
      `${dir}/ca.pem`,
      "--admin.clientSecretEnvVar",
      "FLYTE_SECRET",
      "--config",
      `${dir}/config.yaml`,
    ], {
      HOME: `${dir}/home`,
      FLYTE_SECRET: SANDBOX_CLIENT.secret,
      GOOGLE_APPLICATION_CREDENTIALS: `${dir}/credentials.json`,
    });
    equal(result.code, 0, result.stderr);
    ok(gcs.tokens.length >= 1, "a token from the file's token endpoint");
    ok([...gcs.buckets.get("fctl-fast")?.keys() ?? []].length >= 1, "the source uploaded");
  } finally {
    await sandbox.close();
    await gcs.close();
    await Deno.remove(dir, { recursive: true });
  }
});

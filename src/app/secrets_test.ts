import { deepEqual, equal } from "node:assert/strict";
import { loadConfig } from "../config/load.ts";
import { REDACTED, Redactor } from "../log/redact.ts";
import { registerConfigSecrets, registerOptionSecrets } from "./secrets.ts";

/** A reader of the given files; any other path is missing. */
function files(contents: Record<string, string>): (path: string) => Promise<string> {
  return (path) => path in contents ? Promise.resolve(contents[path]) : Promise.reject(new Deno.errors.NotFound(path));
}

Deno.test("registerOptionSecrets: secret options and the password of any URL among the values, nothing else", () => {
  const secrets = new Redactor();
  registerOptionSecrets(secrets, {
    "storage.connection.secret-key": "flag-secret-1234",
    "admin.httpProxyURL": "http://proxy-user:proxy-pass-5678@proxy:3128",
    "admin.endpoint": "dns:///flyte.example.com",
    "project": "flytesnacks",
    "not.an.option": "other-secret-9999",
  });
  equal(
    secrets.redact("flag-secret-1234 proxy-pass-5678 proxy-user flyte.example.com flytesnacks other-secret-9999"),
    `${REDACTED} ${REDACTED} proxy-user flyte.example.com flytesnacks other-secret-9999`,
  );
});

Deno.test("registerConfigSecrets: option values, storage credentials, the client secret's variable and file", async () => {
  const readTextFile = files({
    "/config.yaml": [
      "admin:",
      "  endpoint: dns://admin-user:endpoint-pass-1111@flyte.example.com",
      "  clientSecretEnvVar: MY_SECRET",
      "  clientSecretLocation: /secret",
      "storage:",
      "  connection:",
      "    access-key: access-key-2222",
      "    secret-key: secret-key-3333",
      "  stow:",
      "    kind: s3",
      "    config:",
      "      secret_key: stow-key-4444",
    ].join("\n"),
    "/secret": "file-secret-5555\n",
  });
  const env = { FLYTECTL_CONFIG: "/config.yaml", MY_SECRET: "env-secret-6666", AWS_SESSION_TOKEN: "aws-token-7777" };
  const loaded = await loadConfig({ flags: {}, env, readTextFile });
  const secrets = new Redactor();
  await registerConfigSecrets(secrets, loaded, { env, readTextFile });
  const all = ["endpoint-pass-1111", "access-key-2222", "secret-key-3333", "stow-key-4444", "file-secret-5555"];
  all.push("env-secret-6666", "aws-token-7777");
  deepEqual(all.map((s) => secrets.redact(s)), all.map(() => REDACTED));
  equal(secrets.redact("admin-user flyte.example.com"), "admin-user flyte.example.com");
});

Deno.test("registerConfigSecrets: a client secret file that is absent hides nothing and fails nothing", async () => {
  const readTextFile = files({});
  const loaded = await loadConfig({ flags: {}, env: {}, readTextFile });
  const secrets = new Redactor();
  await registerConfigSecrets(secrets, loaded, { env: {}, readTextFile });
  equal(secrets.empty, true);
});

Deno.test("registerConfigSecrets: a value that is one of fctl's own words for an option (minio, JSON) is no secret", async () => {
  const readTextFile = files({
    "/sandbox_minio_storage.yaml": [
      "storage:",
      "  type: minio",
      "  connection:",
      "    access-key: minio",
      "    secret-key: miniostorage",
      "  stow:",
      "    config:",
      "      key: JSON",
    ].join("\n"),
  });
  const env = { FLYTECTL_CONFIG: "/sandbox_minio_storage.yaml" };
  const loaded = await loadConfig({ flags: {}, env, readTextFile });
  const secrets = new Redactor();
  await registerConfigSecrets(secrets, loaded, { env, readTextFile });
  registerOptionSecrets(secrets, { "storage.connection.secret-key": " Minio\n" });
  equal(
    secrets.redact("/sandbox_minio_storage.yaml: MINIO bucket, json, secret miniostorage"),
    `/sandbox_minio_storage.yaml: MINIO bucket, json, secret ${REDACTED}`,
  );
});

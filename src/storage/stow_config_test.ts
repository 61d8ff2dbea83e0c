import { deepEqual, equal } from "node:assert/strict";
import { describeCloudStow, stowAzureProblems, stowGoogleProblems } from "./stow_config.ts";

Deno.test("stow google keys: json (optional), project_id (required), scopes, endpoint", () => {
  deepEqual(stowGoogleProblems({ json: "", project_id: "p" }), []);
  deepEqual(stowGoogleProblems({ project_id: "p", scopes: "a,b", endpoint: "https://private.example:8443" }), []);
  deepEqual(stowGoogleProblems({ json: "{}", project_id: "p", scopes: "a,,b" }), [
    'storage.stow.config json has no "type" field (expected e.g. "service_account")',
    'storage.stow.config scopes "a,,b" has an empty scope',
  ]);
  deepEqual(stowGoogleProblems({ project_id: "p", endpoint: "http://user:pw@host" }), [
    'storage.stow.config endpoint "http://user:pw@host" must not carry credentials in the URL',
  ]);
});

Deno.test("stow azure keys: account and key required, removed keys named, secrets never quoted", () => {
  const key = "Zm9vYmFy";
  deepEqual(stowAzureProblems({ account: "acct1", key }), []);
  deepEqual(stowAzureProblems({ account: "acct1", key, upload_concurrency: "0", domain_suffix: "a b" }), [
    'storage.stow.config domain_suffix "a b" is not a domain name',
    'storage.stow.config upload_concurrency "0" is not a whole number of 1 or more',
  ]);
  const problems = stowAzureProblems({ account: "Bad_Account", key: "not base64!", api_version: "2019" });
  deepEqual(problems, [
    'storage.stow.config key "api_version" was removed from stow azure: remove it; the service version is the client\'s',
    'storage.stow.config account "Bad_Account" is not a storage account name (3 to 24 lowercase letters or digits)',
    "storage.stow.config key is not a base64 account key",
  ]);
});

Deno.test("describeCloudStow says where objects go and where credentials come from, never a credential", () => {
  equal(
    describeCloudStow("google", "b", { json: '{"private_key":"secret"}', project_id: "p" }),
    "storage: stow google, gs://b through https://storage.googleapis.com in project p, with the service account in storage.stow.config json; a missing bucket is created",
  );
  equal(
    describeCloudStow("azure", "", { account: "acct1", key: "secret" }),
    "storage: stow azure, abfs://<the container each reference names> through https://acct1.blob.core.windows.net with account acct1's key; a missing container is created",
  );
});

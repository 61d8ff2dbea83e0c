import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { storageSecrets } from "./secrets.ts";

Deno.test("storageSecrets: connection keys, credential-looking stow keys and their JSON fields, AWS variables", () => {
  const json = JSON.stringify({ type: "service_account", private_key_id: "abc123", private_key: "-----BEGIN…" });
  assertEquals(
    storageSecrets({
      accessKey: "AKIA1",
      secretKey: "S3CR3T",
      stowConfig: {
        auth_type: "accesskey",
        endpoint: "http://minio:9000",
        region: "us-east-1",
        access_key_id: "AK2",
        secret_key: "SK2",
        key: "azure-account-key",
        json,
        account: "myaccount",
      },
      env: { AWS_SECRET_ACCESS_KEY: "env-secret", AWS_SESSION_TOKEN: "env-token", AWS_REGION: "eu-west-1" },
    }),
    ["AKIA1", "S3CR3T", "env-secret", "env-token", "AK2", "SK2", "azure-account-key", json, "abc123", "-----BEGIN…"],
  );
  assertEquals(storageSecrets({}), []);
});

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { StorageConfig } from "./mod.ts";
import { describeStorage, storageProblems } from "./validate.ts";

const base: StorageConfig = { type: "S3", container: "my-bucket", defaultLocalRoot: "/tmp/flyte-local-storage" };
const remoteAdmin = { endpoint: "dns:///flyte.example.com:443", allowLocalFallback: false };

Deno.test("storage validate: s3 and minio settings say where, how addressed and which credentials", () => {
  const minio: StorageConfig = {
    ...base,
    type: "MINIO",
    endpoint: "localhost:9000",
    disableSsl: true,
    authType: "accesskey",
    accessKey: "AK",
    secretKey: "SK",
  };
  assertEquals(storageProblems(minio, remoteAdmin), []);
  assertEquals(
    describeStorage(minio, remoteAdmin),
    "storage: minio bucket my-bucket at http://localhost:9000 (path-style), access key from storage.connection",
  );
  assertEquals(
    describeStorage({ ...base, region: "eu-west-1", cacheMaxSizeMbs: 8, multiContainer: true }, remoteAdmin),
    "storage: s3 bucket my-bucket in AWS region eu-west-1, credentials from the AWS default chain (environment, " +
      "shared config and credentials files, web identity, ECS/EC2 metadata), other buckets allowed; read cache 8 MiB",
  );
  // A scheme given wins over disable-ssl; a custom endpoint is addressed path-style.
  assertEquals(
    describeStorage({ ...base, endpoint: "https://s3.internal:9443/", disableSsl: true }, remoteAdmin),
    "storage: s3 bucket my-bucket at https://s3.internal:9443 (path-style), credentials from the AWS default " +
      "chain (environment, shared config and credentials files, web identity, ECS/EC2 metadata)",
  );
});

Deno.test("storage validate: each problem is one line naming the option and what is accepted", () => {
  assertEquals(
    storageProblems({ ...base, type: "MINIO", authType: "keys", region: "EU WEST" }, remoteAdmin),
    [
      'invalid storage.connection.auth-type "keys": accepted values: iam, accesskey',
      "storage.type minio needs storage.connection.endpoint (the minio server's URL)",
      'invalid storage.connection.region "EU WEST": expected a region name such as us-east-1',
    ],
  );
  assertEquals(storageProblems({ ...base, authType: "accesskey", endpoint: "http://u:p@h:1/?q" }, remoteAdmin), [
    "storage.connection.auth-type accesskey needs storage.connection.access-key",
    "storage.connection.auth-type accesskey needs storage.connection.secret-key",
    'invalid storage.connection.endpoint "http://u:p@h:1/?q": expected scheme, host, port and path only',
  ]);
  assertEquals(
    storageProblems({
      ...base,
      type: "STOW",
      stowKind: "s3",
      stowConfig: { endpoint: "ftp://x", foo: "1", disable_ssl: "yes", v2_signing: "true", auth_type: "iam" },
    }, remoteAdmin),
    [
      'unknown key "foo" in storage.stow.config for kind s3; accepted keys: auth_type, access_key_id, secret_key, ' +
      "region, endpoint, disable_ssl, v2_signing",
      'invalid storage.stow.config endpoint "ftp://x": expected an http:// or https:// URL such as http://localhost:9000',
      'invalid storage.stow.config disable_ssl "yes": expected true or false',
      "storage.stow.config v2_signing true is not supported: fctl signs with Signature Version 4 only",
    ],
  );
  assertEquals(storageProblems({ ...base, type: "STOW", stowKind: "swift" }, remoteAdmin), [
    'storage.stow.kind "swift" is not supported; accepted kinds: s3, google, azure',
  ]);
});

Deno.test("storage validate: local and mem say they are refused for the fallback unless allowed for a loopback admin", () => {
  const local: StorageConfig = { ...base, type: "LOCAL", container: "c" };
  assertEquals(
    describeStorage(local, remoteAdmin),
    "storage: local in local directory /tmp/flyte-local-storage/c, refused for the fast-registration source " +
      "(the admin's cluster cannot read it) unless --storage.allow-local-fallback with an admin on this machine",
  );
  assertEquals(storageProblems(local, { endpoint: "127.0.0.1:8089", allowLocalFallback: true }), []);
  assertEquals(storageProblems(local, { endpoint: "dns:///[::1]:8089", allowLocalFallback: true }), []);
  assertEquals(storageProblems(local, { endpoint: "http://localhost:30080", allowLocalFallback: true }), []);
  for (const endpoint of ["flyte.example.com", "not a url::"]) {
    assertEquals(storageProblems({ ...local, type: "MEM" }, { endpoint, allowLocalFallback: true }), [
      `storage.allow-local-fallback needs an admin on this machine: admin.endpoint ${JSON.stringify(endpoint)} is ` +
      "not a loopback address (localhost, 127.0.0.1, ::1), so its cluster could not read local or mem storage",
    ]);
  }
  assertEquals(
    describeStorage({ ...local, type: "MEM" }, { allowLocalFallback: true }),
    "storage: mem in process memory, used for the fast-registration source when the admin has no upload location " +
      "(admin on this machine)",
  );
});

/**
 * The S3 client's own settings come from the environment the library is given, never from the process's: the
 * endpoint configured for S3 (`AWS_ENDPOINT_URL_S3`), retries (`AWS_MAX_ATTEMPTS`) and FIPS endpoints
 * (`AWS_USE_FIPS_ENDPOINT`). The process holds settings that would fail each call; the S3 servers are s3rver
 * (src/storage/_test_s3.ts) and one written here that is always unavailable.
 */
import { deepEqual, equal, match, rejects } from "node:assert/strict";
import { givenEnv, withProcessEnv } from "./_test_process_env.ts";
import { S3RVER_KEYS, startTestS3 } from "./_test_s3.ts";
import { openStorage } from "./mod.ts";
import type { StorageConfig } from "./store.ts";

const bytes = new TextEncoder().encode("abc");

/** Access-key storage in `bucket`, at `endpoint` if given, reading `env`. */
function keyStorage(bucket: string, endpoint: string | undefined, env: Record<string, string>): StorageConfig {
  return {
    type: "s3",
    container: bucket,
    ...(endpoint ? { endpoint } : {}),
    authType: "accesskey",
    accessKey: S3RVER_KEYS.accessKey,
    secretKey: S3RVER_KEYS.secretKey,
    defaultLocalRoot: "",
    timeoutMs: 10_000,
    env,
  };
}

Deno.test("s3 without an endpoint of fctl's: the endpoint the given env configures for S3, not the process's", async () => {
  const s3 = await startTestS3();
  try {
    // Nothing listens on port 1: a call sent where the process says fails.
    await withProcessEnv({ AWS_ENDPOINT_URL_S3: "http://127.0.0.1:1" }, async () => {
      using store = await openStorage(
        keyStorage("env-endpoint", undefined, givenEnv({ AWS_ENDPOINT_URL_S3: s3.endpoint })),
      );
      await store.writeFile("s3://env-endpoint/fast/a.txt", { bytes });
      deepEqual(await s3.object("env-endpoint", "fast/a.txt"), bytes);
    });
  } finally {
    await s3.close();
  }
});

Deno.test("s3: AWS_MAX_ATTEMPTS and AWS_USE_FIPS_ENDPOINT of the given env, not the process's", async () => {
  let calls = 0;
  const unavailable = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    calls++;
    return new Response(null, { status: 503 });
  });
  const endpoint = `http://127.0.0.1:${unavailable.addr.port}`;
  const head = async (env: Record<string, string>) => {
    using store = await openStorage(keyStorage("retried", endpoint, givenEnv(env)));
    await rejects(store.head("s3://retried/a.txt"), (err: Error) => {
      match(err.message, /^cannot read "s3:\/\/retried\/a\.txt": .*HTTP 503/);
      return true;
    });
  };
  try {
    await withProcessEnv({ AWS_MAX_ATTEMPTS: "1" }, async () => {
      await head({ AWS_MAX_ATTEMPTS: "3" });
      equal(calls, 3);
    });
    // FIPS endpoints cannot be combined with an endpoint of fctl's: the SDK would refuse every call before sending it.
    await withProcessEnv({ AWS_USE_FIPS_ENDPOINT: "true" }, async () => {
      await head({ AWS_MAX_ATTEMPTS: "1" });
      equal(calls, 4);
    });
  } finally {
    await unavailable.shutdown();
  }
});

/**
 * auth-type iam takes its AWS variables from the environment the library is given, never from the process's: here
 * the process holds another identity (keys s3rver refuses, or the only ones it accepts), and every call must be
 * signed with what the given environment leads to. s3rver (src/storage/_test_s3.ts) accepts the access key S3RVER
 * only; its front records the access key id of each request. The STS and ECS container services are loopback
 * servers written here.
 */
import { deepEqual, equal, match, ok as assert, rejects } from "node:assert/strict";
import { connect } from "../../mod.ts";
import { OperationError } from "../errors.ts";
import { givenEnv, withProcessEnv } from "./_test_process_env.ts";
import { startTestS3, type TestS3Server } from "./_test_s3.ts";
import { openStorage } from "./mod.ts";
import type { StorageConfig } from "./store.ts";

const bytes = new TextEncoder().encode("abc");

/** Keys s3rver refuses (InvalidAccessKeyId): a call signed with them fails. */
const PROCESS_KEYS = { AWS_ACCESS_KEY_ID: "PROCESSKEY", AWS_SECRET_ACCESS_KEY: "process-secret" };
/** The only keys s3rver accepts. */
const S3RVER_ENV_KEYS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

function s3Storage(s3: TestS3Server, bucket: string, env: Record<string, string>): StorageConfig {
  return {
    type: "s3",
    container: bucket,
    endpoint: s3.endpoint,
    authType: "iam",
    defaultLocalRoot: "",
    timeoutMs: 10_000,
    env,
  };
}

/** Writes and reads back one object of `bucket`; every call it made was signed with S3RVER. */
async function writeAndRead(s3: TestS3Server, bucket: string, env: Record<string, string>): Promise<void> {
  using store = await openStorage(s3Storage(s3, bucket, env));
  const ref = `s3://${bucket}/fast/a.txt`;
  await store.writeFile(ref, { bytes });
  deepEqual(await store.head(ref), { size: 3 });
  const signedWith = new Set(s3.requests.splice(0).map((request) => request.accessKeyId));
  deepEqual([...signedWith], ["S3RVER"]);
}

Deno.test("auth-type iam: the given env's keys sign every call, the process's never", async () => {
  const s3 = await startTestS3();
  try {
    await withProcessEnv(PROCESS_KEYS, async () => {
      await writeAndRead(s3, "env-keys", givenEnv(S3RVER_ENV_KEYS));
    });
  } finally {
    await s3.close();
  }
});

Deno.test("auth-type iam: with no credentials in the given env, the process's are not taken", async () => {
  const s3 = await startTestS3();
  try {
    await withProcessEnv(S3RVER_ENV_KEYS, async () => {
      using store = await openStorage(s3Storage(s3, "no-credentials", givenEnv({})));
      await rejects(store.writeFile("s3://no-credentials/fast/a.txt", { bytes }), (err: Error) => {
        assert(err instanceof OperationError, String(err));
        match(err.message, /^cannot write "s3:\/\/no-credentials\/fast\/a\.txt": no AWS credentials found /);
        return true;
      });
      deepEqual(s3.requests, []);
      equal(await s3.hasBucket("no-credentials"), false);
    });
  } finally {
    await s3.close();
  }
});

Deno.test("auth-type iam: the profile of the shared files the given env names, not the process's keys", async () => {
  const s3 = await startTestS3();
  const dir = await Deno.makeTempDir({ prefix: "fctl-s3-profile-" });
  try {
    await Deno.writeTextFile(
      `${dir}/credentials`,
      "[default]\naws_access_key_id = NOTKNOWNBYS3RVER\naws_secret_access_key = x\n\n" +
        "[fctl-ci]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n",
    );
    await Deno.writeTextFile(`${dir}/config`, "[profile fctl-ci]\nregion = us-east-1\n");
    await withProcessEnv(PROCESS_KEYS, async () => {
      await writeAndRead(
        s3,
        "env-profile",
        givenEnv({
          AWS_SHARED_CREDENTIALS_FILE: `${dir}/credentials`,
          AWS_CONFIG_FILE: `${dir}/config`,
          AWS_PROFILE: "fctl-ci",
        }),
      );
    });
  } finally {
    await s3.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Temporary credentials as STS and the ECS container service give them. */
const TEMPORARY = {
  AccessKeyId: "S3RVER",
  SecretAccessKey: "S3RVER",
  Token: "session-token",
  Expiration: new Date(Date.now() + 3_600_000).toISOString(),
};

Deno.test("auth-type iam: web identity and the ECS container service of the given env, not the process's", async () => {
  const s3 = await startTestS3();
  const seen: string[] = [];
  const services = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const token = /WebIdentityToken=([^&]+)/.exec(await req.text())?.[1];
    seen.push(`${req.method} ${pathname}${token ? ` ${token}` : ""}`);
    switch (`${req.method} ${pathname.replace(/\/+$/, "")}`) {
      case "GET /env-ecs":
        return Response.json(TEMPORARY);
      case "POST /env-sts":
        return new Response(
          `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
            <AssumeRoleWithWebIdentityResult><Credentials>
              <AccessKeyId>S3RVER</AccessKeyId><SecretAccessKey>S3RVER</SecretAccessKey>
              <SessionToken>web-identity-session</SessionToken><Expiration>${TEMPORARY.Expiration}</Expiration>
            </Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`,
          { headers: { "content-type": "text/xml" } },
        );
      default:
        return new Response("not the given env's service", { status: 404 });
    }
  });
  const base = `http://127.0.0.1:${services.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "fctl-s3-web-identity-" });
  try {
    await Deno.writeTextFile(`${dir}/env-token`, "env-jwt");
    await Deno.writeTextFile(`${dir}/process-token`, "process-jwt");
    // The process's own services, token and role: none of them may be asked.
    await withProcessEnv({
      AWS_WEB_IDENTITY_TOKEN_FILE: `${dir}/process-token`,
      AWS_ROLE_ARN: "arn:aws:iam::123456789012:role/process",
      AWS_ENDPOINT_URL_STS: `${base}/process-sts`,
      AWS_CONTAINER_CREDENTIALS_FULL_URI: `${base}/process-ecs`,
    }, async () => {
      await writeAndRead(
        s3,
        "env-web-identity",
        givenEnv({
          AWS_WEB_IDENTITY_TOKEN_FILE: `${dir}/env-token`,
          AWS_ROLE_ARN: "arn:aws:iam::123456789012:role/fctl",
          AWS_ENDPOINT_URL_STS: `${base}/env-sts`,
        }),
      );
      deepEqual(seen.splice(0), ["POST /env-sts/ env-jwt"]);

      // The same from a profile of the shared files the given env names.
      await Deno.writeTextFile(
        `${dir}/config`,
        `[profile web]\nweb_identity_token_file = ${dir}/env-token\nrole_arn = arn:aws:iam::123456789012:role/fctl\n`,
      );
      await writeAndRead(
        s3,
        "env-web-identity-profile",
        givenEnv({
          AWS_CONFIG_FILE: `${dir}/config`,
          AWS_SHARED_CREDENTIALS_FILE: `${dir}/credentials`,
          AWS_PROFILE: "web",
          AWS_ENDPOINT_URL_STS: `${base}/env-sts`,
        }),
      );
      deepEqual(seen.splice(0), ["POST /env-sts/ env-jwt"]);

      await writeAndRead(s3, "env-ecs", givenEnv({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${base}/env-ecs` }));
      deepEqual(seen.splice(0), ["GET /env-ecs"]);
    });
  } finally {
    await services.shutdown();
    await s3.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("connect({ env }): the connection's s3 storage signs with that env's keys, not the process's", async () => {
  const s3 = await startTestS3();
  try {
    await withProcessEnv(PROCESS_KEYS, async () => {
      await using flyte = await connect({
        flags: {
          "admin.endpoint": "http://127.0.0.1:1",
          "admin.insecure": true,
          "storage.type": "s3",
          "storage.container": "connect-env",
          "storage.connection.endpoint": s3.endpoint,
          "storage.defaultHttpClient.timeout": "10s",
        },
        env: givenEnv(S3RVER_ENV_KEYS),
      });
      const store = await flyte.uploads().openStorage();
      await store.writeFile("s3://connect-env/fast/b.txt", { bytes });
      deepEqual([...new Set(s3.requests.map((request) => request.accessKeyId))], ["S3RVER"]);
    });
  } finally {
    await s3.close();
  }
});

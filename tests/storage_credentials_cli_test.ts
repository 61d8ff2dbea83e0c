/**
 * `storage.connection.auth-type iam`: the AWS SDK's default credential chain, exercised through the real
 * executable (a subprocess with fctl's declared permissions, never -A, and only the environment given
 * here): keys from environment variables, from shared credentials and config files chosen with
 * `AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE` and `AWS_PROFILE`, from the ECS container and EC2
 * instance metadata services, and from a web identity token exchanged with STS (loopback servers written
 * here, where the SDK's variables point). The source goes to s3rver (see
 * src/storage/_test_s3.ts), which accepts the access key S3RVER only, so a profile's key decides success.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { startTestS3 } from "../src/storage/_test_s3.ts";
import { fctlMain, fixture } from "./helpers.ts";

/** What ships: the bundle of main.ts. */
const MAIN = await fctlMain();
/** Where a registration under `version` puts the source. */
const key = (version: string) => `fast/${version}-fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz`;

async function fctl(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args],
    // No instance metadata service to wait for: the chain ends with a clear error instead.
    env: { HOME: "/nonexistent-fctl-test-home", NO_COLOR: "1", AWS_EC2_METADATA_DISABLED: "true", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/**
 * Registers flytesnacks-core with auth-type iam (the default) into `bucket` of `s3`, with `env` as the whole
 * environment besides fctl's own: the version is the bucket's name, so each registration has a key of its own.
 */
function registerInto(
  sandbox: { endpoint: string },
  s3: { endpoint: string },
  bucket: string,
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  return fctl([
    ...["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", bucket],
    ...["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
    ...["--storage.type", "s3", "--storage.connection.endpoint", s3.endpoint, "--storage.container", bucket],
  ], env);
}

Deno.test("auth-type iam: credentials from the environment, then from a shared-file profile, else a clear error", async () => {
  const s3 = await startTestS3();
  const sandbox = await startSandbox({ dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-aws-chain-" });
  try {
    const register = (bucket: string, env: Record<string, string>) => registerInto(sandbox, s3, bucket, env);

    const fromEnv = await register("from-env", { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" });
    equal(fromEnv.code, 0, fromEnv.stderr);
    equal((await s3.object("from-env", key("from-env")))?.length, 40_066);

    await Deno.writeTextFile(
      `${dir}/credentials`,
      "[default]\naws_access_key_id = NOTKNOWNBYS3RVER\naws_secret_access_key = x\n\n" +
        "[fctl-ci]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n",
    );
    await Deno.writeTextFile(
      `${dir}/config`,
      "[default]\nregion = us-east-1\n\n[profile fctl-ci]\nregion = us-east-1\n",
    );
    const files = { AWS_SHARED_CREDENTIALS_FILE: `${dir}/credentials`, AWS_CONFIG_FILE: `${dir}/config` };
    const fromProfile = await register("from-profile", { ...files, AWS_PROFILE: "fctl-ci" });
    equal(fromProfile.code, 0, fromProfile.stderr);
    equal((await s3.object("from-profile", key("from-profile")))?.length, 40_066);
    // The default profile's key is not S3RVER's: the profile chosen is the one used.
    const fromDefault = await register("from-default", files);
    equal(fromDefault.code, 1);
    match(fromDefault.stderr, /InvalidAccessKeyId/);

    const none = await register("no-credentials", {});
    equal(none.code, 1);
    match(
      none.stderr,
      /Error: cannot write "s3:\/\/no-credentials\/fast\/no-credentials-\S+": no AWS credentials found \(environment, shared config and credentials files, web identity, ECS\/EC2 metadata\); .*\n$/,
    );
    deepEqual(await s3.object("no-credentials", key("no-credentials")), undefined);

    // No HOME: keys from the environment need no shared files, so none are looked for.
    const keysWithoutHome = await register("keys-no-home", {
      HOME: "",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    });
    equal(keysWithoutHome.code, 0, keysWithoutHome.stderr);
    equal((await s3.object("keys-no-home", key("keys-no-home")))?.length, 40_066);
    // Nor are there shared files to look in: no credentials at all.
    const nothingWithoutHome = await register("nothing-no-home", { HOME: "" });
    equal(nothingWithoutHome.code, 1);
    match(nothingWithoutHome.stderr, /Error: cannot write "s3:\/\/nothing-no-home\/\S+": no AWS credentials found /);
    // Shared files named without a HOME: the SDK still looks for one (it would ask the system, a permission fctl does
    // not have); one line says what to set.
    const homeless = await register("no-home", { HOME: "", ...files, AWS_PROFILE: "fctl-ci" });
    equal(homeless.code, 1);
    match(
      homeless.stderr,
      /Error: cannot write "s3:\/\/no-home\/\S+": HOME is not set, and the AWS SDK needs it to look for its shared config and credentials files: set HOME\n$/,
    );
  } finally {
    await sandbox.close();
    await s3.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Temporary credentials as the ECS and EC2 metadata services give them. */
const METADATA_CREDENTIALS = {
  AccessKeyId: "S3RVER",
  SecretAccessKey: "S3RVER",
  Token: "session-token-from-metadata",
  Expiration: new Date(Date.now() + 3_600_000).toISOString(),
};

Deno.test("auth-type iam: credentials from the ECS container and EC2 instance metadata services, and web identity", async () => {
  const s3 = await startTestS3();
  const sandbox = await startSandbox({ dataProxy: false });
  const seen: string[] = [];
  const metadata = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    switch (`${req.method} ${pathname.replace(/\/+$/, "") || "/"}`) {
      case "GET /ecs-credentials":
        return Response.json(METADATA_CREDENTIALS);
      case "PUT /latest/api/token": // IMDSv2's session token
        return new Response("imds-token");
      case "GET /latest/meta-data/iam/security-credentials":
        return new Response("fctl-role");
      case "GET /latest/meta-data/iam/security-credentials/fctl-role":
        return Response.json({ Code: "Success", Type: "AWS-HMAC", ...METADATA_CREDENTIALS });
      case "POST /sts": // STS AssumeRoleWithWebIdentity (AWS_ENDPOINT_URL_STS points here)
        return new Response(
          `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
            <AssumeRoleWithWebIdentityResult><Credentials>
              <AccessKeyId>S3RVER</AccessKeyId><SecretAccessKey>S3RVER</SecretAccessKey>
              <SessionToken>web-identity-session</SessionToken><Expiration>${METADATA_CREDENTIALS.Expiration}</Expiration>
            </Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`,
          { headers: { "content-type": "text/xml" } },
        );
      default:
        return new Response("not found", { status: 404 });
    }
  });
  const base = `http://127.0.0.1:${metadata.addr.port}`;
  try {
    const register = (bucket: string, env: Record<string, string>) => registerInto(sandbox, s3, bucket, env);
    const ecs = await register("from-ecs", { AWS_CONTAINER_CREDENTIALS_FULL_URI: `${base}/ecs-credentials` });
    equal(ecs.code, 0, ecs.stderr);
    equal((await s3.object("from-ecs", key("from-ecs")))?.length, 40_066);
    deepEqual(seen.splice(0), ["GET /ecs-credentials"]);

    const ec2 = await register("from-ec2", {
      AWS_EC2_METADATA_DISABLED: "false",
      AWS_EC2_METADATA_SERVICE_ENDPOINT: base,
    });
    equal(ec2.code, 0, ec2.stderr);
    equal((await s3.object("from-ec2", key("from-ec2")))?.length, 40_066);
    assert(seen.includes("GET /latest/meta-data/iam/security-credentials/fctl-role"), seen.join(", "));
    seen.splice(0);

    const dir = await Deno.makeTempDir({ prefix: "fctl-aws-chain-" });
    try {
      await Deno.writeTextFile(`${dir}/token`, "web-identity-jwt");
      const web = await register("from-web-identity", {
        AWS_WEB_IDENTITY_TOKEN_FILE: `${dir}/token`,
        AWS_ROLE_ARN: "arn:aws:iam::123456789012:role/fctl",
        AWS_ENDPOINT_URL_STS: `${base}/sts`,
      });
      equal(web.code, 0, web.stderr);
      equal((await s3.object("from-web-identity", key("from-web-identity")))?.length, 40_066);
      deepEqual(seen, ["POST /sts/"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await metadata.shutdown();
    await sandbox.close();
    await s3.close();
  }
});

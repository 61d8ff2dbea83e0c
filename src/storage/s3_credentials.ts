/**
 * The AWS credentials of `auth-type iam`: the AWS SDK's default chain, in its order, with every source it lets
 * options steer read from the environment fctl is given (the command line's, a library caller's `env`), never
 * from the process's:
 *
 * 1. `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`, `AWS_CREDENTIAL_EXPIRATION`,
 *    `AWS_CREDENTIAL_SCOPE`, `AWS_ACCOUNT_ID`), unless `AWS_PROFILE` is set, which wins as with the SDK;
 * 2. the profile `AWS_PROFILE` (default `default`) of the shared credentials and config files
 *    (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`, else `.aws/credentials` and `.aws/config` under `HOME`; none
 *    without a `HOME`): keys, assumed roles, web identity, `credential_process`, SSO;
 * 3. web identity: `AWS_WEB_IDENTITY_TOKEN_FILE`, `AWS_ROLE_ARN`, `AWS_ROLE_SESSION_NAME`, exchanged with STS at
 *    the endpoint `env` configures (`AWS_ENDPOINT_URL_STS`, `AWS_ENDPOINT_URL`, a profile's `endpoint_url`), else
 *    AWS's own;
 * 4. the ECS container service (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` or `_FULL_URI`, with
 *    `AWS_CONTAINER_AUTHORIZATION_TOKEN` or `_TOKEN_FILE`), else the EC2 instance metadata service unless
 *    `AWS_EC2_METADATA_DISABLED` is set (and not `false`).
 *
 * What the SDK still reads from the process, because no option of it says otherwise:
 * - the EC2 instance metadata service's address (`AWS_EC2_METADATA_SERVICE_ENDPOINT`,
 *   `AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE`) and `AWS_EC2_METADATA_V1_DISABLED`, from the process's environment and
 *   its default shared config file;
 * - `HOME` (`USERPROFILE`, `HOMEPATH`), whenever it reads the shared files, even though fctl names them: it expands
 *   a leading `~/` with it, and without one asks the system for the home directory (which fctl's permissions refuse);
 * - inside a profile: `credential_source = Environment` takes the process's keys, a `credential_process` runs with
 *   the process's environment, SSO reads its token cache under the process's `HOME`;
 * - in AWS Lambda, the trace id the SDK's recursion detection sends (`AWS_LAMBDA_FUNCTION_NAME`, `_X_AMZN_TRACE_ID`);
 *   and switches that change nothing fctl sends (`AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED`,
 *   `AWS_ENABLE_DEFAULT_SOCKET_TIMEOUT_2026`, for HTTP handlers fctl does not use).
 *
 * The STS and SSO clients the chain makes, and the S3 client, take their settings from `env` too
 * (s3_client_settings.ts). The SDK hands a profile's STS and SSO clients one configuration: an endpoint configured
 * for STS alone (`AWS_ENDPOINT_URL_STS`, a `services` section's `sts`) is given to an SSO profile's client too, so
 * configure it only where no SSO profile is used.
 *
 * @module
 */
import type { S3ClientConfig } from "@aws-sdk/client-s3";
import { configuredEndpoint, envServiceSettings } from "./s3_client_settings.ts";
import { type Env, sharedFiles } from "./s3_env.ts";

/** A credentials provider as the S3 client takes it. */
export type CredentialsProvider = Extract<NonNullable<S3ClientConfig["credentials"]>, (...args: never[]) => unknown>;
type Credentials = Awaited<ReturnType<CredentialsProvider>>;
type IdentityProperties = Parameters<CredentialsProvider>[0];

/** A link of the chain: credentials, or `undefined` to try the next link. */
type Link = (properties: IdentityProperties) => Promise<Credentials | undefined>;

/** What the chain gives the STS and SSO clients it makes (fctl's user agent). */
export interface ChainOptions {
  clientConfig: Partial<S3ClientConfig>;
}

/** The message of the chain's failure when no link has credentials. */
const NO_CREDENTIALS = "Could not load credentials from any providers";

/**
 * The default credential chain of the AWS SDK, reading `env` instead of the process's environment (see the module
 * doc for what the SDK still reads from the process). Credentials are memoized by the S3 client that takes it.
 */
export function envCredentialChain(env: Env, options: ChainOptions): CredentialsProvider {
  let nested: Promise<Partial<S3ClientConfig>> | undefined;
  const clientConfig = () => nested ??= nestedClientConfig(env, options.clientConfig);
  const links: Link[] = [
    () => Promise.resolve(fromEnvKeys(env)),
    (properties) => fromSharedFiles(env, clientConfig, properties),
    (properties) => fromWebIdentity(env, clientConfig, properties),
    () => fromRemote(env),
  ];
  return async (properties) => {
    for (const link of links) {
      try {
        const credentials = await link(properties);
        if (credentials) return credentials;
      } catch (err) {
        // The SDK's providers say "try the next source" this way (a file or profile that is not there).
        if ((err as { tryNextLink?: boolean })?.tryNextLink) continue;
        throw err;
      }
    }
    const { CredentialsProviderError } = await import("@smithy/core/config");
    throw new CredentialsProviderError(NO_CREDENTIALS, { tryNextLink: false });
  };
}

/** Step 1: the keys of the environment; an `AWS_PROFILE` set wins over them, as in the SDK. */
function fromEnvKeys(env: Env): Credentials | undefined {
  if (env["AWS_PROFILE"]) return undefined;
  const accessKeyId = env["AWS_ACCESS_KEY_ID"];
  const secretAccessKey = env["AWS_SECRET_ACCESS_KEY"];
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = env["AWS_SESSION_TOKEN"];
  const expiration = env["AWS_CREDENTIAL_EXPIRATION"];
  const credentialScope = env["AWS_CREDENTIAL_SCOPE"];
  const accountId = env["AWS_ACCOUNT_ID"];
  return {
    accessKeyId,
    secretAccessKey,
    ...(sessionToken ? { sessionToken } : {}),
    ...(expiration ? { expiration: new Date(expiration) } : {}),
    ...(credentialScope ? { credentialScope } : {}),
    ...(accountId ? { accountId } : {}),
  };
}

/** Step 2: the profile of the shared files. */
async function fromSharedFiles(
  env: Env,
  clientConfig: () => Promise<Partial<S3ClientConfig>>,
  properties: IdentityProperties,
): Promise<Credentials | undefined> {
  // Without a HOME to find them under, there are no shared files to read.
  const files = sharedFiles(env);
  if (!files) return undefined;
  const { fromIni } = await import("@aws-sdk/credential-provider-ini");
  const { fromWebToken } = await import("@aws-sdk/credential-provider-web-identity");
  const config = await clientConfig();
  return await fromIni({
    ...files,
    // The STS client of an assumed role's profile.
    clientConfig: config,
    // A profile's `web_identity_token_file`: the SDK would make its STS client without `clientConfig`.
    roleAssumerWithWebIdentity: (params) =>
      fromWebToken({
        roleArn: params.RoleArn,
        roleSessionName: params.RoleSessionName,
        webIdentityToken: params.WebIdentityToken,
        providerId: params.ProviderId,
        policyArns: params.PolicyArns,
        policy: params.Policy,
        durationSeconds: params.DurationSeconds,
        clientConfig: config,
      })(properties),
    // A profile's `credential_source = EcsContainer` hands these options to the container provider: they name the
    // service of `env`, not the process's.
    ...containerOptions(env),
  })(properties);
}

/** Step 3: web identity, when `env` names a token file and a role. */
async function fromWebIdentity(
  env: Env,
  clientConfig: () => Promise<Partial<S3ClientConfig>>,
  properties: IdentityProperties,
): Promise<Credentials | undefined> {
  const webIdentityTokenFile = env["AWS_WEB_IDENTITY_TOKEN_FILE"];
  const roleArn = env["AWS_ROLE_ARN"];
  if (!webIdentityTokenFile || !roleArn) return undefined;
  const { fromTokenFile } = await import("@aws-sdk/credential-provider-web-identity");
  return await fromTokenFile({
    webIdentityTokenFile,
    roleArn,
    // Given, so that the SDK does not take the process's; its own default otherwise.
    roleSessionName: env["AWS_ROLE_SESSION_NAME"] || `aws-sdk-js-session-${Date.now()}`,
    clientConfig: await clientConfig(),
  })(properties);
}

/** Step 4: the ECS container service that `env` names, else the EC2 instance metadata service unless disabled. */
async function fromRemote(env: Env): Promise<Credentials> {
  const container = containerOptions(env);
  if (container.awsContainerCredentialsRelativeUri || container.awsContainerCredentialsFullUri) {
    const { fromHttp } = await import("@aws-sdk/credential-provider-http");
    return await fromHttp(container)();
  }
  const disabled = env["AWS_EC2_METADATA_DISABLED"];
  if (disabled && disabled !== "false") {
    const { CredentialsProviderError } = await import("@smithy/core/config");
    throw new CredentialsProviderError("EC2 Instance Metadata Service access disabled");
  }
  const { fromInstanceMetadata } = await import("@smithy/credential-provider-imds");
  return await fromInstanceMetadata({ profile: env["AWS_PROFILE"] || "default" })();
}

/**
 * The container service of `env`. Each is given, "" when `env` has none: the SDK's provider reads the process's
 * variable only when an option is absent.
 */
function containerOptions(env: Env) {
  return {
    awsContainerCredentialsRelativeUri: env["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"] ?? "",
    awsContainerCredentialsFullUri: env["AWS_CONTAINER_CREDENTIALS_FULL_URI"] ?? "",
    awsContainerAuthorizationToken: env["AWS_CONTAINER_AUTHORIZATION_TOKEN"] ?? "",
    awsContainerAuthorizationTokenFile: env["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"] ?? "",
  };
}

/**
 * The configuration of the STS and SSO clients the chain makes (web identity, assumed roles, SSO): fctl's, the
 * settings of `env` ({@link envServiceSettings}), and the STS endpoint `env` and its shared files configure
 * (`AWS_ENDPOINT_URL_STS`, `AWS_ENDPOINT_URL`, a profile's `endpoint_url`), else AWS's own. The clients are told to
 * ignore configured endpoints, which they would otherwise look up in the process's environment and default files.
 */
async function nestedClientConfig(env: Env, base: Partial<S3ClientConfig>): Promise<Partial<S3ClientConfig>> {
  const endpoint = await configuredEndpoint(env, "STS")();
  return { ...base, ...envServiceSettings(env), ...(endpoint ? { endpoint } : {}), ignoreConfiguredEndpointUrls: true };
}

/**
 * What an S3-API backend is opened with (`storage.type` s3 or minio, or stow kind s3), worked out from
 * the configuration without the SDK, so that `fctl config validate` can check and describe it.
 *
 * - `storage.connection.*` is read as flytestdlib reads it (auth-type `iam` by default).
 * - `storage.stow.config` is read as flytestdlib's stow s3 location reads it: `auth_type` (default
 *   `accesskey`), `access_key_id`, `secret_key`, `region` (default us-east-1), `endpoint`, `disable_ssl`,
 *   `v2_signing`; any other key is refused, naming the accepted ones.
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";
import type { StorageConfig } from "./store.ts";

/** Credentials: the AWS default chain, or the given keys. */
export type S3Credentials =
  | { kind: "chain" }
  | { kind: "keys"; accessKeyId: string; secretAccessKey: string };

/** Everything the S3 backend needs, checked. */
export interface S3Settings {
  /** `s3`, `minio` or `stow/s3`. */
  type: "s3" | "minio" | "stow/s3";
  /** `storage.container`. */
  container: string;
  /** `storage.enable-multicontainer`. */
  multiContainer: boolean;
  credentials: S3Credentials;
  /** The endpoint URL (`http://…` or `https://…`), or undefined for AWS's own. */
  endpoint?: string;
  /** Signing region. */
  region: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`): for minio and any custom endpoint. */
  pathStyle: boolean;
  /** Each HTTP call's time limit in ms; 0: none. */
  timeoutMs: number;
  /** Where the settings came from, for messages: `storage.connection` or `storage.stow.config`. */
  origin: "storage.connection" | "storage.stow.config";
}

/** The keys of `storage.stow.config` for kind s3, as flytestdlib's stow s3 location reads them. */
export const STOW_S3_KEYS = [
  "auth_type",
  "access_key_id",
  "secret_key",
  "region",
  "endpoint",
  "disable_ssl",
  "v2_signing",
] as const;

/** Auth types both readings accept. */
const AUTH_TYPES = ["iam", "accesskey"] as const;

/** An AWS region name: letters, digits and dashes (`us-east-1`, `eu-central-2`, `us-gov-west-1`). */
const REGION = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Settings of `storage.type` s3 or minio, from `storage.connection.*`.
 *
 * @throws {UsageError} naming the first bad option
 */
export function s3SettingsFromConnection(config: StorageConfig): S3Settings {
  const problems = connectionProblems(config);
  if (problems.length > 0) throw new UsageError(problems[0]);
  const type = config.type.toLowerCase() === "minio" ? "minio" : "s3";
  const endpoint = endpointUrl(config.endpoint ?? "", config.disableSsl ?? false);
  return {
    type,
    container: config.container,
    multiContainer: config.multiContainer ?? false,
    credentials: credentialsOf(config.authType ?? "iam", config.accessKey ?? "", config.secretKey ?? ""),
    endpoint,
    region: config.region || "us-east-1",
    pathStyle: type === "minio" || endpoint !== undefined,
    timeoutMs: config.timeoutMs ?? 0,
    origin: "storage.connection",
  };
}

/** What is wrong with `storage.connection.*` for s3 or minio: one message per problem. */
export function connectionProblems(config: StorageConfig): string[] {
  const found: string[] = [];
  const authType = (config.authType ?? "iam").toLowerCase();
  if (!(AUTH_TYPES as readonly string[]).includes(authType)) {
    found.push(
      `invalid storage.connection.auth-type ${quote(config.authType)}: accepted values: ${AUTH_TYPES.join(", ")}`,
    );
  } else if (authType === "accesskey") {
    if (!config.accessKey) found.push("storage.connection.auth-type accesskey needs storage.connection.access-key");
    if (!config.secretKey) found.push("storage.connection.auth-type accesskey needs storage.connection.secret-key");
  }
  const endpoint = config.endpoint ?? "";
  if (endpoint !== "") {
    const problem = endpointProblem(endpoint, "storage.connection.endpoint");
    if (problem) found.push(problem);
  } else if (config.type.toLowerCase() === "minio") {
    found.push("storage.type minio needs storage.connection.endpoint (the minio server's URL)");
  }
  const region = config.region || "us-east-1";
  if (!REGION.test(region)) {
    found.push(`invalid storage.connection.region ${quote(region)}: expected a region name such as us-east-1`);
  }
  return found;
}

/**
 * Settings of stow kind s3, from `storage.stow.config`.
 *
 * @throws {UsageError} naming the first bad or unknown key
 */
export function s3SettingsFromStow(config: StorageConfig): S3Settings {
  const stow = config.stowConfig ?? {};
  const problems = stowS3Problems(stow);
  if (problems.length > 0) throw new UsageError(problems[0]);
  const endpoint = endpointUrl(stow.endpoint ?? "", stow.disable_ssl === "true");
  return {
    type: "stow/s3",
    container: config.container,
    multiContainer: config.multiContainer ?? false,
    credentials: credentialsOf(stow.auth_type || "accesskey", stow.access_key_id ?? "", stow.secret_key ?? ""),
    endpoint,
    region: stow.region || "us-east-1",
    pathStyle: endpoint !== undefined,
    timeoutMs: config.timeoutMs ?? 0,
    origin: "storage.stow.config",
  };
}

/** What is wrong with `storage.stow.config` for kind s3: one message per problem, naming the key. */
export function stowS3Problems(stow: Readonly<Record<string, string>>): string[] {
  const found: string[] = [];
  const accepted = STOW_S3_KEYS.join(", ");
  for (const key of Object.keys(stow)) {
    if (!(STOW_S3_KEYS as readonly string[]).includes(key)) {
      found.push(`unknown key ${quote(key)} in storage.stow.config for kind s3; accepted keys: ${accepted}`);
    }
  }
  // flytestdlib's stow s3 defaults to access keys, unlike storage.connection.
  const authType = stow.auth_type || "accesskey";
  if (!(AUTH_TYPES as readonly string[]).includes(authType)) {
    found.push(`invalid storage.stow.config auth_type ${quote(authType)}: accepted values: ${AUTH_TYPES.join(", ")}`);
  } else if (authType === "accesskey") {
    for (const key of ["access_key_id", "secret_key"]) {
      if (!stow[key]) found.push(`storage.stow.config for kind s3 with auth_type accesskey needs ${key}`);
    }
  }
  if (stow.endpoint) {
    const problem = endpointProblem(stow.endpoint, "storage.stow.config endpoint");
    if (problem) found.push(problem);
  }
  for (const key of ["disable_ssl", "v2_signing"]) {
    if (stow[key] !== undefined && stow[key] !== "true" && stow[key] !== "false") {
      found.push(`invalid storage.stow.config ${key} ${quote(stow[key])}: expected true or false`);
    }
  }
  if (stow.v2_signing === "true") {
    found.push("storage.stow.config v2_signing true is not supported: fctl signs with Signature Version 4 only");
  }
  if (stow.region && !REGION.test(stow.region)) {
    found.push(`invalid storage.stow.config region ${quote(stow.region)}: expected a region name such as us-east-1`);
  }
  return found;
}

/** An endpoint: an http(s) URL, or `host[:port]` whose scheme `disable-ssl` decides, as flytestdlib reads it. */
function endpointProblem(endpoint: string, option: string): string | undefined {
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    return `invalid ${option} ${quote(endpoint)}: expected an http:// or https:// URL such as http://localhost:9000`;
  }
  if (url.username || url.password || url.search || url.hash) {
    return `invalid ${option} ${quote(endpoint)}: expected scheme, host, port and path only`;
  }
  return undefined;
}

function endpointUrl(endpoint: string, disableSsl: boolean): string | undefined {
  if (endpoint === "") return undefined;
  // A scheme given wins; without one, disable-ssl chooses it (the AWS Go SDK's DisableSSL).
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint)
    ? endpoint
    : `${disableSsl ? "http" : "https"}://${endpoint}`;
  return withScheme.replace(/\/+$/, "");
}

function credentialsOf(authType: string, accessKeyId: string, secretAccessKey: string): S3Credentials {
  return authType.toLowerCase() === "accesskey" ? { kind: "keys", accessKeyId, secretAccessKey } : { kind: "chain" };
}

/** One line saying what the settings would do, for `fctl config validate`. */
export function describeS3(settings: S3Settings): string {
  const where = settings.endpoint
    ? `at ${settings.endpoint}${settings.pathStyle ? " (path-style)" : ""}`
    : `in AWS region ${settings.region}`;
  const container = settings.container ? `bucket ${settings.container}` : "no default bucket";
  const credentials = settings.credentials.kind === "keys"
    ? `access key from ${settings.origin}`
    : "credentials from the AWS default chain (environment, shared config and credentials files, web identity, " +
      "ECS/EC2 metadata)";
  const multi = settings.multiContainer ? ", other buckets allowed" : "";
  return `storage: ${settings.type} ${container} ${where}, ${credentials}${multi}`;
}

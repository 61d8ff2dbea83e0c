/**
 * The S3 client's own settings, which the AWS SDK would read from the process's environment and its default shared
 * config file: retries (`AWS_MAX_ATTEMPTS`, `AWS_RETRY_MODE`), FIPS and dual-stack endpoints
 * (`AWS_USE_FIPS_ENDPOINT`, `AWS_USE_DUALSTACK_ENDPOINT`), ARN regions, S3 Express session auth, the app id of the
 * user agent, auth scheme preference, SigV4a region set, clock skew correction, and the endpoint configured for S3 when fctl names none
 * (`AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS`, a profile's `endpoint_url` and
 * `services` section). Each is read here as the SDK reads it, with the SDK's own selectors, from the environment fctl
 * is given and the profile of the shared files it names (s3_env.ts), on first use.
 *
 * @module
 */
import type { S3ClientConfig } from "@aws-sdk/client-s3";
import { NODE_APP_ID_CONFIG_OPTIONS } from "@aws-sdk/core/client";
import { NODE_AUTH_SCHEME_PREFERENCE_OPTIONS, NODE_SIGV4A_CONFIG_OPTIONS } from "@aws-sdk/core/httpAuthSchemes";
import {
  NODE_DISABLE_S3_EXPRESS_SESSION_AUTH_OPTIONS,
  NODE_USE_ARN_REGION_CONFIG_OPTIONS,
} from "@aws-sdk/middleware-sdk-s3/s3";
import {
  booleanSelector,
  CONFIG_PREFIX_SEPARATOR,
  type LoadedConfigSelectors,
  NODE_USE_DUALSTACK_ENDPOINT_CONFIG_OPTIONS,
  NODE_USE_FIPS_ENDPOINT_CONFIG_OPTIONS,
  SelectorType,
} from "@smithy/core/config";
import { NODE_MAX_ATTEMPT_CONFIG_OPTIONS, NODE_RETRY_MODE_CONFIG_OPTIONS } from "@smithy/core/retry";
import { type Env, fromEnv, type Setting } from "./s3_env.ts";

/**
 * The settings every AWS client of fctl reads from `env` (the S3 client, and the STS and SSO clients of the
 * credential chain), each read on first use.
 */
export function envServiceSettings(env: Env): Partial<S3ClientConfig> {
  return {
    maxAttempts: fromEnv(env, NODE_MAX_ATTEMPT_CONFIG_OPTIONS),
    retryMode: fromEnv(env, NODE_RETRY_MODE_CONFIG_OPTIONS),
    useFipsEndpoint: fromEnv(env, NODE_USE_FIPS_ENDPOINT_CONFIG_OPTIONS),
    useDualstackEndpoint: fromEnv(env, NODE_USE_DUALSTACK_ENDPOINT_CONFIG_OPTIONS),
    userAgentAppId: fromEnv(env, NODE_APP_ID_CONFIG_OPTIONS),
    authSchemePreference: fromEnv(env, NODE_AUTH_SCHEME_PREFERENCE_OPTIONS),
    sigv4aSigningRegionSet: fromEnv(env, NODE_SIGV4A_CONFIG_OPTIONS),
    disableClockSkewCorrection: fromEnv(env, DISABLE_CLOCK_SKEW_CORRECTION),
  };
}

/** The settings of an S3 client that reads `env`: {@link envServiceSettings} and S3's own (its endpoint aside). */
export function envClientSettings(env: Env): Partial<S3ClientConfig> {
  return {
    ...envServiceSettings(env),
    useArnRegion: fromEnv(env, NODE_USE_ARN_REGION_CONFIG_OPTIONS),
    disableS3ExpressSessionAuth: fromEnv(env, NODE_DISABLE_S3_EXPRESS_SESSION_AUTH_OPTIONS),
  };
}

/** The SDK's `AWS_DISABLE_CLOCK_SKEW_CORRECTION` (its selectors are not exported). */
const DISABLE_CLOCK_SKEW_CORRECTION: LoadedConfigSelectors<boolean> = {
  environmentVariableSelector: (env) => booleanSelector(env, "AWS_DISABLE_CLOCK_SKEW_CORRECTION", SelectorType.ENV),
  configFileSelector: (profile) => booleanSelector(profile, "disable_clock_skew_correction", SelectorType.CONFIG),
  default: false,
};

/** The SDK's `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` (its selectors are not exported). */
const IGNORE_CONFIGURED_ENDPOINT_URLS: LoadedConfigSelectors<boolean> = {
  environmentVariableSelector: (env) => booleanSelector(env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", SelectorType.ENV),
  configFileSelector: (profile) => booleanSelector(profile, "ignore_configured_endpoint_urls", SelectorType.CONFIG),
  default: false,
};

/** The SDK's configured endpoint of a service, by its id (`S3`, `STS`): its selectors, which are not exported. */
function endpointUrl(serviceId: string): LoadedConfigSelectors<string | undefined> {
  const envName = ["AWS_ENDPOINT_URL", ...serviceId.split(" ").map((word) => word.toUpperCase())].join("_");
  const configKey = [serviceId.split(" ").map((word) => word.toLowerCase()).join("_"), "endpoint_url"]
    .join(CONFIG_PREFIX_SEPARATOR);
  return {
    environmentVariableSelector: (env) => env[envName] || env["AWS_ENDPOINT_URL"] || undefined,
    configFileSelector: (profile, config) => {
      if (profile["services"]) {
        const section = config?.[["services", profile["services"]].join(CONFIG_PREFIX_SEPARATOR)];
        if (!section) {
          throw new Error(
            `The services section "${
              profile["services"]
            }" specified in the profile is not present in the shared configuration file.`,
          );
        }
        if (section[configKey]) return section[configKey];
      }
      return profile["endpoint_url"] || undefined;
    },
    default: undefined,
  };
}

/**
 * The endpoint configured for a service (`S3`, `STS`) in `env` and its shared files, for a client whose configuration
 * names none: the SDK's own lookup reads the process's environment and default files, so fctl's clients use this one.
 */
export function configuredEndpoint(env: Env, serviceId: string): Setting<string | undefined> {
  const ignore = fromEnv(env, IGNORE_CONFIGURED_ENDPOINT_URLS);
  const url = fromEnv(env, endpointUrl(serviceId));
  return async () => (await ignore()) ? undefined : await url();
}

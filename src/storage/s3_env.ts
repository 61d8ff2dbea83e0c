/**
 * The environment the S3 backend reads instead of the process's, and its shared config and credentials files: where
 * they are, and a setting read from both as the AWS SDK reads one from the process's.
 *
 * @module
 */
import { type EnvOptions, loadConfig, type LoadedConfigSelectors } from "@smithy/core/config";
import { join } from "node:path";

/** The environment the S3 backend reads (the command line's, a library caller's `env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where a profile is read: the shared credentials and config files, and the profile's name. */
export interface SharedFiles {
  profile: string;
  filepath: string;
  configFilepath: string;
}

/**
 * The shared files of `env` and its profile, where the SDK would look for them; none when they would be under a `HOME`
 * that `env` does not have (the SDK would ask the system for one, which fctl's permissions refuse).
 */
export function sharedFiles(env: Env): SharedFiles | undefined {
  const home = homeOf(env);
  const filepath = env["AWS_SHARED_CREDENTIALS_FILE"] ||
    (home === undefined ? undefined : join(home, ".aws", "credentials"));
  const configFilepath = env["AWS_CONFIG_FILE"] || (home === undefined ? undefined : join(home, ".aws", "config"));
  if (filepath === undefined || configFilepath === undefined) return undefined;
  return { profile: env["AWS_PROFILE"] || "default", filepath, configFilepath };
}

/** The home directory as the SDK finds it in an environment (its getHomeDir), without asking the system. */
function homeOf(env: Env): string | undefined {
  if (env["HOME"]) return env["HOME"];
  if (env["USERPROFILE"]) return env["USERPROFILE"];
  if (env["HOMEPATH"]) return `${env["HOMEDRIVE"] ?? "C:\\"}${env["HOMEPATH"]}`;
  return undefined;
}

/** A setting read on first use, then kept. */
export type Setting<T> = () => Promise<T>;

/**
 * A setting as the SDK's `loadConfig` reads it (the environment, else the profile, else the default), with the
 * environment `env` instead of the process's and the shared files `env` names. Without a `HOME` to find the files
 * under, there are none: the environment, else the default.
 */
export function fromEnv<T>(env: Env, selectors: LoadedConfigSelectors<T>): Setting<T> {
  let loaded: Promise<T> | undefined;
  const load = async (): Promise<T> => {
    const files = sharedFiles(env);
    if (files) {
      const fromGivenEnv = {
        ...selectors,
        environmentVariableSelector: (_: unknown, options?: EnvOptions) =>
          selectors.environmentVariableSelector(env, options),
      };
      return await loadConfig<T>(fromGivenEnv, files)();
    }
    try {
      const value = selectors.environmentVariableSelector(env);
      if (value !== undefined) return value;
    } catch {
      // A value the selector refuses: loadConfig goes on to the next source, here the default.
    }
    const fallback = selectors.default;
    return typeof fallback === "function" ? await (fallback as () => T | Promise<T>)() : fallback;
  };
  return () => loaded ??= load();
}

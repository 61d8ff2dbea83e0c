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

/** {@link sharedFiles}' failure when the files would be under a `HOME` the environment does not have. */
export class HomeNotSetError extends Error {
  override name = "HomeNotSetError";
  constructor() {
    super("HOME is not set");
  }
}

/** The shared credentials and config files of `env`, and its profile: what the SDK would find there. */
export function sharedFiles(env: Env): { profile: string; filepath: string; configFilepath: string } {
  const underHome = (name: string) => {
    const home = homeOf(env);
    if (home === undefined) throw new HomeNotSetError();
    return join(home, ".aws", name);
  };
  return {
    profile: env["AWS_PROFILE"] || "default",
    filepath: env["AWS_SHARED_CREDENTIALS_FILE"] || underHome("credentials"),
    configFilepath: env["AWS_CONFIG_FILE"] || underHome("config"),
  };
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
    const files = sharedFilesIfAny(env);
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

/** The shared files of `env`, or none when they would be under a `HOME` it does not have. */
function sharedFilesIfAny(env: Env): ReturnType<typeof sharedFiles> | undefined {
  try {
    return sharedFiles(env);
  } catch (err) {
    if (err instanceof HomeNotSetError) return undefined;
    throw err;
  }
}

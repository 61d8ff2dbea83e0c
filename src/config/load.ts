/**
 * Resolves the configuration: defaults < config file < environment < flags, in one function.
 *
 * @module
 */
import {
  type Config,
  type ConfigSource,
  envName,
  type OptionKey,
  OPTIONS,
  type OptionSpec,
  yamlPath,
} from "./schema.ts";
import { isNotFound, quote, UsageError } from "../errors.ts";
import { editDistance, nearest } from "./nearest.ts";
import { type ConfigValue, parseOptionValue } from "./values.ts";
import { parseServiceConfig, ServiceConfigError } from "./service_config.ts";

export { parseOptionValue };

/**
 * What {@link loadConfig} reads; passed in so the library never touches the process.
 *
 * ```ts
 * import { loadConfig, type LoadConfigInput } from "@fctl/fctl";
 *
 * const input: LoadConfigInput = {
 *   flags: { config: "fctl.yaml" },
 *   env: { FCTL_ADMIN_INSECURE: "true" },
 *   readTextFile: () => Promise.resolve("admin:\n  endpoint: dns:///localhost:8089\n"),
 * };
 * console.log((await loadConfig(input)).config["admin.endpoint"]); // dns:///localhost:8089
 * ```
 */
export interface LoadConfigInput {
  /** Values given as flags (commander's raw values), by option key. */
  flags: Partial<Record<string, unknown>>;
  /** The process environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a file as text; rejects with a `NotFound` error (see {@link isNotFound}) when it does not exist. */
  readTextFile: (path: string) => Promise<string>;
}

/**
 * The resolved configuration with the origin of every value.
 *
 * ```ts
 * import { loadConfig, type LoadedConfig } from "@fctl/fctl";
 *
 * const loaded: LoadedConfig = await loadConfig({ flags: {}, env: Deno.env.toObject(), readTextFile: Deno.readTextFile });
 * for (const warning of loaded.warnings) console.warn(warning);
 * console.log(loaded.file ?? "no config file", loaded.sources["admin.endpoint"]);
 * ```
 */
export interface LoadedConfig {
  /** Every option's value. */
  config: Config;
  /** Where each value came from. */
  sources: Record<OptionKey, ConfigSource>;
  /** The config file that was read, if any. */
  file?: string;
  /** One line each: unknown keys in the file, deprecated options in use. Never fatal. */
  warnings: string[];
}

const SPECS = OPTIONS as readonly OptionSpec[];

function lookup(doc: unknown, path: readonly string[]): unknown {
  let node = doc;
  for (const part of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node) || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** The path of the config file to read, and whether the user named it (then it must exist). */
export function configFilePath(
  flags: Partial<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): { file?: string; explicit: boolean } {
  const explicit = (flags["config"] as string | undefined) || env["FLYTECTL_CONFIG"];
  if (explicit) return { file: explicit, explicit: true };
  return { file: env["HOME"] ? `${env["HOME"]}/.flyte/config.yaml` : undefined, explicit: false };
}

async function readConfigFile(input: LoadConfigInput): Promise<{ file?: string; doc?: unknown }> {
  const { file, explicit } = configFilePath(input.flags, input.env);
  if (!file) return {};
  let text: string;
  try {
    text = await input.readTextFile(file);
  } catch (err) {
    if (isNotFound(err) && !explicit) return {};
    const reason = isNotFound(err) ? "no such file" : (err as Error).message;
    throw new UsageError(`cannot read config file ${quote(file)}: ${reason}`);
  }
  const { parse } = await import("yaml");
  let doc: unknown;
  try {
    // YAML 1.1 like the Go readers of these files (`yes`/`no` are booleans there).
    doc = parse(text, { version: "1.1" }) ?? {};
  } catch (err) {
    const first = String((err as Error).message).split("\n")[0];
    throw new UsageError(`config file ${quote(file)} is not valid YAML: ${first}`);
  }
  if (typeof doc !== "object" || Array.isArray(doc)) {
    throw new UsageError(`config file ${quote(file)} must be a mapping of sections such as "admin:", got a scalar`);
  }
  return { file, doc };
}

/** The last segment of a dotted path. */
function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}

/**
 * The valid key a user most likely meant: a close sibling in the same section, else any key whose last
 * segment is close (a key put in the wrong section). Nothing when nothing is close: a wild guess misleads.
 */
function suggestKey(path: string, known: readonly string[]): string | undefined {
  const name = lastSegment(path);
  const parent = path.slice(0, Math.max(0, path.lastIndexOf(".")));
  const limit = Math.max(1, Math.floor(name.length / 3));
  const close = (candidates: string[]) => {
    const best = nearest(name, candidates.map(lastSegment));
    const index = best === undefined ? -1 : candidates.map(lastSegment).indexOf(best);
    return index >= 0 && editDistance(name, best!) <= limit ? candidates[index] : undefined;
  };
  const siblings = known.filter((k) => k.slice(0, Math.max(0, k.lastIndexOf("."))) === parent);
  return close(siblings) ?? close([...known]);
}

/** Every dotted path in the file that no option reads, with the nearest valid key. */
function unknownKeyWarnings(doc: unknown, file: string): string[] {
  const leaves = new Set<string>();
  for (const spec of SPECS) if (spec.inFile !== false) leaves.add(yamlPath(spec).join("."));
  const sections = new Set<string>();
  for (const leaf of leaves) {
    const parts = leaf.split(".");
    for (let i = 1; i < parts.length; i++) sections.add(parts.slice(0, i).join("."));
  }
  const known = [...leaves, ...sections];
  const warnings: string[] = [];
  const walk = (node: unknown, prefix: string) => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (leaves.has(path)) continue;
      if (sections.has(path)) {
        // `admin: [endpoint, insecure]` would otherwise be skipped in silence, every setting in it lost.
        if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
          const shape = Array.isArray(value) ? "a list" : `the value ${quote(value)}`;
          throw new UsageError(
            `config file ${quote(file)}: ${quote(path)} must be a mapping of keys (like "${path}:" then indented ` +
              `"key: value" lines), got ${shape}`,
          );
        }
        walk(value, path);
        continue;
      }
      const suggestion = suggestKey(path, known);
      warnings.push(
        `unknown key ${quote(path)} in config file ${quote(file)} is ignored${
          suggestion ? `; did you mean ${quote(suggestion)}?` : ""
        }`,
      );
    }
  };
  walk(doc, "");
  return warnings;
}

function validateServiceConfig(values: Record<string, ConfigValue>, where: string): void {
  const text = values["admin.defaultServiceConfig"] as string;
  if (text.trim() === "") return;
  try {
    parseServiceConfig(text);
  } catch (err) {
    if (!(err instanceof ServiceConfigError)) throw err;
    throw new UsageError(`invalid gRPC service config in ${where}: ${err.message}`);
  }
}

function whereOf(option: OptionSpec, source: ConfigSource, file: string | undefined): string {
  switch (source) {
    case "file":
      return `${yamlPath(option).join(".")} in ${quote(file)}`;
    case "env":
      return `environment variable ${envName(option)}`;
    case "flag":
      return `--${option.key}`;
    default:
      return `the default of ${option.key}`;
  }
}

/**
 * Resolves every option from defaults, the config file, the environment and flags.
 *
 * ```ts
 * import { loadConfig } from "@fctl/fctl";
 *
 * const { config, sources, warnings } = await loadConfig({
 *   flags: { "admin.endpoint": "dns:///flyte.example.com" },
 *   env: Deno.env.toObject(),
 *   readTextFile: (path) => Deno.readTextFile(path),
 * });
 * console.log(config["admin.endpoint"], sources["admin.endpoint"], warnings); // … "flag" []
 * ```
 */
export async function loadConfig(input: LoadConfigInput): Promise<LoadedConfig> {
  const { file, doc } = await readConfigFile(input);
  const values: Record<string, ConfigValue> = {};
  const sources = {} as Record<OptionKey, ConfigSource>;
  const warnings = file ? unknownKeyWarnings(doc, file) : [];
  for (const option of SPECS) {
    const key = option.key as OptionKey;
    values[key] = option.type === "duration"
      ? parseOptionValue(option, option.default, `the default of ${key}`)
      : option.default;
    sources[key] = "default";
    const fromFile = option.inFile === false ? undefined : lookup(doc, yamlPath(option));
    if (fromFile !== undefined && fromFile !== null) {
      values[key] = parseOptionValue(option, fromFile, whereOf(option, "file", file));
      sources[key] = "file";
    }
    const fromEnv = input.env[envName(option)];
    if (fromEnv !== undefined && fromEnv !== "") {
      values[key] = parseOptionValue(option, fromEnv, whereOf(option, "env", file));
      sources[key] = "env";
    }
    const fromFlag = input.flags[key];
    if (fromFlag !== undefined) {
      values[key] = parseOptionValue(option, fromFlag, whereOf(option, "flag", file));
      sources[key] = "flag";
    }
    if (option.deprecated && sources[key] !== "default") {
      warnings.push(`${whereOf(option, sources[key], file)} is deprecated: ${option.deprecated}`);
    }
  }
  validateServiceConfig(
    values,
    whereOf(SPECS.find((o) => o.key === "admin.defaultServiceConfig")!, sources["admin.defaultServiceConfig"], file),
  );
  return { config: values as unknown as Config, sources, file, warnings };
}

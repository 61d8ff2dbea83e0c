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
import { quote, UsageError } from "../errors.ts";

/** What {@link loadConfig} reads; passed in so the library never touches the process. */
export interface LoadConfigInput {
  /** Values given as flags (commander's raw values), by option key. */
  flags: Partial<Record<string, unknown>>;
  /** The process environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a file as text; rejects with `Deno.errors.NotFound` when it does not exist. */
  readTextFile: (path: string) => Promise<string>;
}

/** The resolved configuration with the origin of every value. */
export interface LoadedConfig {
  config: Config;
  sources: Record<OptionKey, ConfigSource>;
  /** The config file that was read, if any. */
  file?: string;
}

/** Parses one raw value for an option, naming `where` it came from on failure. */
export function parseOptionValue(option: OptionSpec, raw: unknown, where: string): string | boolean | number {
  const bad = (expected: string) => new UsageError(`invalid value ${quote(raw)} for ${where}: expected ${expected}`);
  switch (option.type) {
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (typeof raw === "string" && /^(true|false|1|0)$/i.test(raw.trim())) return /^(true|1)$/i.test(raw.trim());
      throw bad("true or false");
    case "int": {
      const n = typeof raw === "number"
        ? raw
        : typeof raw === "string" && /^-?\d+$/.test(raw.trim())
        ? Number(raw)
        : NaN;
      if (!Number.isSafeInteger(n)) throw bad("a whole number");
      return n;
    }
    case "enum": {
      const text = String(raw).trim().toUpperCase();
      if (typeof raw !== "string" || !option.choices?.includes(text)) {
        throw bad(`one of ${option.choices?.join(", ")} (case-insensitive)`);
      }
      return text;
    }
    case "string":
      if (typeof raw === "string") return raw;
      if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
      throw bad("a string");
  }
}

function lookup(doc: unknown, path: readonly string[]): unknown {
  let node = doc;
  for (const part of path) {
    if (node === null || typeof node !== "object" || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

async function readConfigFile(
  input: LoadConfigInput,
): Promise<{ file?: string; doc?: unknown }> {
  const explicit = input.flags["config"] as string | undefined;
  const fromEnv = input.env["FLYTECTL_CONFIG"];
  const file = explicit || fromEnv || (input.env["HOME"] ? `${input.env["HOME"]}/.flyte/config.yaml` : undefined);
  if (!file) return {};
  let text: string;
  try {
    text = await input.readTextFile(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound && !explicit && !fromEnv) return {};
    const reason = err instanceof Deno.errors.NotFound ? "no such file" : (err as Error).message;
    throw new UsageError(`cannot read config file ${quote(file)}: ${reason}`);
  }
  const { parse } = await import("yaml");
  try {
    return { file, doc: parse(text) ?? {} };
  } catch (err) {
    const first = String((err as Error).message).split("\n")[0];
    throw new UsageError(`config file ${quote(file)} is not valid YAML: ${first}`);
  }
}

/** Resolves every option from defaults, the config file, the environment and flags. */
export async function loadConfig(input: LoadConfigInput): Promise<LoadedConfig> {
  const { file, doc } = await readConfigFile(input);
  const values: Record<string, string | boolean | number> = {};
  const sources = {} as Record<OptionKey, ConfigSource>;
  for (const option of OPTIONS as readonly OptionSpec[]) {
    const key = option.key as OptionKey;
    values[key] = option.default;
    sources[key] = "default";
    const fromFile = option.inFile === false ? undefined : lookup(doc, yamlPath(option));
    if (fromFile !== undefined && fromFile !== null) {
      values[key] = parseOptionValue(option, fromFile, `${yamlPath(option).join(".")} in ${quote(file)}`);
      sources[key] = "file";
    }
    const fromEnv = input.env[envName(option)];
    if (fromEnv !== undefined && fromEnv !== "") {
      values[key] = parseOptionValue(option, fromEnv, `environment variable ${envName(option)}`);
      sources[key] = "env";
    }
    const fromFlag = input.flags[key];
    if (fromFlag !== undefined) {
      values[key] = parseOptionValue(option, fromFlag, `--${key}`);
      sources[key] = "flag";
    }
  }
  return { config: values as unknown as Config, sources, file };
}

/**
 * Resolves the configuration: defaults < config file < environment < flags, in one function.
 *
 * @module
 */
import {
  type Config,
  type ConfigSource,
  ENV_PREFIX,
  envName,
  type OptionKey,
  OPTIONS,
  type OptionSpec,
  yamlPath,
} from "./schema.ts";
import { isNotFound, quote, UsageError } from "../errors.ts";
import { IGNORED_FLYTECTL_KEYS, IGNORED_FLYTECTL_MAPPINGS, UNUSED_FLYTECTL_KEYS } from "./flytectl_keys.ts";
import { type ConfigValue, parseOptionValue } from "./values.ts";
import { yamlNesting } from "./yaml_nesting.ts";

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
  /** Values given as flags (the command line's raw text: strings, switches' booleans, lists), by option key. */
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
  /** The dotted key in the file of each value that came from it, where it is not the option's usual one (`root.project`). */
  fileKeys?: Partial<Record<OptionKey, string>>;
  /**
   * One line each: unknown keys in the file (the first {@link MAX_KEY_WARNINGS}, then one line counting
   * the rest), deprecated options in use. Never fatal.
   */
  warnings: string[];
}

/** Unknown keys warned about one by one (each with its suggestion); the rest are counted in one line. */
export const MAX_KEY_WARNINGS = 20;

/** Problems named in the one-line message of a {@link ConfigProblemsError}; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;

/**
 * Every problem of a configuration (bad values in the file, the environment or flags, sections of the
 * wrong shape), found in one pass so that a user fixes them all at once rather than one per run.
 */
export class ConfigProblemsError extends UsageError {
  /** One line per problem, in the order found. */
  readonly problems: readonly string[];
  /** The problems as one line listing them (at most {@link MAX_PROBLEMS_SHOWN}, then a count of the rest). */
  constructor(problems: readonly string[]) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).join("; ");
    const more = problems.length > MAX_PROBLEMS_SHOWN ? `; … and ${problems.length - MAX_PROBLEMS_SHOWN} more` : "";
    super(`the configuration has ${problems.length} problems: ${shown}${more}`);
    this.problems = problems;
  }
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

async function readConfigFile(input: LoadConfigInput): Promise<{ file?: string; doc?: unknown; warning?: string }> {
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
  const yaml = await import("yaml");
  const lineCounter = new yaml.LineCounter();
  // YAML 1.1 like the Go readers of these files (`yes`/`no` are booleans there). The library's own check
  // for duplicate keys compares every key with every other (a 10,000-key file took seconds, 40,000 keys
  // minutes); it is off, and `duplicateKey` does the same check in one pass.
  // Only the first document of a file of several is read, as flytectl's reader (Go's yaml.Unmarshal) reads it.
  const documents = yaml.parseAllDocuments(text, { version: "1.1", uniqueKeys: false, lineCounter });
  const parsed = documents[0] ?? yaml.parseDocument("", { version: "1.1" });
  const warning = documents.length > 1
    ? `config file ${
      quote(file)
    } holds ${documents.length} YAML documents; only the first is read, as flytectl reads it`
    : undefined;
  // The parser's message goes on to show the line itself, which is not repeated: it may hold a secret.
  const invalid = (message: string) =>
    new UsageError(`config file ${quote(file)} is not valid YAML: ${message.split("\n")[0].replace(/:$/, "")}`);
  const tooDeepAt = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return invalid(`it nests more than ${MAX_CONFIG_DEPTH} levels deep, at line ${line}, column ${col}`);
  };
  if (parsed.errors.length > 0) {
    // Parsing a file nested thousands deep runs out of stack: the nesting is what to name.
    const [first] = parsed.errors;
    throw yamlNesting(first) ? tooDeepAt(first.pos[0]) : invalid(first.message);
  }
  const deep = tooDeep(yaml, parsed.contents);
  if (deep) throw tooDeepAt(deep.offset);
  const duplicate = duplicateKey(yaml, parsed.contents);
  if (duplicate) {
    const { line, col } = lineCounter.linePos(duplicate.offset);
    throw invalid(`Map keys must be unique at line ${line}, column ${col}: ${quote(duplicate.key)} appears twice`);
  }
  let doc: unknown;
  try {
    doc = parsed.toJS() ?? {};
  } catch (err) {
    throw invalid(String((err as Error).message));
  }
  if (typeof doc !== "object" || Array.isArray(doc)) {
    throw new UsageError(`config file ${quote(file)} must be a mapping of sections such as "admin:", got a scalar`);
  }
  return { file, doc, warning };
}

type YamlModule = typeof import("yaml");

/**
 * The deepest nesting of mappings and sequences a config file may hold. Its deepest keys are four levels down
 * (`storage.stow.config.<key>`); a file thousands deep parsed, then overflowed the stack of the conversion to
 * values (an unhelpful "Maximum call stack size exceeded").
 */
const MAX_CONFIG_DEPTH = 64;

/** The first mapping or sequence nested deeper than {@link MAX_CONFIG_DEPTH} in `node`, with its offset; one pass. */
function tooDeep(yaml: YamlModule, node: unknown): { offset: number } | undefined {
  const pending: [unknown, number][] = [[node, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (!yaml.isCollection(current)) continue;
    if (depth >= MAX_CONFIG_DEPTH) return { offset: current.range?.[0] ?? 0 };
    for (const item of current.items) pending.push([yaml.isPair(item) ? item.value : item, depth + 1]);
  }
  return undefined;
}

/** The first key that appears twice in one mapping anywhere in `node`, with its offset; one pass. */
function duplicateKey(yaml: YamlModule, node: unknown): { key: string; offset: number } | undefined {
  const pending: unknown[] = [node];
  while (pending.length > 0) {
    const current = pending.pop();
    if (yaml.isMap(current)) {
      const seen = new Set<unknown>();
      for (const pair of current.items) {
        // Scalar keys compare by value (as the library's check does); other keys (rare) by identity.
        const key = yaml.isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) {
          const offset = yaml.isNode(pair.key) ? pair.key.range?.[0] ?? 0 : 0;
          return { key: String(key), offset };
        }
        seen.add(key);
        pending.push(pair.value);
      }
    } else if (yaml.isSeq(current)) {
      pending.push(...current.items);
    }
  }
  return undefined;
}

/** The keys a config file may hold: every option's leaf, the sections above them, and flytectl's ignored keys. */
interface KnownKeys {
  leaves: ReadonlySet<string>;
  sections: ReadonlySet<string>;
  /** Free-form mappings accepted whole. */
  mappings: ReadonlySet<string>;
  /** flytectl's keys fctl does not use: each is one warning saying why. */
  unused: ReadonlySet<string>;
  /** Every key above, by its lowercase spelling. */
  byLowercase: ReadonlyMap<string, string>;
}

function knownKeys(): KnownKeys {
  const leaves = new Set<string>(IGNORED_FLYTECTL_KEYS);
  for (const spec of SPECS) {
    if (spec.inFile === false) continue;
    leaves.add(yamlPath(spec).join("."));
    if (spec.preferredYamlPath) leaves.add(spec.preferredYamlPath.join("."));
  }
  const mappings = new Set(IGNORED_FLYTECTL_MAPPINGS);
  const unused = new Set(Object.keys(UNUSED_FLYTECTL_KEYS));
  const sections = new Set<string>();
  for (const leaf of [...leaves, ...mappings, ...unused]) {
    const parts = leaf.split(".");
    for (let i = 1; i < parts.length; i++) sections.add(parts.slice(0, i).join("."));
  }
  const byLowercase = new Map<string, string>();
  for (const key of [...leaves, ...mappings, ...unused, ...sections]) byLowercase.set(key.toLowerCase(), key);
  return { leaves, sections, mappings, unused, byLowercase };
}

/**
 * The file with its keys spelled as fctl's table spells them, as flytectl's reader (viper) takes them: section and key
 * names match whatever their case (flytestdlib registers `Logger` and `Storage`; `insecureskipverify` is
 * `insecureSkipVerify` there), and a dotted key is a path (`admin.endpoint: x` at the top sets admin's endpoint,
 * beside an `admin:` section). Unknown keys and keys below a free-form mapping keep their spelling. One key given
 * twice (two spellings, or in its section and as a dotted key) is refused, as a key written twice is: which one Go
 * keeps is a matter of chance.
 */
function canonicalKeys(doc: unknown, known: KnownKeys, file: string): unknown {
  const isMapping = (node: unknown): node is Record<string, unknown> =>
    node !== null && typeof node === "object" && !Array.isArray(node);
  interface Entry {
    written: string;
    path?: string;
    value: unknown;
    /** A section's keys, from every part of it in the file. */
    parts?: [string, unknown][];
  }
  const walk = (entries: [string, unknown][], prefix: string): Record<string, unknown> => {
    const found = new Map<string, Entry>();
    for (const [written, value] of entries) {
      const dot = written.indexOf(".");
      const dotted = dot > 0 && known.byLowercase.has(`${prefix}${written}`.toLowerCase());
      const key = dotted ? written.slice(0, dot) : written;
      const inner = dotted ? Object.fromEntries([[written.slice(dot + 1), value]]) : value;
      const path = key.includes(".") ? undefined : known.byLowercase.get(`${prefix}${key}`.toLowerCase());
      const name = path === undefined ? key : path.slice(path.lastIndexOf(".") + 1);
      const section = path !== undefined && known.sections.has(path) && (inner === null || isMapping(inner));
      const parts = section ? Object.entries(inner ?? {}) : undefined;
      const seen = found.get(name);
      if (seen === undefined) {
        found.set(name, { written, path, value: inner, parts });
      } else if (parts && seen.parts) {
        seen.parts.push(...parts);
      } else {
        const [first, second] = [quote(`${prefix}${seen.written}`), quote(`${prefix}${written}`)];
        throw new UsageError(
          seen.written === written
            ? `config file ${quote(file)}: ${first} is given twice, in its section and as a dotted key; keep one`
            : `config file ${quote(file)}: ${first} and ${second} are the same key (key names are case-insensitive, ` +
              `as flytectl reads them); keep one`,
        );
      }
    }
    // fromEntries defines each key as the object's own, "__proto__" too.
    return Object.fromEntries(
      [...found].map(([name, entry]) => [name, entry.parts ? walk(entry.parts, `${entry.path}.`) : entry.value]),
    );
  };
  return isMapping(doc) ? walk(Object.entries(doc), "") : doc;
}

/**
 * Every dotted path in the file that no option reads: the first {@link MAX_KEY_WARNINGS} with the nearest
 * valid key, the rest counted in one line; a section of the wrong shape is a problem. Linear in the file's
 * keys: a suggestion is only worked out for a key that is shown (and the module that finds them loads only then).
 */
async function checkFileKeys(doc: unknown, file: string, known: KnownKeys, problems: string[]): Promise<string[]> {
  const { leaves, sections, mappings, unused: unusedKeys } = known;
  const shown: string[] = [];
  const unusedShown: string[] = [];
  let unknown = 0;
  const walk = (node: unknown, prefix: string) => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (unusedKeys.has(path)) {
        if (value !== null) unusedShown.push(path);
        continue;
      }
      if (leaves.has(path) || mappings.has(path)) continue;
      if (sections.has(path)) {
        // `admin: [endpoint, insecure]` would otherwise be skipped in silence, every setting in it lost.
        if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
          const shape = Array.isArray(value) ? "a list" : `the value ${quote(value)}`;
          problems.push(
            `config file ${quote(file)}: ${quote(path)} must be a mapping of keys (like "${path}:" then indented ` +
              `"key: value" lines), got ${shape}`,
          );
          continue;
        }
        walk(value, path);
        continue;
      }
      if (++unknown > MAX_KEY_WARNINGS) continue;
      shown.push(path);
    }
  };
  walk(doc, "");
  const warnings = unusedShown.map((path) =>
    `flytectl key ${quote(path)} in config file ${quote(file)} is not used by fctl: ${UNUSED_FLYTECTL_KEYS[path]}`
  );
  if (shown.length > 0) {
    const { KeySuggester } = await import("./nearest.ts");
    const suggester = new KeySuggester([...leaves, ...sections, ...mappings]);
    for (const path of shown) {
      warnings.push(`unknown key ${quote(path)} in config file ${quote(file)} is ignored${suggester.didYouMean(path)}`);
    }
  }
  if (unknown > MAX_KEY_WARNINGS) {
    warnings.push(`… and ${unknown - MAX_KEY_WARNINGS} more unknown keys in config file ${quote(file)} are ignored`);
  }
  return warnings;
}

/**
 * A file's value as flytectl's reader (Go's decoder) means it, where its form is one fctl's flags do not take: an
 * empty value of a switch, number or duration is its zero value, and a bare number of a duration is nanoseconds
 * (with a warning unless 0: `perRetryTimeout: 15` is 15ns there, surely not what was meant).
 */
function asGoReadsIt(option: OptionSpec, raw: unknown, where: string, warnings: string[]): unknown {
  if (raw === "") {
    if (option.type === "boolean") return false;
    if (option.type === "int") return 0;
    if (option.type === "duration") return "0s";
  }
  if (option.type === "duration" && typeof raw === "number" && raw > 0 && Number.isFinite(raw)) {
    warnings.push(
      `${where} is the bare number ${raw}, read as ${raw} nanoseconds as flytectl reads it; ` +
        `write a duration with its unit, such as "${raw}s"`,
    );
  }
  return raw;
}

/** The problem of a service config given in `admin.defaultServiceConfig`; its parser loads only for one. */
async function validateServiceConfig(values: Record<string, ConfigValue>, where: string): Promise<string | undefined> {
  const text = values["admin.defaultServiceConfig"] as string;
  if (typeof text !== "string" || text.trim() === "") return undefined;
  const { parseServiceConfig, ServiceConfigError } = await import("./service_config.ts");
  try {
    parseServiceConfig(text);
  } catch (err) {
    if (!(err instanceof ServiceConfigError)) throw err;
    return `invalid gRPC service config in ${where}: ${err.message}`;
  }
  return undefined;
}

function whereOf(option: OptionSpec, source: ConfigSource, file: string | undefined, fileKey?: string): string {
  switch (source) {
    case "file":
      return `${fileKey ?? yamlPath(option).join(".")} in ${quote(file)}`;
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
 *
 * @throws {ConfigProblemsError} several bad values or misshapen sections, every one found, in one error
 * @throws {UsageError} one such problem, or the config file cannot be read or is not YAML
 */
export async function loadConfig(input: LoadConfigInput): Promise<LoadedConfig> {
  const read = await readConfigFile(input);
  const file = read.file;
  const known = file ? knownKeys() : undefined;
  const doc = file && known ? canonicalKeys(read.doc, known, file) : read.doc;
  const values: Record<string, ConfigValue> = {};
  const sources = {} as Record<OptionKey, ConfigSource>;
  const fileKeys: Partial<Record<OptionKey, string>> = {};
  const problems: string[] = [];
  const warnings = file && known ? await checkFileKeys(doc, file, known, problems) : [];
  if (read.warning) warnings.unshift(read.warning);
  // A bad value is a problem to report with the others; the option keeps what it had.
  const parse = (option: OptionSpec, raw: unknown, where: string): ConfigValue | undefined => {
    try {
      return parseOptionValue(option, raw, where);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      problems.push(err.message);
      return undefined;
    }
  };
  // Most environments set no option's variable: then no option's variable name is worked out (for every option,
  // that was most of the time of loading a configuration without a file).
  const envSetsOptions = Object.keys(input.env).some((name) => name.startsWith(ENV_PREFIX));
  for (const option of SPECS) {
    const key = option.key as OptionKey;
    values[key] = option.type === "duration"
      ? parseOptionValue(option, option.default, `the default of ${key}`)
      : option.default;
    sources[key] = "default";
    let fromFile = option.inFile === false || doc === undefined ? undefined : lookup(doc, yamlPath(option));
    // flytectl's `root.project` wins over `task.project` when it holds a value.
    const preferred = option.preferredYamlPath && doc !== undefined ? lookup(doc, option.preferredYamlPath) : undefined;
    if (preferred !== undefined && preferred !== null && preferred !== "") {
      fromFile = preferred;
      fileKeys[key] = option.preferredYamlPath!.join(".");
    }
    const fromEnv = envSetsOptions ? input.env[envName(option)] : undefined;
    const layers: [ConfigSource, unknown][] = [
      ["file", fromFile === null ? undefined : fromFile],
      ["env", fromEnv === "" ? undefined : fromEnv],
      ["flag", input.flags[key]],
    ];
    for (const [source, given] of layers) {
      if (given === undefined) continue;
      const where = whereOf(option, source, file, fileKeys[key]);
      const raw = source === "file" ? asGoReadsIt(option, given, where, warnings) : given;
      const value = parse(option, raw, where);
      if (value === undefined) continue;
      values[key] = value;
      sources[key] = source;
    }
    if (option.deprecated && sources[key] !== "default") {
      warnings.push(`${whereOf(option, sources[key], file, fileKeys[key])} is deprecated: ${option.deprecated}`);
    }
  }
  const serviceConfigProblem = await validateServiceConfig(
    values,
    whereOf(SPECS.find((o) => o.key === "admin.defaultServiceConfig")!, sources["admin.defaultServiceConfig"], file),
  );
  if (serviceConfigProblem) problems.push(serviceConfigProblem);
  // One problem is the plain usage error it always was; several are listed together.
  if (problems.length === 1) throw new UsageError(problems[0]);
  if (problems.length > 1) throw new ConfigProblemsError(problems);
  return { config: values as unknown as Config, sources, file, fileKeys, warnings };
}

/**
 * The one table of every option fctl understands. Flags, config-file keys, environment
 * names, types, defaults and help text are all derived from it; nothing else declares an option.
 *
 * This module must stay free of heavy imports: `fctl --help` reads it.
 *
 * @module
 */

/** How an option's text value is read. */
export type OptionType = "string" | "boolean" | "int" | "enum";

/** One option of the schema. */
export interface OptionSpec {
  /** Dotted key; it is also the long flag (`--admin.endpoint`) and the YAML path (`admin: {endpoint}`). */
  readonly key: string;
  readonly type: OptionType;
  readonly default: string | boolean | number;
  readonly help: string;
  /** One-letter flag, e.g. `p` for `-p`. */
  readonly short?: string;
  /** Valid values of an `enum` (matched case-insensitively, stored upper-case). */
  readonly choices?: readonly string[];
  /** YAML path when it differs from the key (flytectl keeps `-p`/`-d` under `task:`). */
  readonly yamlPath?: readonly string[];
  /** Value is a secret: redact it in every output. */
  readonly secret?: boolean;
  /** False for options that only make sense on the command line (`-c` names the file itself). */
  readonly inFile?: boolean;
}

/** Output formats of `-o`. */
export const OUTPUT_FORMATS = ["TABLE", "JSON", "YAML", "DOT", "DOTURL"] as const;

/** Every shared option, in help order. */
export const OPTIONS = [
  {
    key: "config",
    short: "c",
    type: "string",
    default: "",
    inFile: false,
    help: "config file (default $FLYTECTL_CONFIG, else $HOME/.flyte/config.yaml)",
  },
  {
    key: "project",
    short: "p",
    type: "string",
    default: "",
    yamlPath: ["task", "project"],
    help: "project of the entities",
  },
  {
    key: "domain",
    short: "d",
    type: "string",
    default: "",
    yamlPath: ["task", "domain"],
    help: "domain of the entities",
  },
  {
    key: "output",
    short: "o",
    type: "enum",
    choices: OUTPUT_FORMATS,
    default: "TABLE",
    help: "output format: TABLE, JSON, YAML, DOT or DOTURL",
  },
  {
    key: "admin.endpoint",
    type: "string",
    default: "",
    help: "admin service endpoint: host:port, dns:///host:port, http://host:port or https://host",
  },
  {
    key: "admin.insecure",
    type: "boolean",
    default: false,
    help: "use a plaintext connection (no TLS)",
  },
  // Storage (flytectl's `storage:` section): used for the fast-registration fallback upload.
  {
    key: "storage.type",
    type: "enum",
    choices: ["S3", "MINIO", "LOCAL", "MEM", "STOW"],
    default: "S3",
    help: "storage type: s3, minio, local, mem or stow",
  },
  {
    key: "storage.container",
    type: "string",
    default: "",
    help: "initial container (bucket) to create if it does not exist",
  },
  {
    key: "storage.enable-multicontainer",
    type: "boolean",
    default: false,
    help: "allow buckets other than storage.container",
  },
  {
    key: "storage.connection.auth-type",
    type: "string",
    default: "iam",
    help: "auth type for S3/minio: iam or accesskey",
  },
  { key: "storage.connection.access-key", type: "string", default: "", help: "access key for S3/minio" },
  {
    key: "storage.connection.secret-key",
    type: "string",
    default: "",
    secret: true,
    help: "secret key for S3/minio",
  },
  { key: "storage.connection.endpoint", type: "string", default: "", help: "URL of the S3-API endpoint (minio)" },
  { key: "storage.connection.region", type: "string", default: "us-east-1", help: "region of the bucket" },
  {
    key: "storage.connection.disable-ssl",
    type: "boolean",
    default: false,
    help: "plain HTTP to the storage endpoint",
  },
  // `--files.*`: the `register files` flags, settable from any command, the environment or the config file.
  { key: "files.archive", type: "boolean", default: false, help: "the register paths are archives" },
  {
    key: "files.assumableIamRole",
    type: "string",
    default: "",
    help: "IAM role launch plans execute as",
  },
  {
    key: "files.continueOnError",
    type: "boolean",
    default: false,
    help: "keep registering after a failure",
  },
  {
    key: "files.destinationDirectory",
    type: "string",
    default: "",
    help: "where the fast-registered source is unpacked in the container",
  },
  { key: "files.dryRun", type: "boolean", default: false, help: "plan the registration without making it" },
  {
    key: "files.enableSchedule",
    type: "boolean",
    default: false,
    help: "activate registered launch plans that have a schedule",
  },
  { key: "files.force", type: "boolean", default: false, help: "use --version for every entity" },
  {
    key: "files.k8ServiceAccount",
    type: "string",
    default: "",
    help: "deprecated: use --files.k8sServiceAccount",
  },
  {
    key: "files.k8sServiceAccount",
    type: "string",
    default: "",
    help: "Kubernetes service account launch plans execute as",
  },
  {
    key: "files.outputLocationPrefix",
    type: "string",
    default: "",
    help: "where executions of registered launch plans write their outputs",
  },
  {
    key: "files.sourceUploadPath",
    type: "string",
    default: "",
    help: "deprecated: where to upload the fast-registration source when the admin has no upload location",
  },
  { key: "files.version", type: "string", default: "", help: "version of the registered entities" },
] as const satisfies readonly OptionSpec[];

type AnyOption = typeof OPTIONS[number];

/** Every option key. */
export type OptionKey = AnyOption["key"];

type ValueOfType<T extends OptionType> = T extends "boolean" ? boolean : T extends "int" ? number : string;

/** The fully resolved configuration: one typed value per option key. */
export type Config = { readonly [O in AnyOption as O["key"]]: ValueOfType<O["type"]> };

/** Where a configuration value came from. */
export type ConfigSource = "default" | "file" | "env" | "flag";

/** The environment variable that sets an option: `FCTL_` + the key, upper-cased, with `.`/`-` as `_`. */
export function envName(option: OptionSpec): string {
  return `FCTL_${option.key.replace(/[.-]/g, "_").toUpperCase()}`;
}

/** The YAML path of an option in a config file. */
export function yamlPath(option: OptionSpec): readonly string[] {
  return option.yamlPath ?? option.key.split(".");
}

/** The schema entry for a key. */
export function optionSpec(key: OptionKey): OptionSpec {
  return OPTIONS.find((o) => o.key === key) as OptionSpec;
}

/**
 * The one table of every option fctl understands. Flags, config-file keys, environment
 * names, types, defaults and help text are all derived from it; nothing else declares an option.
 *
 * This module must stay free of heavy imports: `fctl --help` reads it.
 *
 * @module
 */

/**
 * How an option's text value is read: `duration` is a Go duration string (`15s`, `5m0s`) held as
 * milliseconds; `strings` a list (repeat the flag or separate with commas); `map` string pairs
 * (`key=value`, repeatable or comma-separated; a mapping in the file).
 *
 * ```ts
 * import { OPTIONS, type OptionType } from "@fctl/fctl";
 *
 * const durations = OPTIONS.filter((option) => option.type === "duration").map((option) => option.key);
 * console.log(durations.includes("admin.perRetryTimeout")); // true
 * const types = new Set<OptionType>(OPTIONS.map((option) => option.type));
 * console.log(types.has("map")); // true
 * ```
 */
export type OptionType = "string" | "boolean" | "int" | "enum" | "duration" | "strings" | "map";

/**
 * A default value as the schema writes it (durations as Go strings).
 *
 * ```ts
 * import { OPTIONS, type OptionDefault } from "@fctl/fctl";
 *
 * const defaults = new Map<string, OptionDefault>(OPTIONS.map((option) => [option.key, option.default]));
 * console.log(defaults.get("admin.insecure")); // false
 * ```
 */
export type OptionDefault = string | boolean | number | readonly string[] | Readonly<Record<string, string>>;

/**
 * One option of the schema.
 *
 * ```ts
 * import { OPTIONS, type OptionSpec } from "@fctl/fctl";
 *
 * const specs: readonly OptionSpec[] = OPTIONS;
 * for (const spec of specs.filter((s) => s.short)) console.log(`-${spec.short}, --${spec.key}: ${spec.help}`);
 * ```
 */
export interface OptionSpec {
  /** Dotted key; it is also the long flag (`--admin.endpoint`) and the YAML path (`admin: {endpoint}`). */
  readonly key: string;
  /** How the text value is read. */
  readonly type: OptionType;
  /** The value when nothing sets it. */
  readonly default: OptionDefault;
  /** One line for `--help`. */
  readonly help: string;
  /** One-letter flag, e.g. `p` for `-p`. */
  readonly short?: string;
  /** Valid values of an `enum` (matched case-insensitively, stored as written here). */
  readonly choices?: readonly string[];
  /** YAML path when it differs from the key (flytectl keeps `-p`/`-d` under `task:`). */
  readonly yamlPath?: readonly string[];
  /**
   * A YAML path read before the other one when it holds a value: flytectl's `root:` section, whose `project`,
   * `domain` and `output` are its `-p`, `-d` and `-o` (and win over `task:`'s).
   */
  readonly preferredYamlPath?: readonly string[];
  /** Value is a secret: redact it in every output. */
  readonly secret?: boolean;
  /** False for options that only make sense on the command line (`-c` names the file itself). */
  readonly inFile?: boolean;
  /** Deprecated: what to use instead, shown in help and in the one warning a use prints. */
  readonly deprecated?: string;
  /** Smallest valid value of an `int`. */
  readonly min?: number;
  /** Largest valid value of an `int`. */
  readonly max?: number;
}

/**
 * The default of `admin.maxMessageSizeBytes`, the largest admin answer read: 32 MiB. flytectl leaves the key
 * at 0, which is gRPC-Go's 4 MiB; a listing of 100 tasks with large templates needs more, and a bound keeps
 * an admin announcing a 2 GiB message from taking gigabytes of memory.
 */
export const DEFAULT_MAX_MESSAGE_SIZE = 32 * 1024 * 1024;

/** The largest `admin.maxMessageSizeBytes` accepted (what a Go int32 and Connect's limit both hold). */
export const MAX_MESSAGE_SIZE_LIMIT = 2 ** 31 - 1;

/** Output formats of `-o`. */
export const OUTPUT_FORMATS = ["TABLE", "JSON", "YAML", "DOT", "DOTURL", "SVG"] as const;

/**
 * The schema table as written: each option with only the fields it sets, as literal types, from which
 * {@link AnyOption}, {@link OptionKey} and {@link Config} are derived. The same array as {@link OPTIONS}, which types
 * each entry as an {@link OptionSpec} too: read the options through that.
 *
 * ```ts
 * import { OPTION_TABLE, OPTIONS } from "@fctl/fctl";
 *
 * console.log(OPTION_TABLE === OPTIONS, OPTION_TABLE[0].key); // true config
 * ```
 */
export const OPTION_TABLE = [
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
    preferredYamlPath: ["root", "project"],
    help: "project of the entities",
  },
  {
    key: "domain",
    short: "d",
    type: "string",
    default: "",
    yamlPath: ["task", "domain"],
    preferredYamlPath: ["root", "domain"],
    help: "domain of the entities",
  },
  {
    key: "output",
    short: "o",
    type: "enum",
    choices: OUTPUT_FORMATS,
    default: "TABLE",
    preferredYamlPath: ["root", "output"],
    help: "output format: TABLE, JSON, YAML, DOT, DOTURL or SVG (the last three: get workflow's graph)",
  },
  {
    key: "console.endpoint",
    type: "string",
    default: "",
    help: "URL of the Flyte console, for links (default: derived from admin.endpoint)",
  },
  // Logging (flytestdlib's `logger:` section). Logs go to stderr only.
  {
    key: "logger.formatter.type",
    type: "enum",
    choices: ["json", "text", "gcp"],
    default: "json",
    help: "log record format: json, text or gcp",
  },
  {
    key: "logger.level",
    type: "int",
    min: 0,
    // 6 is logrus' trace, which flytectl's configs may say: fctl has nothing below debug, so it is debug.
    max: 6,
    default: 3,
    help:
      "log level: 0 panic, 1 fatal, 2 error, 3 warn, 4 info, 5 debug (5 also prints stack traces of errors; 6, trace, is 5)",
  },
  { key: "logger.mute", type: "boolean", default: false, help: "write no log records at all" },
  { key: "logger.show-source", type: "boolean", default: false, help: "add the source location to log records" },
  // Connection to the admin service.
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
  {
    key: "admin.insecureSkipVerify",
    type: "boolean",
    default: false,
    help: "use TLS but do not verify the server certificate (unsafe; warns)",
  },
  {
    key: "admin.caCertFilePath",
    type: "string",
    default: "",
    help: "PEM file of CA certificates trusted in addition to the system roots",
  },
  {
    key: "admin.httpProxyURL",
    type: "string",
    default: "",
    help: "proxy for HTTP calls (auth, uploads); gRPC honours HTTPS_PROXY and NO_PROXY",
  },
  {
    key: "admin.maxRetries",
    type: "int",
    min: 1,
    default: 4,
    help:
      "attempts in total for UNAVAILABLE and RESOURCE_EXHAUSTED (and timed-out reads), and for HTTP calls failing in passing",
  },
  { key: "admin.perRetryTimeout", type: "duration", default: "15s", help: "time limit of one attempt" },
  {
    key: "admin.maxMessageSizeBytes",
    type: "int",
    min: 0,
    max: MAX_MESSAGE_SIZE_LIMIT,
    default: DEFAULT_MAX_MESSAGE_SIZE,
    help: "largest answer accepted from the admin service, in bytes (0: the default, 32 MiB)",
  },
  { key: "admin.maxBackoffDelay", type: "duration", default: "8s", help: "longest wait between attempts" },
  {
    key: "admin.defaultServiceConfig",
    type: "string",
    default: "",
    help: "gRPC service config JSON; its method timeouts and retry policies are honoured",
  },
  // Authentication (flows come in their own modules; these are parsed and validated here).
  {
    key: "admin.authType",
    type: "enum",
    choices: ["ClientSecret", "Pkce", "ExternalCommand", "DeviceFlow"],
    default: "ClientSecret",
    help: "how to get a token when the admin service asks for one: ClientSecret, Pkce, ExternalCommand or DeviceFlow",
  },
  { key: "admin.clientId", type: "string", default: "flytepropeller", help: "OAuth client id" },
  {
    key: "admin.clientSecretEnvVar",
    type: "string",
    default: "",
    help: "environment variable holding the client secret (wins over admin.clientSecretLocation)",
  },
  {
    key: "admin.clientSecretLocation",
    type: "string",
    default: "/etc/secrets/client_secret",
    help: "file holding the client secret",
  },
  {
    key: "admin.command",
    type: "strings",
    default: [],
    help: "ExternalCommand: program and arguments whose output is the token (no shell)",
  },
  {
    key: "admin.proxyCommand",
    type: "strings",
    default: [],
    help:
      "program and arguments whose output is sent as proxy-authorization on every call (identity-aware proxy; no shell)",
  },
  {
    key: "admin.commandTimeout",
    type: "duration",
    default: "1m0s",
    help:
      "longest wait for admin.command or admin.proxyCommand to print its token and exit; then it and what it started are ended (0s: none)",
  },
  { key: "admin.audience", type: "string", default: "", help: "audience of requested tokens" },
  {
    key: "admin.useAudienceFromAdmin",
    type: "boolean",
    default: false,
    help: "use the audience the admin service advertises",
  },
  { key: "admin.scopes", type: "strings", default: [], help: "OAuth scopes to request" },
  {
    key: "admin.authorizationServerUrl",
    type: "string",
    default: "",
    help: "authorization server URL (default: discovered from the admin service)",
  },
  {
    key: "admin.tokenUrl",
    type: "string",
    default: "",
    help: "token endpoint (default: discovered from the admin service)",
  },
  {
    key: "admin.allowInsecureTokenEndpoint",
    type: "boolean",
    default: false,
    help: "send credentials to a plain-HTTP token endpoint even though the admin is reached over TLS",
  },
  {
    key: "admin.authorizationHeader",
    type: "string",
    default: "",
    help: "header that carries the token (default: the one the admin service advertises)",
  },
  {
    key: "admin.tokenRefreshWindow",
    type: "duration",
    default: "0s",
    help: "refresh a token this long before it expires",
  },
  { key: "admin.pkceConfig.refreshTime", type: "duration", default: "5m0s", help: "Pkce: refresh grace period" },
  {
    key: "admin.pkceConfig.timeout",
    type: "duration",
    default: "2m0s",
    help: "Pkce: how long to wait for the browser",
  },
  {
    key: "admin.deviceFlowConfig.pollInterval",
    type: "duration",
    default: "5s",
    help: "DeviceFlow: poll interval when the server names none",
  },
  {
    key: "admin.deviceFlowConfig.refreshTime",
    type: "duration",
    default: "5m0s",
    help: "DeviceFlow: refresh grace period",
  },
  {
    key: "admin.deviceFlowConfig.timeout",
    type: "duration",
    default: "10m0s",
    help: "DeviceFlow: how long to wait for the user",
  },
  {
    key: "admin.useAuth",
    type: "boolean",
    default: false,
    deprecated: "auth is used whenever the admin service asks for it; choose the flow with --admin.authType",
    help: "whether to authenticate (ignored)",
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
  {
    key: "storage.cache.max_size_mbs",
    type: "int",
    min: 0,
    default: 0,
    help: "size of the in-memory cache of downloaded objects in MiB (0: no cache)",
  },
  {
    key: "storage.cache.target_gc_percent",
    type: "int",
    min: 0,
    max: 100,
    default: 0,
    help: "cache fill percentage that triggers eviction",
  },
  { key: "storage.stow.kind", type: "string", default: "", help: "stow: kind of store (s3, google, azure, …)" },
  {
    key: "storage.stow.config",
    type: "map",
    default: {},
    help: "stow: store configuration as key=value pairs",
  },
  {
    key: "storage.limits.maxDownloadMBs",
    type: "int",
    min: 0,
    default: 2,
    help: "largest object a download may read, in MiB",
  },
  {
    key: "storage.defaultHttpClient.timeout",
    type: "duration",
    default: "0s",
    help:
      "time limit of each whole HTTP call (downloads, uploads, GitHub API, token requests), body included (0s: none)",
  },
  // Time limits of every plain HTTP call (fctl's own keys): a server that stalls never hangs a command.
  {
    key: "http.headersTimeout",
    type: "duration",
    default: "1m0s",
    help:
      "longest wait for an HTTP response's headers (connecting included; for an upload, from the end of its body) (0s: none)",
  },
  {
    key: "http.idleTimeout",
    type: "duration",
    default: "1m0s",
    help: "longest stall between two chunks of an HTTP body, a response's or an upload's (0s: none)",
  },
  {
    key: "storage.allow-local-fallback",
    type: "boolean",
    default: false,
    help: "let fast registration put the source in local or mem storage when the admin has no upload location; " +
      "only for an admin on this machine (a loopback admin.endpoint), whose cluster can read it",
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
    deprecated: "use --files.k8sServiceAccount",
    help: "Kubernetes service account launch plans execute as",
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
    deprecated: "the source is uploaded where the admin service's data proxy says",
    help: "where to upload the fast-registration source when the admin has no upload location",
  },
  { key: "files.version", type: "string", default: "", help: "version of the registered entities" },
  // flytestdlib's OpenTelemetry section, flags and keys as flytectl has them (same names, defaults): accepted, so
  // that flytectl's command lines and config files keep working, and ignored, since fctl exports no traces.
  {
    key: "otel.type",
    type: "string",
    default: "noop",
    help: "flytectl's trace exporter [noop/file/jaeger/otlpgrpc/otlphttp] (accepted, ignored: fctl exports no traces)",
  },
  {
    key: "otel.file.filename",
    type: "string",
    default: "/tmp/trace.txt",
    help: "flytectl's file of exported traces (accepted, ignored)",
  },
  {
    key: "otel.jaeger.endpoint",
    type: "string",
    default: "http://localhost:14268/api/traces",
    help: "flytectl's jaeger trace ingestor (accepted, ignored)",
  },
  {
    key: "otel.otlpgrpc.endpoint",
    type: "string",
    default: "http://localhost:4317",
    help: "flytectl's OTLP gRPC trace collector (accepted, ignored)",
  },
  {
    key: "otel.otlphttp.endpoint",
    type: "string",
    default: "http://localhost:4318/v1/traces",
    help: "flytectl's OTLP HTTP trace collector (accepted, ignored)",
  },
  {
    key: "otel.sampler.parentSampler",
    type: "string",
    default: "always",
    help: "flytectl's parent sampler of traces (accepted, ignored)",
  },
] as const satisfies readonly OptionSpec[];

/**
 * Any one option of {@link OPTIONS}: an {@link OptionSpec} (every field it declares may be read, `secret`,
 * `choices`, …) with its literal key and type.
 *
 * ```ts
 * import { type AnyOption, OPTIONS } from "@fctl/fctl";
 *
 * const endpoint: AnyOption | undefined = OPTIONS.find((option) => option.key === "admin.endpoint");
 * console.log(endpoint?.help);
 * ```
 */
export type AnyOption = typeof OPTION_TABLE[number] & OptionSpec;

/**
 * Every shared option, in help order. Each is an {@link OptionSpec} with its literal key ({@link AnyOption}), so
 * a program filters and reads them without casts.
 *
 * ```ts
 * import { OPTIONS, type OptionKey } from "@fctl/fctl";
 *
 * const secrets: OptionKey[] = OPTIONS.filter((option) => option.secret).map((option) => option.key);
 * console.log(secrets.includes("storage.connection.secret-key")); // true
 * ```
 */
export const OPTIONS: readonly AnyOption[] = OPTION_TABLE;

/**
 * Every option key.
 *
 * ```ts
 * import { connect, type OptionKey } from "@fctl/fctl";
 *
 * const flags: Partial<Record<OptionKey, string | number | boolean>> = { "admin.endpoint": "dns:///localhost:8089", "admin.insecure": true };
 * await using flyte = await connect({ flags });
 * console.log(flyte.config.config["admin.endpoint"]);
 * ```
 */
export type OptionKey = AnyOption["key"];

/**
 * The TypeScript type of an option's resolved value, by its {@link OptionType}.
 *
 * ```ts
 * import type { ValueOfType } from "@fctl/fctl";
 *
 * const timeoutMs: ValueOfType<"duration"> = 15_000; // "15s" in a flag or a file
 * const scopes: ValueOfType<"strings"> = ["all"];
 * console.log(timeoutMs, scopes);
 * ```
 */
export type ValueOfType<T extends OptionType> = T extends "boolean" ? boolean
  : T extends "int" | "duration" ? number
  : T extends "strings" ? readonly string[]
  : T extends "map" ? Readonly<Record<string, string>>
  : string;

/**
 * The fully resolved configuration: one typed value per option key.
 *
 * ```ts
 * import { type Config, loadConfig } from "@fctl/fctl";
 *
 * const loaded = await loadConfig({ flags: {}, env: Deno.env.toObject(), readTextFile: Deno.readTextFile });
 * const config: Config = loaded.config;
 * console.log(config["admin.endpoint"], config["admin.maxRetries"]);
 * ```
 */
export type Config = { readonly [O in AnyOption as O["key"]]: ValueOfType<O["type"]> };

/**
 * Where a configuration value came from.
 *
 * ```ts
 * import { type ConfigSource, loadConfig } from "@fctl/fctl";
 *
 * const loaded = await loadConfig({ flags: { "admin.insecure": true }, env: {}, readTextFile: Deno.readTextFile });
 * const source: ConfigSource = loaded.sources["admin.insecure"];
 * console.log(source); // "flag"
 * ```
 */
export type ConfigSource = "default" | "file" | "env" | "flag";

/** How every option's environment variable begins (see {@link envName}). */
export const ENV_PREFIX = "FCTL_";

/**
 * The environment variable that sets an option: `FCTL_` + the key in shell style, with `.`/`-` and
 * camelCase word breaks as `_` (`admin.insecureSkipVerify` → `FCTL_ADMIN_INSECURE_SKIP_VERIFY`).
 */
export function envName(option: Pick<OptionSpec, "key">): string {
  return `${ENV_PREFIX}${option.key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[.-]/g, "_").toUpperCase()}`;
}

/** The YAML path of an option in a config file. */
export function yamlPath(option: OptionSpec): readonly string[] {
  return option.yamlPath ?? option.key.split(".");
}

/** Log levels of `--logger.level`, as flytectl numbers them (logrus levels). */
export const LOG_LEVELS = ["panic", "fatal", "error", "warn", "info", "debug"] as const;

/** The schema entry for a key. */
export function optionSpec(key: OptionKey): OptionSpec {
  return OPTIONS.find((o) => o.key === key) as OptionSpec;
}

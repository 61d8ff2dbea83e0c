/**
 * The fctl command tree as plain data: every command, alias, argument and local flag with its
 * help text. Commander's graph (`program.ts`), the help screens (`help.ts`) and the fast help path
 * (`help_request.ts`) are all derived from it, so a flag cannot be accepted without being documented.
 *
 * This module must stay free of imports that load anything heavy: `fctl --help` reads it without
 * loading commander (whose Node built-ins alone cost more start-up time than the rest of fctl).
 *
 * @module
 */
import { envName, OPTIONS, type OptionSpec } from "../config/schema.ts";

/** One flag as help shows it: `-p, --project <value>`. */
export interface FlagSpec {
  /** Long name without the dashes (`filter.limit`); a `no-` prefix makes a negation. */
  readonly long: string;
  /** One letter, for `-p`. */
  readonly short?: string;
  /** The value placeholder (`<n>`); absent for switches. */
  readonly value?: string;
  readonly help: string;
  /** Accepted, but not listed in help (deprecated spellings, `--no-` forms, cobra-compatible positions). */
  readonly hidden?: boolean;
}

/** One positional argument: `[name]`, `<paths...>`. */
export interface ArgumentSpec {
  readonly name: string;
  readonly help: string;
  readonly required: boolean;
  readonly variadic: boolean;
}

/** A command: a group of subcommands, or a leaf that runs an action. */
export interface CommandSpec {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly arguments: readonly ArgumentSpec[];
  /** Flags of this command only; the global flags and `-h, --help` are added to every command. */
  readonly flags: readonly FlagSpec[];
  readonly subcommands: readonly CommandSpec[];
}

/** The program's own name. */
export const PROGRAM_NAME = "fctl";

/** `-h, --help`, on every command. */
export const HELP_FLAG: FlagSpec = { long: "help", short: "h", help: "display help for command" };

/** `--version`, on the program only (subcommands use `--version <version>` for entity versions). */
export const VERSION_FLAG: FlagSpec = { long: "version", help: "print the fctl version" };

const VALUE_NAME: Record<OptionSpec["type"], string | undefined> = {
  string: "<value>",
  boolean: undefined,
  int: "<n>",
  enum: "<value>",
  duration: "<duration>",
  strings: "<values>",
  map: "<key=value>",
};

function defaultText(spec: OptionSpec): string {
  const value = spec.default;
  if (value === "" || (Array.isArray(value) && value.length === 0)) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return "";
  return ` (default ${typeof value === "string" ? value : JSON.stringify(value)})`;
}

function optionHelp(spec: OptionSpec): string {
  const deprecated = spec.deprecated ? `deprecated (${spec.deprecated}): ` : "";
  return `${deprecated}${spec.help}${defaultText(spec)} [env ${envName(spec)}]`;
}

/**
 * The flags of the option schema, accepted by every command (before and after subcommand names).
 * Each boolean also has a hidden `--no-` form.
 */
export const GLOBAL_FLAGS: readonly FlagSpec[] = (OPTIONS as readonly OptionSpec[]).flatMap((spec) => {
  const flag: FlagSpec = { long: spec.key, short: spec.short, value: VALUE_NAME[spec.type], help: optionHelp(spec) };
  return spec.type === "boolean" ? [flag, { long: `no-${spec.key}`, help: "", hidden: true }] : [flag];
});

const TASK_FLAGS: readonly FlagSpec[] = [
  {
    long: "version",
    value: "<version>",
    help: "one version of the named task (without a name: filter the listing)",
  },
  { long: "latest", help: "only the newest version of the named task (wins over --version)" },
  {
    long: "execFile",
    value: "<file>",
    help: "write an execution spec file for the named task (for create execution)",
  },
  {
    long: "filter.fieldSelector",
    value: "<selector>",
    help: 'e.g. "task.name=t1,created_at>=2021-05-24T21:43:12Z"',
  },
  { long: "filter.sortBy", value: "<field>", help: "sort key (default created_at)" },
  { long: "filter.asc", help: "sort ascending (default descending)" },
  { long: "no-filter.asc", help: "", hidden: true },
  { long: "filter.limit", value: "<n>", help: "page size (default 100)" },
  { long: "filter.page", value: "<n>", help: "page number, from 1 (default 1)" },
];

function taskCommand(description: string): CommandSpec {
  return {
    name: "task",
    aliases: ["tasks"],
    description,
    arguments: [{
      name: "name",
      help: "task name; without it, every task of the project and domain",
      required: false,
      variadic: false,
    }],
    flags: TASK_FLAGS,
    subcommands: [],
  };
}

/** The flags both register commands take; `versionHelp` says what `--version` means for the command. */
function registerFlags(versionHelp: string): FlagSpec[] {
  return [
    { long: "version", value: "<version>", help: versionHelp },
    { long: "force", help: "use --version for every entity, even those that carry a version" },
    { long: "dryRun", help: "read, check and plan, but register and upload nothing" },
    { long: "continueOnError", help: "keep registering after a failure (exit status 1 if anything failed)" },
    { long: "enableSchedule", help: "activate registered launch plans that have a schedule" },
    { long: "assumableIamRole", value: "<role>", help: "IAM role executions of the launch plans run as" },
    {
      long: "k8sServiceAccount",
      value: "<account>",
      help: "Kubernetes service account executions of the launch plans run as",
    },
    {
      long: "outputLocationPrefix",
      value: "<prefix>",
      help: "where executions of the launch plans write their outputs",
    },
    {
      long: "sourceUploadPath",
      value: "<location>",
      help: "where the source goes when the admin has no upload location",
    },
    {
      long: "destinationDirectory",
      value: "<dir>",
      help: "where the fast-registered source is unpacked in the container",
    },
    { long: "concurrency", value: "<n>", help: "most create calls in flight at once (default 8; 1 is one at a time)" },
    { long: "k8ServiceAccount", value: "<account>", help: "deprecated: use --k8sServiceAccount", hidden: true },
  ];
}

function group(name: string, description: string, subcommands: CommandSpec[], flags: FlagSpec[] = []): CommandSpec {
  return { name, aliases: [], description, arguments: [], flags, subcommands };
}

/** The whole tree, rooted at the program. */
export const COMMAND_TREE: CommandSpec = group(PROGRAM_NAME, "A command-line client for the Flyte admin service", [
  group(
    "get",
    "read entities from the admin service",
    [taskCommand("list tasks, or the versions of one task")],
    // cobra lets flytectl users write `get --filter.limit 3 task`; accept the same, hidden from `get --help`.
    TASK_FLAGS.map((flag) => ({ ...flag, hidden: true })),
  ),
  taskCommand("shorthand for `get task`"),
  group("register", "register entities with the admin service", [
    {
      name: "files",
      aliases: ["file"],
      description:
        "register serialized .pb files, or .tar/.tgz/.tar.gz archives (paths or http(s) URLs) with --archive",
      arguments: [{ name: "paths", help: ".pb files, or archives with --archive", required: true, variadic: true }],
      flags: [
        { long: "archive", help: "the paths are .tar, .tgz or .tar.gz archives, local or http(s) URLs" },
        ...registerFlags("version of the registered entities where the package leaves it open"),
      ],
      subcommands: [],
    },
    {
      name: "examples",
      aliases: ["example", "flytesnack", "flytesnacks"],
      description: "register the published Flyte example release (flytesnacks) from GitHub",
      arguments: [],
      flags: registerFlags("release tag to register, also the entities' version (default: the latest release)"),
      subcommands: [],
    },
  ]),
  group("config", "show and check the configuration", [
    {
      name: "view",
      aliases: [],
      description: "the effective configuration: every option, its value and where it came from (secrets redacted)",
      arguments: [],
      flags: [{ long: "all", help: "also list options left at their defaults" }],
      subcommands: [],
    },
    {
      name: "validate",
      aliases: [],
      description: "check the config file, environment and flags; exit 2 if anything is invalid",
      arguments: [],
      flags: [{ long: "strict", help: "also fail on unknown keys and deprecated options" }],
      subcommands: [],
    },
  ]),
]);

/** The subcommand of `parent` called `word` (by name or alias). */
export function findSubcommand(parent: CommandSpec, word: string): CommandSpec | undefined {
  return parent.subcommands.find((c) => c.name === word || c.aliases.includes(word));
}

/** The flags of the last command of `path` that are not global: version at the root, its own, and help. */
export function ownFlags(path: readonly CommandSpec[]): FlagSpec[] {
  return [...(path.length === 1 ? [VERSION_FLAG] : []), ...path[path.length - 1].flags, HELP_FLAG];
}

/** Every flag the last command of `path` accepts, hidden ones included: its own and the global ones. */
export function acceptedFlags(path: readonly CommandSpec[]): FlagSpec[] {
  return [...ownFlags(path), ...GLOBAL_FLAGS];
}

/** The command as typed, without aliases: `fctl get task`. */
export function commandLine(path: readonly CommandSpec[]): string {
  return path.map((c) => c.name).join(" ");
}

/** The flag text as help shows it: `-p, --project <value>`. */
export function flagTerm(flag: FlagSpec): string {
  return `${flag.short ? `-${flag.short}, ` : ""}--${flag.long}${flag.value ? ` ${flag.value}` : ""}`;
}

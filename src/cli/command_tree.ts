/**
 * The fctl command tree as plain data: every command, alias, argument and local flag with its
 * help text. Commander's graph (`program.ts`), the help screens (`help.ts`) and the fast help path
 * (`help_request.ts`) are all derived from it, so a flag cannot be accepted without being documented.
 *
 * This module must stay free of imports that load anything heavy: `fctl --help` reads it without
 * loading commander (whose Node built-ins alone cost more start-up time than the rest of fctl). For the same
 * reason the register, config and auth groups are {@link LazyGroup}s: the program's help lists them by name,
 * and their commands' modules load only when a command line names the group (what needs every command,
 * commander's graph, completion and the reference, loads them all with `loadCommandTree`).
 *
 * @module
 */
import { envName, OPTIONS, type OptionSpec } from "../config/schema.ts";
import { type CommandNode, type CommandSpec, type FlagSpec, groupCommand, lazyGroup } from "./command.ts";
import { COMPLETION_COMMAND } from "./commands/completion.ts";
import { TASK_FLAGS, taskCommand } from "./commands/get_task.ts";
import { VERSION_COMMAND } from "./commands/version.ts";

export type { ArgumentSpec, CommandNode, CommandSpec, FlagSpec, LazyGroup, LoadedCommand } from "./command.ts";
export { isLoaded, loadCommand, loadCommandTree } from "./command.ts";

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
  const flag: FlagSpec = {
    long: spec.key,
    short: spec.short,
    value: VALUE_NAME[spec.type],
    help: optionHelp(spec),
    ...(spec.choices ? { choices: spec.choices } : {}),
  };
  return spec.type === "boolean" ? [flag, { long: `no-${spec.key}`, help: "", hidden: true }] : [flag];
});

/** The global options a command's help lists when it names none: the ones nearly every command reads. */
export const COMMON_GLOBALS: readonly string[] = ["config", "project", "domain", "output"];

/** The whole tree, rooted at the program; each leaf comes from its own module under `commands/`. */
export const COMMAND_TREE: CommandSpec = groupCommand(
  PROGRAM_NAME,
  "A command-line client for the Flyte admin service",
  [
    groupCommand(
      "get",
      "read entities from the admin service",
      [taskCommand("list tasks, or the versions of one task")],
      {
        // cobra lets flytectl users write `get --filter.limit 3 task`; accept the same, hidden from `get --help`.
        flags: TASK_FLAGS.map((flag) => ({ ...flag, hidden: true })),
        examples: [
          "fctl get task -p flytesnacks -d development",
          "fctl get task core.basic.hello -p flytesnacks -d development --latest -o yaml",
        ],
      },
    ),
    taskCommand("shorthand for `get task`"),
    // The groups whose commands the program's help does not need: their modules load when the group is named.
    lazyGroup("register", "register entities with the admin service", async () => {
      const [files, examples] = await Promise.all([
        import("./commands/register_files.ts"),
        import("./commands/register_examples.ts"),
      ]);
      return [files.REGISTER_FILES_COMMAND, examples.REGISTER_EXAMPLES_COMMAND];
    }, {
      examples: [
        "fctl register files --archive pkg.tgz -p flytesnacks -d development --version v1",
        "fctl register examples -p flytesnacks -d development",
      ],
    }),
    lazyGroup("config", "create, show and check the configuration", async () => {
      const [init, view, validate] = await Promise.all([
        import("./commands/config_init.ts"),
        import("./commands/config_view.ts"),
        import("./commands/config_validate.ts"),
      ]);
      return [init.CONFIG_INIT_COMMAND, view.CONFIG_VIEW_COMMAND, validate.CONFIG_VALIDATE_COMMAND];
    }, {
      globals: ["config", "output"],
      examples: [
        "fctl config init --host flyte.example.com",
        "fctl config view -c ~/.flyte/config.yaml",
        "fctl config validate",
      ],
    }),
    lazyGroup("auth", "sign in to the admin service, show and forget cached tokens", async () => {
      const [login, status, logout] = await Promise.all([
        import("./commands/auth_login.ts"),
        import("./commands/auth_status.ts"),
        import("./commands/auth_logout.ts"),
      ]);
      return [login.AUTH_LOGIN_COMMAND, status.AUTH_STATUS_COMMAND, logout.AUTH_LOGOUT_COMMAND];
    }, {
      globals: ["config", "admin.endpoint", "admin.authType"],
      examples: ["fctl auth login", "fctl auth status -o json", "fctl auth logout"],
    }),
    VERSION_COMMAND,
    COMPLETION_COMMAND,
  ],
  {
    examples: [
      "fctl config init --host flyte.example.com  # writes ~/.flyte/config.yaml",
      "fctl get task -p flytesnacks -d development",
      "fctl register examples -p flytesnacks -d development",
      "fctl help options  # every global option",
    ],
  },
);

/** The global flags the help of the last command of `path` lists (see {@link CommandSpec.globals}), in its order. */
export function helpGlobalFlags(path: readonly CommandSpec[]): FlagSpec[] {
  const keys = path[path.length - 1].globals ?? COMMON_GLOBALS;
  return keys.map((key) => {
    const flag = GLOBAL_FLAGS.find((f) => f.long === key);
    if (!flag) throw new Error(`${commandLine(path)} lists ${JSON.stringify(key)}, which is not a global option`);
    return flag;
  });
}

/** The subcommand of `parent` called `word` (by name or alias), loaded or not. */
export function findSubcommand(parent: CommandSpec, word: string): CommandNode | undefined {
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

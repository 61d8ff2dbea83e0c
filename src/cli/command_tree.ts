/**
 * The fctl command tree as plain data: every command, alias, argument and local flag with its
 * help text. The parser (`parse.ts`), the help screens (`help.ts`), the completion scripts and the reference
 * pages are all derived from it, so a flag cannot be accepted without being documented.
 *
 * This module must stay free of imports that load anything heavy (no npm package, no Node built-in):
 * `fctl --help` and every command line start by reading it. For the same reason the register, config and auth
 * groups are {@link LazyGroup}s: the program's help lists them by name, and their commands' modules load only
 * when a command line names the group (what needs every command, completion and the reference, loads them all
 * with `loadCommandTree`).
 *
 * @module
 */
import {
  type CommandNode,
  type CommandSpec,
  type FlagSpec,
  groupCommand,
  lazyGroup,
  loadCommandTree,
} from "./command.ts";
import { completionCommand } from "./commands/completion.ts";
import { GET_EXECUTION_COMMAND } from "./commands/get_execution.ts";
import { GET_LAUNCH_PLAN_COMMAND } from "./commands/get_launch_plan.ts";
import { GET_PROJECT_COMMAND } from "./commands/get_project.ts";
import { TASK_FLAGS, taskCommand } from "./commands/get_task.ts";
import { GET_WORKFLOW_COMMAND } from "./commands/get_workflow.ts";
import { VERSION_COMMAND } from "./commands/version.ts";
import { GLOBAL_FLAGS } from "./global_flags.ts";

export type { ArgumentSpec, CommandNode, CommandSpec, FlagSpec, LazyGroup, LoadedCommand } from "./command.ts";
export { isLoaded, loadCommand, loadCommandTree } from "./command.ts";
export { acceptedFlags, flagTerm, GLOBAL_FLAGS, HELP_FLAG, ownFlags, VERSION_FLAG } from "./global_flags.ts";

/** The program's own name. */
export const PROGRAM_NAME = "fctl";

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
      [
        taskCommand("list tasks, or the versions of one task"),
        GET_PROJECT_COMMAND,
        GET_WORKFLOW_COMMAND,
        GET_LAUNCH_PLAN_COMMAND,
        GET_EXECUTION_COMMAND,
      ],
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
    lazyGroup("create", "create entities on the admin service: executions and projects", async () => {
      const [execution, project] = await Promise.all([
        import("./commands/create_execution.ts"),
        import("./commands/create_project.ts"),
      ]);
      return [execution.CREATE_EXECUTION_COMMAND, project.CREATE_PROJECT_COMMAND];
    }, {
      examples: [
        "fctl create execution -p flytesnacks -d development --execFile exec.yaml",
        'fctl create project --id ml --name "Machine learning"',
      ],
    }),
    lazyGroup("delete", "terminate executions", async () => {
      return [(await import("./commands/delete_execution.ts")).DELETE_EXECUTION_COMMAND];
    }, {
      examples: [
        "fctl delete execution f8a1b2c3d4 -p flytesnacks -d development",
        'fctl delete execution f8a1b2c3d4 g9b2c3d4e5 -p flytesnacks -d development --cause "wrong inputs"',
      ],
    }),
    lazyGroup("update", "change launch plans, executions, projects, and the metadata of names", async () => {
      const [launchPlan, execution, project, meta] = await Promise.all([
        import("./commands/update_launch_plan.ts"),
        import("./commands/update_execution.ts"),
        import("./commands/update_project.ts"),
        import("./commands/update_meta.ts"),
      ]);
      return [
        launchPlan.UPDATE_LAUNCH_PLAN_COMMAND,
        execution.UPDATE_EXECUTION_COMMAND,
        project.UPDATE_PROJECT_COMMAND,
        ...meta.UPDATE_META_COMMANDS,
      ];
    }, {
      examples: [
        "fctl update launchplan core.basic.wf -p flytesnacks -d development --version v2 --activate",
        "fctl update execution f8a1b2c3d4 -p flytesnacks -d development --archive",
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
    // The scripts are generated from the whole tree, handed to the command rather than imported by it.
    completionCommand(() => loadCommandTree(COMMAND_TREE)),
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

/** The command as typed, without aliases: `fctl get task`. */
export function commandLine(path: readonly CommandSpec[]): string {
  return path.map((c) => c.name).join(" ");
}

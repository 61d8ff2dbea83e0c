/**
 * The command graph. Only commander and the option schema load here; each action imports
 * its implementation lazily so that `fctl --help` and `fctl --version` stay light.
 *
 * @module
 */
import { Command } from "commander";
import { NotSupportedError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { commandContext } from "./context.ts";
import { addGlobalOptions } from "./global_options.ts";
import { loadLazy } from "./lazy.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The fctl version, from deno.json. */
export const VERSION: string = denoJson.version;

/** Adds `task|tasks [name]` with its local flags under `parent`. */
function addTaskCommand(parent: Command, io: Io, signal: AbortSignal, description: string): void {
  parent
    .command("task")
    .aliases(["tasks"])
    .description(description)
    .argument("[name]", "task name; without it, every task of the project and domain")
    .option("--version <version>", "one version of the named task (without a name: filter the listing)")
    .option("--latest", "only the newest version of the named task (wins over --version)")
    .action(async (name: string | undefined, local: { version?: string; latest?: boolean }, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      const { runGetTask } = await loadLazy<typeof import("./get_task_action.ts")>("getTask");
      await runGetTask(ctx, { name, version: local.version, latest: local.latest === true });
    });
}

function addRegisterCommands(register: Command, io: Io, signal: AbortSignal): void {
  register
    .command("files")
    .alias("file")
    .description("register serialized .pb files, or .tar/.tgz/.tar.gz archives of them with --archive")
    .argument("<paths...>", ".pb files, or archives with --archive")
    .option("--archive", "the paths are .tar, .tgz or .tar.gz archives")
    .option("--version <version>", "version of the registered entities where the package leaves it open")
    .option("--force", "use --version for every entity, even those that carry a version")
    .option("--dryRun", "read, check and plan, but register nothing")
    .option("--continueOnError", "keep registering after a failure (exit status 1 if anything failed)")
    .action(async (paths: string[], local: RegisterFlags, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      const { runRegisterFiles } = await loadLazy<typeof import("./register_files_action.ts")>("registerFiles");
      await runRegisterFiles(ctx, paths, local);
    });
  register
    .command("examples")
    .aliases(["example", "flytesnack", "flytesnacks"])
    .description("register the published Flyte example release (flytesnacks)")
    .option("--version <version>", "release tag to register (default: the latest release)")
    .action(() => {
      throw new NotSupportedError(
        "register examples is not available in this version yet; download a flytesnacks release and run " +
          "`fctl register files --archive <file> --version <tag>`",
      );
    });
}

/** Local flags of `register files`. */
export interface RegisterFlags {
  archive?: boolean;
  version?: string;
  force?: boolean;
  dryRun?: boolean;
  continueOnError?: boolean;
}

/** Builds the whole command tree, writing through `io`. */
export function buildProgram(io: Io, signal: AbortSignal): Command {
  const program = new Command("fctl")
    .description("A command-line client for the Flyte admin service")
    .version(VERSION, "--version", "print the fctl version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showSuggestionAfterError(true)
    .enablePositionalOptions();

  const get = program.command("get").description("read entities from the admin service");
  addTaskCommand(get, io, signal, "list tasks, or the versions of one task");
  addTaskCommand(program, io, signal, "shorthand for `get task`");

  addRegisterCommands(program.command("register").description("register entities with the admin service"), io, signal);

  for (const command of [program, ...allCommands(program)]) {
    addGlobalOptions(command);
    command.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/**
 * The command graph. Only commander and the option schema load here; each action imports
 * its implementation lazily so that `fctl --help` and `fctl --version` stay light.
 *
 * @module
 */
import { Command } from "commander";
import type { Io } from "../output/io.ts";
import { addTaskCommand } from "./commands/get_task.ts";
import { addRegisterCommands } from "./commands/register.ts";
import { addConfigCommands } from "./commands/config.ts";
import { addGlobalOptions } from "./global_options.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The fctl version, from deno.json. */
export const VERSION: string = denoJson.version;

/** Builds the whole command tree, writing through `io`. */
export function buildProgram(io: Io, signal: AbortSignal): Command {
  const program = new Command("fctl")
    .description("A command-line client for the Flyte admin service")
    .version(VERSION, "--version", "print the fctl version")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's usage errors read like ours: "Error: unknown option '--x'".
      outputError: (s, write) => write(s.replace(/^error: /, "Error: ")),
    })
    .showSuggestionAfterError(true)
    .enablePositionalOptions();

  const get = program.command("get").description("read entities from the admin service");
  addTaskCommand(get, io, signal, "list tasks, or the versions of one task");
  addTaskCommand(program, io, signal, "shorthand for `get task`");

  addRegisterCommands(program.command("register").description("register entities with the admin service"), io, signal);

  addConfigCommands(program, io, signal);

  for (const command of [program, ...allCommands(program)]) {
    addGlobalOptions(command);
    command.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

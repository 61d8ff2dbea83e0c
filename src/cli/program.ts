/**
 * The commander graph, built from the command tree (`command_tree.ts`), with each leaf's action.
 * Loaded only for command lines that run something: help and version never load commander.
 * Each action imports its implementation lazily in turn.
 *
 * @module
 */
import { Command, Option } from "commander";
import type { Io } from "../output/io.ts";
import { COMMAND_TREE, type CommandSpec, flagTerm, GLOBAL_FLAGS, VERSION_FLAG } from "./command_tree.ts";
import { configValidateAction, configViewAction } from "./commands/config.ts";
import { taskAction } from "./commands/get_task.ts";
import { registerExamplesAction, registerFilesAction } from "./commands/register.ts";
import { accumulatesValues, booleanFlags, normalizeBooleanFlags } from "./global_options.ts";
import { renderHelp } from "./help.ts";
import { VERSION } from "./version.ts";

// deno-lint-ignore no-explicit-any -- commander passes each action its own argument list
type Action = (...args: any[]) => Promise<void>;

/** The action of each leaf command, by its path of names (aliases resolve to these). */
const ACTIONS: Record<string, (io: Io, signal: AbortSignal) => Action> = {
  "get task": taskAction,
  "task": taskAction,
  "register files": registerFilesAction,
  "register examples": registerExamplesAction,
  "config view": configViewAction,
  "config validate": configValidateAction,
};

/** Builds the whole command tree, writing through `io`. */
export function buildProgram(io: Io, signal: AbortSignal): Command {
  const output = {
    writeOut: (s: string) => io.stdout.write(s),
    writeErr: (s: string) => io.stderr.write(s),
    // Commander's usage errors read like ours, on one line: "Error: unknown option '--x' (did you mean --y?)".
    outputError: (s: string, write: (s: string) => void) =>
      write(s.replace(/^error: /, "Error: ").replace(/\n\(Did you mean (.*)\?\)\n$/, " (did you mean $1?)\n")),
  };
  const build = (path: CommandSpec[]): Command => {
    const spec = path[path.length - 1];
    const command = new Command(spec.name)
      .aliases(spec.aliases)
      .description(spec.description)
      .exitOverride()
      .configureOutput(output)
      .showSuggestionAfterError(true)
      // Program options go before the subcommand's name; each command repeats the global ones, so they go anywhere.
      .enablePositionalOptions()
      // `help` and the help screens are the fast path's (run.ts); this keeps commander's own help identical.
      .helpCommand(false)
      .configureHelp({ formatHelp: () => renderHelp(path, io.stdoutIsTerminal ? io.columns : undefined) });
    if (path.length === 1) command.version(VERSION, flagTerm(VERSION_FLAG), VERSION_FLAG.help);
    for (const argument of spec.arguments) {
      const name = `${argument.name}${argument.variadic ? "..." : ""}`;
      command.argument(argument.required ? `<${name}>` : `[${name}]`, argument.help);
    }
    for (const flag of [...spec.flags, ...GLOBAL_FLAGS]) {
      const option = new Option(flagTerm(flag), flag.help);
      if (flag.hidden) option.hideHelp();
      if (accumulatesValues(flag.long)) option.argParser(accumulate);
      command.addOption(option);
    }
    for (const sub of spec.subcommands) command.addCommand(build([...path, sub]));
    if (spec.subcommands.length === 0) {
      const key = path.slice(1).map((c) => c.name).join(" ");
      const action = ACTIONS[key];
      if (!action) throw new Error(`no action for command ${JSON.stringify(key)}`);
      command.action(action(io, signal));
    }
    return command;
  };
  return build([COMMAND_TREE]);
}

/** Parses `args` with the commander graph and runs the command they name. */
export async function parseAndRun(args: readonly string[], io: Io, signal: AbortSignal): Promise<void> {
  const program = buildProgram(io, signal);
  await program.parseAsync(normalizeBooleanFlags(args, booleanFlags(program)), { from: "user" });
}

/** Repeated list and map flags accumulate (`--admin.scopes a --admin.scopes b`), as pflag's do. */
function accumulate(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? previous : []), value];
}

/**
 * The commander graph, built from the command tree (`command_tree.ts`), with each leaf's action.
 * Loaded only for command lines that run something: help and version never load commander.
 * Each leaf's action loads the configuration into the run's context and calls the command's `run`.
 *
 * @module
 */
import { Command, Option } from "commander";
import { COMMAND_TREE, type CommandSpec, flagTerm, GLOBAL_FLAGS, VERSION_FLAG } from "./command_tree.ts";
import type { CliContext } from "./context.ts";
import {
  accumulatesValues,
  booleanFlags,
  flagValues,
  localFlagValues,
  normalizeBooleanFlags,
} from "./global_options.ts";
import { renderHelp } from "./help.ts";
import { VERSION } from "./version.ts";

/**
 * A leaf's commander action: start loading what it needs, load the configuration from the flags, then run
 * the command with its positional values and local flags.
 */
function leafAction(ctx: CliContext, spec: CommandSpec) {
  const run = spec.run;
  if (!run) throw new Error(`command ${JSON.stringify(spec.name)} has neither subcommands nor run`);
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    // A failed configuration still wins; a failed preload is reported by the command's own import.
    spec.preload?.().catch(() => {});
    await ctx.loadConfig(flagValues(command));
    await run(ctx, args.slice(0, spec.arguments.length), localFlagValues(command, spec.flags));
  };
}

/** Builds the whole command tree, writing through the context's IO. */
export function buildProgram(ctx: CliContext): Command {
  const io = ctx.io;
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
    if (spec.subcommands.length === 0) command.action(leafAction(ctx, spec));
    return command;
  };
  return build([COMMAND_TREE]);
}

/** Parses `args` with the commander graph and runs the command they name. */
export async function parseAndRun(args: readonly string[], ctx: CliContext): Promise<void> {
  const program = buildProgram(ctx);
  await program.parseAsync(normalizeBooleanFlags(args, booleanFlags(program)), { from: "user" });
}

/** Repeated list and map flags accumulate (`--admin.scopes a --admin.scopes b`), as pflag's do. */
function accumulate(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? previous : []), value];
}

/**
 * The commander graph, built from the command tree (`command_tree.ts`), with each leaf's action; a
 * command's options are added when commander reaches it.
 * Loaded only for command lines that run something: help and version never load commander.
 * Each leaf's action loads the configuration into the run's context and calls the command's `run`.
 *
 * @module
 */
import { Command, Option } from "commander";
import {
  COMMAND_TREE,
  type CommandSpec,
  flagTerm,
  GLOBAL_FLAGS,
  loadCommandTree,
  type LoadedCommand,
  VERSION_FLAG,
} from "./command_tree.ts";
import type { CliContext } from "./context.ts";
import {
  accumulatesValues,
  booleanFlags,
  flagValues,
  localFlagValues,
  normalizeBooleanFlags,
} from "./global_options.ts";
import { renderHelp } from "./help.ts";
import { VERSION } from "../version.ts";

/**
 * A leaf's commander action: load the configuration from the flags, then run the command with its positional
 * values and local flags.
 */
function leafAction(ctx: CliContext, spec: CommandSpec) {
  const run = spec.run;
  if (!run) throw new Error(`command ${JSON.stringify(spec.name)} has neither subcommands nor run`);
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    if (spec.readsConfig === false) ctx.useFlagsWithoutConfig(flagValues(command));
    else await ctx.loadConfig(flagValues(command), { reportWarnings: spec.reportsConfigWarnings !== true });
    await run(ctx, args.slice(0, spec.arguments.length), localFlagValues(command, spec.flags));
  };
}

/**
 * A command of the tree that gets its arguments, options and action only when {@link complete}d: commander
 * completes a subcommand when it dispatches to it (`preSubcommand`), so a command line pays for the options
 * of the commands it names (about 70 each, most of building the graph), not for those of the whole tree.
 * Until then it has its name, aliases and settings, which is all commander reads of a command it does not
 * dispatch to (its name for the parent's "unknown command" suggestions).
 */
export class TreeCommand extends Command {
  #complete?: () => void;

  /** `complete` adds what the command needs to parse its own arguments. */
  constructor(name: string, complete: () => void) {
    super(name);
    this.#complete = complete;
  }

  /** Adds the command's arguments, options and action; does nothing the second time. */
  complete(): this {
    const complete = this.#complete;
    this.#complete = undefined;
    complete?.();
    return this;
  }
}

/**
 * Builds the command tree, writing through the context's IO. The root is complete; each subcommand is
 * completed as commander dispatches to it (see {@link TreeCommand}). Every `--no-` flag of the tree has its
 * positive form, so commander's one look at a subcommand's options before that point (giving a lone
 * `--no-x` the default true) finds nothing to do either way.
 */
export function buildProgram(ctx: CliContext, root: LoadedCommand): TreeCommand {
  const io = ctx.io;
  const output = {
    writeOut: (s: string) => io.stdout.write(s),
    writeErr: (s: string) => io.stderr.write(s),
    // Commander's usage errors read like ours, on one line: "Error: unknown option '--x' (did you mean --y?)".
    outputError: (s: string, write: (s: string) => void) =>
      write(s.replace(/^error: /, "Error: ").replace(/\n\(Did you mean (.*)\?\)\n$/, " (did you mean $1?)\n")),
  };
  const build = (path: LoadedCommand[]): TreeCommand => {
    const spec = path[path.length - 1];
    const command: TreeCommand = new TreeCommand(spec.name, () => {
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
      if (spec.subcommands.length === 0) command.action(leafAction(ctx, spec));
    })
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
    for (const sub of spec.subcommands) command.addCommand(build([...path, sub]));
    if (spec.subcommands.length > 0) {
      command.hook("preSubcommand", (_parent, sub) => void (sub as TreeCommand).complete());
    }
    return command;
  };
  return build([root]).complete();
}

/**
 * Parses `args` with the commander graph and runs the command they name. Commander is given the whole tree,
 * every group loaded: its suggestions for a mistyped command or option consider every command.
 */
export async function parseAndRun(args: readonly string[], ctx: CliContext): Promise<void> {
  const root = await loadCommandTree(COMMAND_TREE);
  const program = buildProgram(ctx, root);
  await program.parseAsync(normalizeBooleanFlags(args, booleanFlags(root)), { from: "user" });
}

/** Repeated list and map flags accumulate (`--admin.scopes a --admin.scopes b`), as pflag's do. */
function accumulate(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? previous : []), value];
}

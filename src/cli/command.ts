/**
 * What a command is, as plain data: its name, aliases, arguments and local flags, and for a leaf the
 * function that runs it. The types of a leaf's flag and argument values are derived from its declaration
 * (`as const`), as the configuration's types are derived from the option schema, so a flag is declared once.
 *
 * Command modules must stay import-light at their top level (no npm package, no generated protos, no Node
 * built-in): `fctl --help` loads every one the program's own help lists. Whatever a command needs to run is
 * imported inside its `run`, with a literal specifier (`await import("../../tasks/get_task.ts")`).
 *
 * @module
 */
import type { CliContext } from "./context.ts";

/** One flag as help shows it: `-p, --project <value>`. */
export interface FlagSpec {
  /** Long name without the dashes (`filter.limit`); a `no-` prefix makes a negation. */
  readonly long: string;
  /** One letter, for `-p`. */
  readonly short?: string;
  /** The value placeholder (`<n>`); absent for switches. */
  readonly value?: string;
  readonly help: string;
  /** The values the flag accepts, for shell completion (an enum option's choices). */
  readonly choices?: readonly string[];
  /** Accepted, but not listed in help (deprecated spellings, `--no-` forms, cobra-compatible positions). */
  readonly hidden?: boolean;
  /** Repeating the flag adds values (list and map options: `--admin.scopes a --admin.scopes b`), as pflag's do. */
  readonly repeated?: boolean;
}

/** `--wide`, on every command that prints a table. */
export const WIDE_FLAG = {
  long: "wide",
  help: "never fit the table to the terminal: every cell whole, as when piped",
} as const satisfies FlagSpec;

/** One positional argument: `[name]`, `<paths...>`. */
export interface ArgumentSpec {
  readonly name: string;
  readonly help: string;
  readonly required: boolean;
  readonly variadic: boolean;
  /** The values it accepts, for shell completion (a shell's name); without them, completion offers files. */
  readonly choices?: readonly string[];
}

/**
 * The values of `Flags` as the command line gave them: a string for a flag with a value, a boolean for a
 * switch, undefined when absent (`--no-x` forms set their switch to false).
 */
export type FlagValues<Flags extends readonly FlagSpec[]> = {
  readonly [F in Flags[number] as F["long"] extends `no-${string}` ? never : F["long"]]?: F extends
    { readonly value: string } ? string : boolean;
};

/** The positional values of `Args`, in order: `string[]` for a variadic one, `string | undefined` if optional. */
export type ArgumentValues<Args extends readonly ArgumentSpec[]> = {
  readonly [I in keyof Args]: Args[I] extends { readonly variadic: true } ? string[]
    : Args[I] extends { readonly required: true } ? string
    : string | undefined;
};

/** An environment variable a command reads besides the options' own (`FCTL_*`), as its help lists it. */
export interface EnvironmentSpec {
  /** `GITHUB_TOKEN`. */
  readonly name: string;
  /** What it does, and its default. */
  readonly help: string;
}

/** A command: a group of subcommands, or a leaf that runs. */
export interface CommandSpec {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly arguments: readonly ArgumentSpec[];
  /** Flags of this command only; the global flags and `-h, --help` are added to every command. */
  readonly flags: readonly FlagSpec[];
  /** A group's subcommands, each loaded or a {@link LazyGroup}; a leaf has none. */
  readonly subcommands: readonly CommandNode[];
  /** Command lines shown under "Examples:" in help, each with an optional `# comment`. */
  readonly examples?: readonly string[];
  /**
   * The global options (schema keys) this command's help lists beside its own flags: the handful it uses
   * (`project`, `output`, …). Every global option is still accepted; `fctl help options` lists them all.
   */
  readonly globals?: readonly string[];
  /** Environment variables the command reads that are no option's (`GITHUB_TOKEN`): help lists them under "Environment:". */
  readonly environment?: readonly EnvironmentSpec[];
  /** False for a leaf that must not read the configuration (`config init` writes it); default true. */
  readonly readsConfig?: boolean;
  /**
   * True for a leaf whose own output reports the configuration's warnings (`config validate`): they are then
   * not also logged when the configuration loads.
   */
  readonly reportsConfigWarnings?: boolean;
  /** What a leaf does; groups have none. */
  readonly run?: CommandRun;
}

/** How a leaf is run (`run.ts`): the positional values in declaration order, and the local flags (see `parse.ts`). */
export type CommandRun = (ctx: CliContext, args: readonly unknown[], flags: Record<string, unknown>) => Promise<void>;

/** A leaf command's declaration, typed from its `arguments` and `flags`. */
export interface LeafDeclaration<Args extends readonly ArgumentSpec[], Flags extends readonly FlagSpec[]> {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly arguments: Args;
  readonly flags: Flags;
  /** Command lines shown under "Examples:" in help. */
  readonly examples?: readonly string[];
  /** The global options (schema keys) its help lists; see {@link CommandSpec.globals}. */
  readonly globals?: readonly string[];
  /** Environment variables it reads that are no option's; see {@link CommandSpec.environment}. */
  readonly environment?: readonly EnvironmentSpec[];
  /** False: runs without loading the configuration (`ctx.config` is not available); see {@link CommandSpec}. */
  readonly readsConfig?: boolean;
  /** True: its output reports the configuration's warnings; see {@link CommandSpec}. */
  readonly reportsConfigWarnings?: boolean;
  /**
   * Parses the flags into typed options, makes one library call and renders its result. The configuration
   * is loaded (`ctx.config`) before it runs.
   */
  run(ctx: CliContext, args: ArgumentValues<Args>, flags: FlagValues<Flags>): Promise<void>;
}

/** A leaf command from its declaration; `run`'s parameter types follow from `arguments` and `flags`. */
export function leafCommand<const Args extends readonly ArgumentSpec[], const Flags extends readonly FlagSpec[]>(
  declaration: LeafDeclaration<Args, Flags>,
): CommandSpec {
  return {
    name: declaration.name,
    aliases: declaration.aliases ?? [],
    description: declaration.description,
    arguments: declaration.arguments,
    flags: declaration.flags,
    subcommands: [],
    examples: declaration.examples,
    globals: declaration.globals,
    environment: declaration.environment,
    readsConfig: declaration.readsConfig,
    reportsConfigWarnings: declaration.reportsConfigWarnings,
    run: (ctx, args, flags) =>
      declaration.run(ctx, args as unknown as ArgumentValues<Args>, flags as FlagValues<Flags>),
  };
}

/**
 * A group whose subcommands live in modules loaded only when the group is used or its help is shown. Until then
 * the tree knows what a parent's help lists of it: its name, aliases and description (a group takes no arguments).
 */
export interface LazyGroup {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  /** The group with its subcommands, their modules loaded (once). */
  readonly load: () => Promise<CommandSpec>;
}

/** A subcommand as the tree holds it: loaded, or a group still to load. */
export type CommandNode = CommandSpec | LazyGroup;

/** A command whose groups, all the way down, are loaded. */
export interface LoadedCommand extends CommandSpec {
  readonly subcommands: readonly LoadedCommand[];
}

/** Whether `node` is loaded (every command but a {@link LazyGroup} that has not been). */
export function isLoaded(node: CommandNode): node is CommandSpec {
  return !("load" in node);
}

/** `node`, loaded. */
export async function loadCommand(node: CommandNode): Promise<CommandSpec> {
  return isLoaded(node) ? node : await node.load();
}

/** `node` with every group below it loaded: for what needs the whole tree (completion, the reference). */
export async function loadCommandTree(node: CommandNode): Promise<LoadedCommand> {
  const spec = await loadCommand(node);
  const subcommands = await Promise.all(spec.subcommands.map(loadCommandTree));
  return { ...spec, subcommands };
}

/**
 * A group whose subcommands `load` imports when the group is first used (each a dynamic import with a literal
 * specifier, so that `deno compile` and `deno publish` see the modules).
 */
export function lazyGroup(
  name: string,
  description: string,
  load: () => Promise<readonly CommandNode[]>,
  options: GroupOptions = {},
): LazyGroup {
  let group: Promise<CommandSpec> | undefined;
  return {
    name,
    aliases: [],
    description,
    load: () => group ??= load().then((subcommands) => groupCommand(name, description, subcommands, options)),
  };
}

/** What a group may have besides its name, description and subcommands. */
export interface GroupOptions {
  /** Flags of the group itself (accepted before a subcommand's name). */
  flags?: readonly FlagSpec[];
  examples?: readonly string[];
  globals?: readonly string[];
}

/** A group of subcommands. */
export function groupCommand(
  name: string,
  description: string,
  subcommands: readonly CommandNode[],
  options: GroupOptions = {},
): CommandSpec {
  return {
    name,
    aliases: [],
    description,
    arguments: [],
    flags: options.flags ?? [],
    subcommands,
    examples: options.examples,
    globals: options.globals,
  };
}

/**
 * What a command is, as plain data: its name, aliases, arguments and local flags, and for a leaf its two steps.
 * The types of a leaf's flag and argument values are derived from its declaration (`as const`), as the
 * configuration's types are derived from the option schema, so a flag is declared once.
 *
 * A leaf runs in two steps (GitHub CLI's `runF` seam): `options` turns the arguments, the flags and the global
 * options it needs into one narrow, typed options object: pure, no context, no IO, no network, failing only with
 * a `UsageError`; `run` takes that object and the run's context and does the work. A test stops after the first
 * (`parseToOptions` in `run.ts`): a command's flag handling is tested with no process and no server.
 *
 * Command modules must stay import-light at their top level (no npm package, no generated protos, no Node
 * built-in): `fctl --help` loads every one the program's own help lists. Whatever a command needs to run is
 * imported inside its `run`, with a literal specifier (`await import("../../tasks/get_task.ts")`).
 *
 * @module
 */
import type { Config, ConfigSource, OptionKey } from "../config/schema.ts";
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
  /** A leaf's first step: its options from the command line and the global options; groups have none. */
  readonly options?: CommandOptionsStep;
  /** A leaf's second step: what it does with its options; groups have none. */
  readonly run?: CommandRun;
}

/**
 * A leaf's options step as `run.ts` calls it: the positional values in declaration order, the local flags (see
 * `parse.ts`), and the global options ({@link LoadedGlobals}, or {@link CommandLineGlobals} for a leaf that
 * reads no configuration).
 */
export type CommandOptionsStep = (input: {
  args: readonly unknown[];
  flags: Readonly<Record<string, unknown>>;
  globals: LoadedGlobals | CommandLineGlobals;
  warn: (message: string) => void;
}) => unknown;

/** A leaf's run step as `run.ts` calls it, with what its options step returned. */
export type CommandRun = (ctx: CliContext, options: unknown) => Promise<void>;

/** The global options a leaf that reads the configuration is given: defaults < file < environment < flags. */
export interface LoadedGlobals {
  /** Every option's value. */
  readonly config: Readonly<Config>;
  /** Where each value came from (`"flag"`: typed on this command line). */
  readonly sources: Readonly<Record<OptionKey, ConfigSource>>;
}

/** The global options a leaf with `readsConfig: false` is given: the global flags as typed, by option key. */
export interface CommandLineGlobals {
  readonly commandLine: Readonly<Record<string, unknown>>;
}

/** What a leaf's options step reads: its arguments, its flags and the global options. */
export interface OptionsInput<
  Args extends readonly ArgumentSpec[],
  Flags extends readonly FlagSpec[],
  ReadsConfig extends boolean = true,
> {
  readonly args: ArgumentValues<Args>;
  readonly flags: FlagValues<Flags>;
  readonly globals: ReadsConfig extends false ? CommandLineGlobals : LoadedGlobals;
  /**
   * Tells the user something about the flags that does not stop the command (a deprecated spelling): written
   * on stderr as `warning: …` at once (before any usage error the step throws after it), or kept by the seam.
   */
  readonly warn: (message: string) => void;
}

/**
 * A leaf command's declaration, typed from its `arguments`, `flags` and `readsConfig`; `Options` is what its
 * options step returns and its run step takes.
 */
export interface LeafDeclaration<
  Args extends readonly ArgumentSpec[],
  Flags extends readonly FlagSpec[],
  Options,
  ReadsConfig extends boolean = true,
> {
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
  /**
   * False: runs without loading the configuration (`ctx.config` is not available, and `options` is given the
   * global flags as typed); see {@link CommandSpec}.
   */
  readonly readsConfig?: ReadsConfig;
  /** True: its output reports the configuration's warnings; see {@link CommandSpec}. */
  readonly reportsConfigWarnings?: boolean;
  /**
   * The options step: the arguments, the flags and the global options it needs, as one narrow options object.
   * Pure: no context, no IO, no network, no import; a bad flag is a `UsageError`. The configuration (unless
   * `readsConfig` is false) is loaded before it is called, and its errors come first.
   */
  options(input: OptionsInput<Args, Flags, ReadsConfig>): Options;
  /** The run step: with the options and the run's context, makes one library call and renders its result. */
  run(ctx: CliContext, options: Options): Promise<void>;
}

/** A leaf command from its declaration; its steps' parameter types follow from `arguments`, `flags` and `readsConfig`. */
export function leafCommand<
  const Args extends readonly ArgumentSpec[],
  const Flags extends readonly FlagSpec[],
  Options,
  const ReadsConfig extends boolean = true,
>(
  declaration: LeafDeclaration<Args, Flags, Options, ReadsConfig>,
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
    options: (input) => declaration.options(input as unknown as OptionsInput<Args, Flags, ReadsConfig>),
    run: (ctx, options) => declaration.run(ctx, options as Options),
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

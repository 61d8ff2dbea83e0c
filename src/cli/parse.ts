/**
 * The command line, parsed once against the command tree (`command_tree.ts`): what it asks for (help, the list
 * of global options, the version, or a command to run with its arguments and flags), or one usage error.
 *
 * The words are read left to right, one command at a time, as flytectl's (cobra's) users write them:
 *
 * - A command accepts its own flags (a parent's flags are the parent's: `get --filter.limit 3 task` works
 *   because `get` accepts `task`'s filters, hidden) and every global flag, so global flags go anywhere.
 * - `--flag value`, `--flag=value`, `-p value`, `-pvalue` and `-p=value`; a flag that takes a value takes the
 *   next word whatever it is (`-p -h` is the project `-h`). Switches combine (`-hp x`).
 * - A switch is `--x`, `--x=true|false` (also `t|f` and `1|0`, any case) and, where the tree declares it, `--no-x`.
 * - List and map flags accumulate when repeated (`--admin.scopes a --admin.scopes b`); any other flag given
 *   twice keeps the later value.
 * - In a group, the first word names the subcommand (or `help`); after an unknown flag none does, as the
 *   flag's value may follow it. In a leaf, words are its arguments, negative numbers included. `--` ends the
 *   flags: the words after it are a leaf's arguments (a group reads nothing after it).
 *
 * Help wins over everything else on the line: `-h`/`--help` anywhere before `--` (the help of the deepest
 * command named), `help [command...]` in place of a subcommand (`help options`: every global option), or a
 * group named without a subcommand. Then the program's `--version`. Then the first usage error: a flag's
 * missing or invalid value, an unknown command or flag (with the nearest names), missing or extra arguments.
 *
 * Only the groups a command line names are loaded ({@link LazyGroup}s): a mistyped name is suggested from the
 * names the tree holds without loading.
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";
import {
  acceptedFlags,
  COMMAND_TREE,
  commandLine,
  type CommandSpec,
  findSubcommand,
  type FlagSpec,
  flagTerm,
  GLOBAL_FLAGS,
  HELP_FLAG,
  loadCommand,
  ownFlags,
  VERSION_FLAG,
} from "./command_tree.ts";
import { didYouMean } from "./did_you_mean.ts";

/** What a command line asks for. */
export type ParsedCommandLine =
  /** The help screen of the last command of `path` (a path from the root of the tree). */
  | { readonly kind: "help"; readonly path: readonly CommandSpec[] }
  /** `fctl help options`: every global option. */
  | { readonly kind: "options" }
  | { readonly kind: "version" }
  | RunRequest;

/** A leaf command to run, with what the command line gave it. */
export interface RunRequest {
  readonly kind: "run";
  /** From the root to the leaf. */
  readonly path: readonly CommandSpec[];
  /** The leaf's positional values in declaration order: a string, undefined, or a variadic one's string[]. */
  readonly args: readonly unknown[];
  /**
   * The leaf's own flags that were given, by long name (`filter.limit`), including those given to a parent
   * that accepts them: a string, a boolean for a switch (`--no-x` sets `x` false), a string[] when repeated.
   */
  readonly flags: Readonly<Record<string, unknown>>;
  /** The global flags that were given, by option key (`admin.endpoint`), as the configuration loads them. */
  readonly globals: Readonly<Record<string, unknown>>;
}

/** The words of one command on the line that are not its flags: operands, and an unknown flag with what follows. */
interface Level {
  /** Words that are not flags, in order: a leaf's arguments, or a group's unknown subcommand. */
  readonly operands: string[];
  /** The first unknown flag and every word after it (none of them can name a subcommand). */
  readonly unknown: string[];
}

/**
 * A switch's `=value`s, lowercased (a Map: no `constructor` or `__proto__` is one): the forms flytectl's flags take
 * (Go's `strconv.ParseBool`: `true`, `t`, `1`, `false`, `f`, `0`), in any case.
 */
const BOOLEAN_TEXT: ReadonlyMap<string, boolean> = new Map([
  ["true", true],
  ["t", true],
  ["1", true],
  ["false", false],
  ["f", false],
  ["0", false],
]);

/** A number such as `-3` or `-.5e2`: an argument of a leaf, never a flag (no flag is a digit). */
const NEGATIVE_NUMBER = /^-(\d+|\d*\.\d+)([eE][+-]?\d+)?$/;

/** Whether `word` is written as a flag: a dash and more (a lone `-` is a word, for stdin). */
function looksLikeFlag(word: string): boolean {
  return word.length > 1 && word.startsWith("-");
}

/** What the flags of a command line gave: their values, and whether they asked for help or the version. */
class Given {
  /** Values of commands' own flags, by long name (`--no-x` sets `x`). */
  readonly locals = new Map<string, unknown>();
  /** Values of global flags, by option key. */
  readonly globals = new Map<string, unknown>();
  help = false;
  version = false;
  /** The first missing or invalid flag value: reported unless help or the version wins. */
  error: UsageError | undefined;

  /** Records `flag` given with `value` (undefined for a switch without `=`). */
  set(flag: FlagSpec, value: string | undefined): void {
    if (flag === HELP_FLAG) this.help = this.#switch(flag, value) || this.help;
    else if (flag === VERSION_FLAG) this.version = this.#switch(flag, value) || this.version;
    else {
      const values = GLOBAL_FLAGS.includes(flag) ? this.globals : this.locals;
      if (flag.long.startsWith("no-")) values.set(flag.long.slice(3), false);
      else if (!flag.value) values.set(flag.long, this.#switch(flag, value));
      else if (!flag.repeated) values.set(flag.long, value);
      else {
        const previous = values.get(flag.long);
        values.set(flag.long, [...(Array.isArray(previous) ? previous : []), value]);
      }
    }
  }

  /** A switch's value: true, or the `=true|false` given. */
  #switch(flag: FlagSpec, value: string | undefined): boolean {
    if (value === undefined) return true;
    const parsed = BOOLEAN_TEXT.get(value.toLowerCase());
    if (parsed !== undefined) return parsed;
    this.error ??= new UsageError(`invalid value ${quote(value)} for --${flag.long}: expected true or false`);
    return false;
  }
}

/**
 * Reads the flag `words[at]` for the last command of `path`. Returns the index of the next word to read, or
 * `undefined` when the word is no flag of the command (an unknown flag, or not a flag at all). A group of
 * switches (`-hx`) is read one letter at a time: `words[at]` becomes the rest (`-x`), read next.
 */
function readFlag(words: string[], at: number, path: readonly CommandSpec[], given: Given): number | undefined {
  const word = words[at];
  const flags = acceptedFlags(path);
  const exact = flags.find((f) => `--${f.long}` === word || (f.short !== undefined && `-${f.short}` === word));
  if (exact) {
    if (!exact.value) {
      given.set(exact, undefined);
      return at + 1;
    }
    if (at + 1 >= words.length) {
      given.error ??= new UsageError(`option '${flagTerm(exact)}' argument missing`);
      return at + 1;
    }
    given.set(exact, words[at + 1]);
    return at + 2;
  }
  if (!word.startsWith("--") && word.length > 2) {
    const short = flags.find((f) => f.short === word[1]);
    if (!short) return undefined;
    if (short.value) {
      // `-pvalue`, or pflag's `-p=value`.
      given.set(short, word.slice(word[2] === "=" ? 3 : 2));
      return at + 1;
    }
    given.set(short, undefined);
    words[at] = `-${word.slice(2)}`;
    return at;
  }
  const eq = word.indexOf("=");
  if (eq <= 2) return undefined;
  const named = flags.find((f) => `--${f.long}` === word.slice(0, eq));
  // `--no-x=…` is no form of any flag.
  if (!named || named.long.startsWith("no-")) return undefined;
  given.set(named, word.slice(eq + 1));
  return at + 1;
}

/** The usage error for the unknown flag `word` of the last command of `path`, with the nearest visible flags. */
function unknownOption(word: string, path: readonly CommandSpec[]): UsageError {
  const visible = [...ownFlags(path), ...GLOBAL_FLAGS].filter((f) => !f.hidden).map((f) => `--${f.long}`);
  const suggestion = word.startsWith("--") ? didYouMean(word, visible) : "";
  return new UsageError(`unknown option '${word}'${suggestion}`);
}

/** The usage error for the unknown subcommand `word` of `group`, with its nearest subcommands. */
function unknownCommand(word: string, group: CommandSpec): UsageError {
  const names = group.subcommands.flatMap((c) => [c.name, ...c.aliases]);
  return new UsageError(`unknown command '${word}'${didYouMean(word, names)}`);
}

/** Follows `words` down from `path` (for `help get task`), loading the groups it enters. */
async function helpPath(path: readonly CommandSpec[], words: readonly string[]): Promise<CommandSpec[]> {
  const resolved = [...path];
  for (const word of words) {
    const parent = resolved[resolved.length - 1];
    const next = findSubcommand(parent, word);
    if (!next) {
      const name = quote(commandLine(resolved));
      if (parent.subcommands.length === 0) throw new UsageError(`${name} has no subcommands, got ${quote(word)}`);
      const valid = parent.subcommands.map((c) => c.name).join(", ");
      throw new UsageError(`unknown command ${quote(word)} for ${name}; expected one of: ${valid}`);
    }
    resolved.push(await loadCommand(next));
  }
  return resolved;
}

/** A leaf's positional values from its operands, or the usage error of too few or too many. */
function argumentValues(leaf: CommandSpec, operands: readonly string[]): unknown[] {
  const declared = leaf.arguments;
  declared.forEach((argument, i) => {
    if (argument.required && operands[i] === undefined) {
      throw new UsageError(`missing required argument '${argument.name}'`);
    }
  });
  if (!declared.at(-1)?.variadic && operands.length > declared.length) {
    const s = declared.length === 1 ? "" : "s";
    throw new UsageError(
      `too many arguments for '${leaf.name}'. Expected ${declared.length} argument${s} but got ` +
        `${operands.length}: ${operands.join(", ")}.`,
    );
  }
  return declared.map((argument, i) => argument.variadic ? operands.slice(i) : operands[i]);
}

/**
 * Parses `words` (the arguments after the program's name) against the command tree rooted at `root`.
 *
 * @throws {UsageError} the first usage error of the line (unless it asks for help or the version)
 */
export async function parseCommandLine(
  words: readonly string[],
  root: CommandSpec = COMMAND_TREE,
): Promise<ParsedCommandLine> {
  const line = [...words];
  const path: CommandSpec[] = [root];
  const given = new Given();
  let level: Level = { operands: [], unknown: [] };
  /** After `help` in place of a subcommand, the operands are the command path to show help for. */
  let helpWords = false;
  let at = 0;
  while (at < line.length) {
    const word = line[at];
    const command = path[path.length - 1];
    const group = command.subcommands.length > 0;
    if (word === "--") {
      // A leaf's arguments follow; a group (or `help`) reads nothing after it: no command follows `--`.
      if (!group) (level.unknown.length > 0 ? level.unknown : level.operands).push(...line.slice(at + 1));
      break;
    }
    if (looksLikeFlag(word)) {
      const next = readFlag(line, at, path, given);
      if (next !== undefined) {
        at = next;
        continue;
      }
    }
    at++;
    // The first unknown flag, and every word after it: a word may be its value, so none names a command.
    if (level.unknown.length > 0 || (looksLikeFlag(word) && (group || !NEGATIVE_NUMBER.test(word)))) {
      level.unknown.push(word);
      continue;
    }
    const sub = group && !helpWords && level.operands.length === 0 ? findSubcommand(command, word) : undefined;
    if (sub) {
      path.push(await loadCommand(sub));
      level = { operands: [], unknown: [] };
    } else if (group && !helpWords && level.operands.length === 0 && word === "help") {
      helpWords = true;
    } else {
      level.operands.push(word);
    }
  }

  if (helpWords) {
    if (level.operands.length === 1 && level.operands[0] === "options" && path.length === 1) return { kind: "options" };
    return { kind: "help", path: await helpPath(path, level.operands) };
  }
  if (given.help) return { kind: "help", path };
  if (given.version) return { kind: "version" };
  if (given.error) throw given.error;
  const command = path[path.length - 1];
  if (command.subcommands.length > 0) {
    if (level.operands.length > 0) throw unknownCommand(level.operands[0], command);
    if (level.unknown.length > 0) throw unknownOption(level.unknown[0], path);
    return { kind: "help", path };
  }
  if (level.unknown.length > 0) throw unknownOption(level.unknown[0], path);
  const args = argumentValues(command, level.operands);
  const flags: Record<string, unknown> = {};
  for (const flag of command.flags) {
    if (given.locals.has(flag.long)) flags[flag.long] = given.locals.get(flag.long);
  }
  return { kind: "run", path, args, flags, globals: Object.fromEntries(given.globals) };
}

/**
 * Recognizing, from the raw arguments alone, command lines that only ask for help or the version,
 * so they are answered without loading commander (see `command_tree.ts` for why that matters).
 *
 * Help is asked for by `-h`/`--help` anywhere before `--` (the help of the deepest command named
 * before it), by `help [command...]` in place of a subcommand (`fctl help options`: every global option), or by naming a command group
 * without a subcommand (`fctl`, `fctl get`), as flytectl prints help there. Everything else is
 * left to commander, including unknown commands, whose errors suggest the nearest name.
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
  loadCommand,
} from "./command_tree.ts";

/** What a command line asks for when it can be answered without parsing it fully. */
export type QuickRequest =
  | { kind: "help"; path: CommandSpec[] }
  /** `fctl help options`: every global option. */
  | { kind: "options" }
  | { kind: "version" };

/** The flag `token` names among `flags`, and whether it carries its value inline (`--x=1`, `-pfoo`). */
function matchFlag(token: string, flags: readonly FlagSpec[]): { flag: FlagSpec; inline: boolean } | undefined {
  if (token.startsWith("--")) {
    const eq = token.indexOf("=");
    const name = token.slice(2, eq < 0 ? undefined : eq);
    const flag = flags.find((f) => f.long === name);
    return flag && { flag, inline: eq >= 0 };
  }
  const flag = flags.find((f) => f.short === token[1]);
  if (!flag || (token.length > 2 && !flag.value)) return undefined;
  return { flag, inline: token.length > 2 };
}

/** Follows `words` down from `path` (for `help get task`), loading the groups it enters. */
async function resolvePath(path: readonly CommandSpec[], words: readonly string[]): Promise<CommandSpec[]> {
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

/**
 * The help or version request `args` make, or `undefined` when the command line is for commander. The groups
 * the command line names are loaded on the way (their flags decide which words are values); no other is.
 *
 * @throws {UsageError} `help` names a command that does not exist
 */
export async function quickRequest(args: readonly string[]): Promise<QuickRequest | undefined> {
  const path: CommandSpec[] = [COMMAND_TREE];
  let help = false;
  let version = false;
  /** After an unknown option or word, later words may be its value: the path is no longer known. */
  let lost = false;
  let helpWords: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const token = args[i];
    if (token === "--") break;
    if (token === "-h" || token === "--help") {
      help = true;
      continue;
    }
    const command = path[path.length - 1];
    if (token.startsWith("-") && token !== "-") {
      const match = matchFlag(token, acceptedFlags(path));
      if (!match) lost = true;
      else if (match.flag.value && !match.inline) {
        // A value flag at the very end is missing its value: commander says so.
        if (++i >= args.length) lost = true;
      } else if (match.flag.long === "version" && path.length === 1) version = true;
      continue;
    }
    if (lost) continue;
    if (helpWords) helpWords.push(token);
    else if (command.subcommands.length === 0) continue; // a positional argument of a leaf command
    else if (token === "help") helpWords = [];
    else {
      const next = findSubcommand(command, token);
      if (next) path.push(await loadCommand(next));
      else lost = true;
    }
  }
  if (helpWords?.length === 1 && helpWords[0] === "options" && path.length === 1) return { kind: "options" };
  if (helpWords) return { kind: "help", path: await resolvePath(path, helpWords) };
  if (help) return { kind: "help", path };
  if (version) return { kind: "version" };
  if (!lost && path[path.length - 1].subcommands.length > 0) return { kind: "help", path };
  return undefined;
}

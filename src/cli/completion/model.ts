/**
 * What a shell completes, read off the command tree once for every shell script: each command's path,
 * its subcommands (names and aliases), its own flags, and what its positional arguments take. The global
 * flags are completed everywhere. Hidden flags are accepted but never offered.
 *
 * @module
 */
import type { FlagSpec, LoadedCommand } from "../command.ts";
import { GLOBAL_FLAGS, ownFlags } from "../global_flags.ts";

/** One command as completion sees it. */
export interface CompletionNode {
  /** Canonical path below the program, words joined by spaces (`get task`); `""` for the program. */
  path: string;
  description: string;
  /** Subcommands, each under its name and every alias, with `help` on every group. */
  subcommands: { word: string; path: string; description: string }[];
  /** Its own visible flags, `--help` included (the global ones are {@link CompletionModel.globals}). */
  flags: FlagSpec[];
  /** Values of its positional argument, if it names them; else `files` says whether paths are offered. */
  argumentChoices?: readonly string[];
  /** Whether its arguments are paths (or anything), so the shell offers files. */
  files: boolean;
}

/** The whole tree for completion. */
export interface CompletionModel {
  program: string;
  nodes: CompletionNode[];
  /** Global flags, visible ones, offered after every command. */
  globals: FlagSpec[];
}

/** The completion model of `root`, a whole tree (fctl's is `loadCommandTree(COMMAND_TREE)`). */
export function completionModel(root: LoadedCommand): CompletionModel {
  const nodes: CompletionNode[] = [];
  const visit = (commands: LoadedCommand[], path: string[]) => {
    const spec = commands[commands.length - 1];
    const here = path.join(" ");
    const subcommands = spec.subcommands.flatMap((sub) =>
      [sub.name, ...sub.aliases].map((word) => ({
        word,
        path: [...path, sub.name].join(" "),
        description: sub.description,
      }))
    );
    if (spec.subcommands.length > 0) {
      subcommands.push({ word: "help", path: [...path, "help"].join(" "), description: "display help for a command" });
    }
    const own = ownFlags(commands).filter((f) => !f.hidden);
    const choices = spec.arguments.find((a) => a.choices)?.choices;
    nodes.push({
      path: here,
      description: spec.description,
      subcommands,
      flags: own,
      argumentChoices: choices,
      files: spec.subcommands.length === 0 && spec.arguments.length > 0 && !choices,
    });
    for (const sub of spec.subcommands) visit([...commands, sub], [...path, sub.name]);
  };
  visit([root], []);
  return { program: root.name, nodes, globals: GLOBAL_FLAGS.filter((f) => !f.hidden) };
}

/** Every flag spelling (`-p`, `--project`) of `flags` that takes a value. */
export function valueFlagWords(flags: readonly FlagSpec[]): string[] {
  return flags.filter((f) => f.value).flatMap((f) => [...(f.short ? [`-${f.short}`] : []), `--${f.long}`]);
}

/** Every spelling of `flags`, short ones first. */
export function flagWords(flags: readonly FlagSpec[]): string[] {
  return flags.flatMap((f) => [...(f.short ? [`-${f.short}`] : []), `--${f.long}`]);
}

/**
 * The help screen of a command, rendered from the command tree. Both the fast help path and
 * commander (through its `formatHelp` hook) print this text, so help reads the same however it is asked for.
 *
 * @module
 */
import { displayWidth } from "../output/text_width.ts";
import { type CommandSpec, type FlagSpec, flagTerm, GLOBAL_FLAGS, ownFlags } from "./command_tree.ts";

/** A help screen's term column: `name`, `-p, --project <value>`, `get`, with its description. */
interface Item {
  term: string;
  description: string;
}

/** Narrower than this, a description column beside the terms is harder to read than one under them. */
const MIN_DESCRIPTION_WIDTH = 30;

/** Indent of descriptions set under their terms. */
const STACKED_INDENT = 6;

/** The usage line's command name: parents, then the command with its aliases (`fctl get task|tasks`). */
function commandName(path: readonly CommandSpec[]): string {
  const own = path[path.length - 1];
  const parents = path.slice(0, -1).map((c) => c.name);
  return [...parents, [own.name, ...own.aliases].join("|")].join(" ");
}

function argumentsTerm(command: CommandSpec): string {
  return command.arguments
    .map((a) => {
      const name = `${a.name}${a.variadic ? "..." : ""}`;
      return a.required ? `<${name}>` : `[${name}]`;
    })
    .join(" ");
}

function usage(path: readonly CommandSpec[]): string {
  const command = path[path.length - 1];
  const parts = [commandName(path), "[options]"];
  if (command.subcommands.length > 0) parts.push("[command]");
  const args = argumentsTerm(command);
  if (args) parts.push(args);
  return `Usage: ${parts.join(" ")}`;
}

function sections(path: readonly CommandSpec[]): [string, Item[]][] {
  const command = path[path.length - 1];
  const flagItem = (flag: FlagSpec): Item => ({ term: flagTerm(flag), description: flag.help });
  const local = ownFlags(path).filter((f) => !f.hidden);
  const result: [string, Item[]][] = [
    ["Arguments:", command.arguments.map((a) => ({ term: a.name, description: a.help }))],
    ["Options:", local.map(flagItem)],
    ["Global options:", GLOBAL_FLAGS.filter((f) => !f.hidden).map(flagItem)],
  ];
  if (command.subcommands.length > 0) {
    const commands = command.subcommands.map((c) => ({
      term: [[c.name, ...c.aliases].join("|"), argumentsTerm(c)].filter(Boolean).join(" "),
      description: c.description,
    }));
    commands.push({ term: "help [command...]", description: "display help for a command" });
    result.push(["Commands:", commands]);
  }
  return result.filter(([, items]) => items.length > 0);
}

/** Splits `text` into lines of at most `width` columns, breaking between words (a longer word gets its own line). */
function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  // Piped help is not wrapped: no widths to measure.
  if (width === Infinity) return words.length > 0 ? [words.join(" ")] : [];
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The lines of one section's items, terms aligned within the section. With `columns`, descriptions are
 * wrapped to fit: beside their terms when there is room, else each under its term.
 */
function itemLines(items: readonly Item[], columns: number | undefined): string[] {
  const termWidth = Math.max(...items.map((i) => displayWidth(i.term)));
  const besideIndent = 2 + termWidth + 2;
  const stacked = columns !== undefined && columns - besideIndent < MIN_DESCRIPTION_WIDTH;
  const indent = " ".repeat(stacked ? STACKED_INDENT : besideIndent);
  const width = columns === undefined ? Infinity : Math.max(columns - indent.length, MIN_DESCRIPTION_WIDTH);
  return items.flatMap(({ term, description }) => {
    const lines = wrap(description, width);
    if (stacked) return [`  ${term}`, ...lines.map((l) => `${indent}${l}`)];
    const padded = `  ${term}${" ".repeat(termWidth - displayWidth(term) + 2)}`;
    return [`${padded}${lines[0] ?? ""}`.trimEnd(), ...lines.slice(1).map((l) => `${indent}${l}`)];
  });
}

/**
 * The help screen of the last command of `path` (a path from the root of the command tree).
 * `columns` is a terminal's width to fit; without it lines are left whole, so piped help can be grepped.
 */
export function renderHelp(path: readonly CommandSpec[], columns?: number): string {
  const { description } = path[path.length - 1];
  const fit = (text: string, indent = "") =>
    columns === undefined ? [text] : wrap(text, columns - indent.length).map((l, i) => (i === 0 ? l : indent + l));
  const out = [...fit(usage(path), " ".repeat("Usage: ".length)), "", ...fit(description), ""];
  for (const [title, items] of sections(path)) out.push(title, ...itemLines(items, columns), "");
  const examples = path[path.length - 1].examples ?? [];
  // Examples are command lines: never wrapped, so they can be copied whole.
  if (examples.length > 0) out.push("Examples:", ...examples.map((line) => `  ${line}`), "");
  return out.join("\n");
}

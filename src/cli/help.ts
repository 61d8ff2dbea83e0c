/**
 * The help screen of a command, rendered from the command tree. Every way of asking for help (`-h`, `--help`,
 * `help [command...]`, a group without a subcommand) is parsed to a command's path and prints this text.
 * A command's screen lists its own flags and the few global options it uses; `fctl help options`
 * ({@link renderOptionsHelp}) lists every global option.
 *
 * @module
 */
import { displayWidth } from "../output/text_width.ts";
import {
  type CommandNode,
  type CommandSpec,
  type FlagSpec,
  flagTerm,
  GLOBAL_FLAGS,
  helpGlobalFlags,
  isLoaded,
  ownFlags,
  PROGRAM_NAME,
} from "./command_tree.ts";

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

/** A command's arguments as help shows them: `[name]`, `<paths...>`; nothing for a group, loaded or not. */
function argumentsTerm(command: CommandNode): string {
  if (!isLoaded(command)) return "";
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

const flagItem = (flag: FlagSpec): Item => ({ term: flagTerm(flag), description: flag.help });

/** The line under a command's global options, pointing at the rest. */
export const OPTIONS_POINTER =
  `Run "${PROGRAM_NAME} help options" for every global option (connection, auth, storage, logging).`;

function sections(path: readonly CommandSpec[]): [string, Item[]][] {
  const command = path[path.length - 1];
  const local = ownFlags(path).filter((f) => !f.hidden);
  const result: [string, Item[]][] = [
    ["Arguments:", command.arguments.map((a) => ({ term: a.name, description: a.help }))],
    ["Options:", local.map(flagItem)],
    ["Global options:", helpGlobalFlags(path).map(flagItem)],
    ["Environment:", (command.environment ?? []).map((v) => ({ term: v.name, description: v.help }))],
  ];
  if (command.subcommands.length > 0) {
    const commands = command.subcommands.map((c) => ({
      term: [[c.name, ...c.aliases].join("|"), argumentsTerm(c)].filter(Boolean).join(" "),
      description: c.description,
    }));
    commands.push({
      term: "help [command...]",
      description: "display help for a command (`help options`: every global option)",
    });
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
  for (const [title, items] of sections(path)) {
    out.push(title, ...itemLines(items, columns));
    if (title === "Global options:") {
      out.push(
        ...(columns === undefined ? [OPTIONS_POINTER] : wrap(OPTIONS_POINTER, columns - 2)).map((l) => `  ${l}`),
      );
    }
    out.push("");
  }
  const examples = path[path.length - 1].examples ?? [];
  // Piped, an example is its line: fitting one to a terminal is the work (and the compiling) of exampleLines.
  const exampleOut = columns === undefined
    ? examples.map((line) => `  ${line}`)
    : examples.flatMap((line) => exampleLines(line, columns));
  if (examples.length > 0) out.push("Examples:", ...exampleOut, "");
  return out.join("\n");
}

/**
 * One example's lines. An example is a command line, so one too wide for the terminal is still one the
 * shell reads whole: its comment (`  # …`) goes on the lines before it, and it breaks between words with
 * ` \` continuations.
 */
function exampleLines(example: string, columns: number | undefined): string[] {
  const indent = "  ";
  if (columns === undefined || displayWidth(indent + example) <= columns) return [indent + example];
  const hash = example.indexOf("  # ");
  const command = hash < 0 ? example : example.slice(0, hash);
  const comment = hash < 0
    ? []
    : wrap(example.slice(hash + 4), columns - indent.length - 2).map((l) => `${indent}# ${l}`);
  const continued = `${indent}  `;
  const lines = wrap(command, columns - continued.length - 2);
  return [
    ...comment,
    ...lines.map((l, i) => `${i === 0 ? indent : continued}${l}${i < lines.length - 1 ? " \\" : ""}`),
  ];
}

/** The sections of `fctl help options`: the schema's top-level options, then one per key prefix (`admin.`, …). */
export function globalOptionGroups(): [string, FlagSpec[]][] {
  const groups = new Map<string, FlagSpec[]>();
  for (const flag of GLOBAL_FLAGS.filter((f) => !f.hidden)) {
    const dot = flag.long.indexOf(".");
    const title = dot < 0 ? "General" : flag.long.slice(0, dot);
    groups.set(title, [...(groups.get(title) ?? []), flag]);
  }
  return [...groups];
}

/** The description atop `fctl help options`. */
export const OPTIONS_DESCRIPTION = "Global options: every command accepts them, before or after its name. " +
  "Each is also a config-file key (admin.endpoint is `admin: {endpoint: …}`) and an environment variable " +
  "(shown with each option); flags win over the environment, which wins over the file.";

/** `fctl help options`: every global option, grouped by the section of the config file it belongs to. */
export function renderOptionsHelp(columns?: number): string {
  const fit = (text: string) => (columns === undefined ? [text] : wrap(text, columns));
  const out = [`Usage: ${PROGRAM_NAME} [options] <command>`, "", ...fit(OPTIONS_DESCRIPTION), ""];
  for (const [title, flags] of globalOptionGroups()) {
    out.push(`${title === "General" ? title : `${title}.*`}:`, ...itemLines(flags.map(flagItem), columns), "");
  }
  return out.join("\n");
}

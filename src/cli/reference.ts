/**
 * The command reference as Markdown, one page per command (`docs/reference/fctl_get_task.md`) and one for the
 * global options (`options.md`), generated from the command tree like the help screens, so the committed
 * pages cannot drift from what fctl accepts (`deno task reference` writes them, `deno task test` checks them).
 *
 * @module
 */
import {
  COMMAND_TREE,
  commandLine,
  type CommandSpec,
  type FlagSpec,
  flagTerm,
  helpGlobalFlags,
  loadCommandTree,
  type LoadedCommand,
  ownFlags,
  PROGRAM_NAME,
} from "./command_tree.ts";
import { globalOptionGroups, OPTIONS_DESCRIPTION } from "./help.ts";

/** The page of the global options. */
export const OPTIONS_PAGE = "options.md";

const GENERATED = "<!-- Generated from the command tree by scripts/gen_reference.ts: do not edit. -->";

/** The page name of the command at `path`: `fctl_get_task.md`. */
export function pageName(path: readonly CommandSpec[]): string {
  return `${path.map((c) => c.name).join("_")}.md`;
}

/** `text` safe in a Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("|", "\\|").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function flagTable(flags: readonly FlagSpec[]): string[] {
  return [
    "| Flag | Description |",
    "| --- | --- |",
    ...flags.map((f) => `| \`${flagTerm(f).replaceAll("|", "\\|")}\` | ${cell(f.help)} |`),
  ];
}

function usage(path: readonly CommandSpec[]): string {
  const command = path[path.length - 1];
  const name = [...path.slice(0, -1).map((c) => c.name), [command.name, ...command.aliases].join("|")].join(" ");
  const args = command.arguments.map((a) => {
    const n = `${a.name}${a.variadic ? "..." : ""}`;
    return a.required ? `<${n}>` : `[${n}]`;
  });
  return [name, "[options]", ...(command.subcommands.length > 0 ? ["[command]"] : []), ...args].join(" ");
}

function commandPage(path: readonly LoadedCommand[]): string {
  const command = path[path.length - 1];
  const out = [GENERATED, "", `# ${commandLine(path)}`, "", command.description, "", "```", usage(path), "```", ""];
  if (command.arguments.length > 0) {
    out.push("## Arguments", "", "| Argument | Description |", "| --- | --- |");
    out.push(...command.arguments.map((a) => `| \`${a.name}\` | ${cell(a.help)} |`), "");
  }
  out.push("## Options", "", ...flagTable(ownFlags(path).filter((f) => !f.hidden)), "");
  const globals = helpGlobalFlags(path);
  out.push("## Global options", "");
  if (globals.length > 0) out.push(...flagTable(globals), "");
  out.push(`Every global option: [${PROGRAM_NAME} help options](${OPTIONS_PAGE}).`, "");
  if ((command.environment ?? []).length > 0) {
    out.push("## Environment", "", "| Variable | Description |", "| --- | --- |");
    out.push(...command.environment!.map((v) => `| \`${v.name}\` | ${cell(v.help)} |`), "");
  }
  if (command.subcommands.length > 0) {
    out.push("## Commands", "");
    for (const sub of command.subcommands) {
      out.push(`- [${commandLine([...path, sub])}](${pageName([...path, sub])}): ${sub.description}`);
    }
    out.push("");
  }
  if ((command.examples ?? []).length > 0) out.push("## Examples", "", "```sh", ...command.examples!, "```", "");
  if (path.length > 1) {
    const parent = path.slice(0, -1);
    out.push("## See also", "", `- [${commandLine(parent)}](${pageName(parent)})`, "");
  }
  return out.join("\n");
}

function optionsPage(): string {
  const out = [GENERATED, "", `# ${PROGRAM_NAME} help options`, "", OPTIONS_DESCRIPTION, ""];
  for (const [title, flags] of globalOptionGroups()) {
    out.push(`## ${title === "General" ? title : `${title}.*`}`, "", ...flagTable(flags), "");
  }
  out.push(`Back to [${PROGRAM_NAME}](${pageName([COMMAND_TREE])}).`, "");
  return out.join("\n");
}

/** Every page of the reference, by file name. */
export async function referencePages(): Promise<Map<string, string>> {
  const pages = new Map<string, string>([[OPTIONS_PAGE, optionsPage()]]);
  const visit = (path: LoadedCommand[]) => {
    pages.set(pageName(path), commandPage(path));
    for (const sub of path[path.length - 1].subcommands) visit([...path, sub]);
  };
  visit([await loadCommandTree(COMMAND_TREE)]);
  return pages;
}

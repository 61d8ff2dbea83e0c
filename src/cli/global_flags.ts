/**
 * The flags of every command: the option schema's (global: any command accepts them, before or after its
 * name), `-h, --help`, and the program's `--version`; and which flags a command accepts. Apart from the tree
 * (`command_tree.ts`), so that what reads them, the completion scripts among them, does not import the tree.
 *
 * @module
 */
import { envName, OPTIONS, type OptionSpec } from "../config/schema.ts";
import type { CommandSpec, FlagSpec } from "./command.ts";

/** `-h, --help`, on every command. */
export const HELP_FLAG: FlagSpec = { long: "help", short: "h", help: "display help for command" };

/** `--version`, on the program only (subcommands use `--version <version>` for entity versions). */
export const VERSION_FLAG: FlagSpec = { long: "version", help: "print the fctl version" };

const VALUE_NAME: Record<OptionSpec["type"], string | undefined> = {
  string: "<value>",
  boolean: undefined,
  int: "<n>",
  enum: "<value>",
  duration: "<duration>",
  strings: "<values>",
  map: "<key=value>",
};

function defaultText(spec: OptionSpec): string {
  const value = spec.default;
  if (value === "" || (Array.isArray(value) && value.length === 0)) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return "";
  return ` (default ${typeof value === "string" ? value : JSON.stringify(value)})`;
}

function optionHelp(spec: OptionSpec): string {
  const deprecated = spec.deprecated ? `deprecated (${spec.deprecated}): ` : "";
  return `${deprecated}${spec.help}${defaultText(spec)} [env ${envName(spec)}]`;
}

/**
 * The flags of the option schema, accepted by every command (before and after subcommand names).
 * Each boolean also has a hidden `--no-` form; lists and maps accumulate when repeated.
 */
export const GLOBAL_FLAGS: readonly FlagSpec[] = globalFlags(OPTIONS as readonly OptionSpec[]);

/**
 * The flags of `specs`. A plain loop with the optional keys set after the literal, not spreads in a `flatMap`:
 * every start builds these, `fctl --help`'s included, before V8 has optimized anything.
 */
function globalFlags(specs: readonly OptionSpec[]): FlagSpec[] {
  const flags: FlagSpec[] = [];
  for (const spec of specs) {
    const flag: { -readonly [K in keyof FlagSpec]: FlagSpec[K] } = {
      long: spec.key,
      short: spec.short,
      value: VALUE_NAME[spec.type],
      // Written when help or completion reads it: every command line parses against these flags, few show them.
      get help() {
        return optionHelp(spec);
      },
    };
    if (spec.choices) flag.choices = spec.choices;
    if (spec.type === "strings" || spec.type === "map") flag.repeated = true;
    flags.push(flag);
    if (spec.type === "boolean") flags.push({ long: `no-${spec.key}`, help: "", hidden: true });
  }
  return flags;
}

/** The flags of the last command of `path` that are not global: version at the root, its own, and help. */
export function ownFlags(path: readonly CommandSpec[]): FlagSpec[] {
  return [...(path.length === 1 ? [VERSION_FLAG] : []), ...path[path.length - 1].flags, HELP_FLAG];
}

/** Every flag the last command of `path` accepts, hidden ones included: its own and the global ones. */
export function acceptedFlags(path: readonly CommandSpec[]): FlagSpec[] {
  return [...ownFlags(path), ...GLOBAL_FLAGS];
}

/** The flag text as help shows it: `-p, --project <value>`. */
export function flagTerm(flag: FlagSpec): string {
  return `${flag.short ? `-${flag.short}, ` : ""}--${flag.long}${flag.value ? ` ${flag.value}` : ""}`;
}

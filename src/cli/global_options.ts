/**
 * Turns the option schema into commander options, and commander's parsed values back into
 * schema keys. Commander never applies defaults itself: an option it did not see stays
 * undefined so that the config file and environment can supply it (see `loadConfig`).
 *
 * @module
 */
import { type Command, Option } from "commander";
import { envName, OPTIONS, type OptionSpec } from "../config/schema.ts";
import { quote, UsageError } from "../errors.ts";

function defaultText(spec: OptionSpec): string {
  const value = spec.default;
  if (value === "" || (Array.isArray(value) && value.length === 0)) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return "";
  return ` (default ${typeof value === "string" ? value : JSON.stringify(value)})`;
}

function helpText(spec: OptionSpec): string {
  const deprecated = spec.deprecated ? `deprecated (${spec.deprecated}): ` : "";
  return `${deprecated}${spec.help}${defaultText(spec)} [env ${envName(spec)}]`;
}

const VALUE_NAME: Record<OptionSpec["type"], string> = {
  string: "<value>",
  boolean: "",
  int: "<n>",
  enum: "<value>",
  duration: "<duration>",
  strings: "<values>",
  map: "<key=value>",
};

/** Repeated list and map flags accumulate (`--admin.scopes a --admin.scopes b`), as pflag's do. */
function accumulate(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? previous : []), value];
}

/**
 * Adds every schema option to `command`. The program uses positional options (so that a
 * subcommand's `--version` is not taken for the program's), so every command on the path
 * to a leaf gets them: they are then accepted before and after any subcommand name.
 */
export function addGlobalOptions(command: Command): void {
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const short = spec.short ? `-${spec.short}, ` : "";
    const value = VALUE_NAME[spec.type] ? ` ${VALUE_NAME[spec.type]}` : "";
    const option = new Option(`${short}--${spec.key}${value}`, helpText(spec)).helpGroup("Global options:");
    if (spec.type === "strings" || spec.type === "map") option.argParser(accumulate);
    command.addOption(option);
    if (spec.type === "boolean") command.addOption(new Option(`--no-${spec.key}`).hideHelp());
  }
}

/** Collects the schema values commander saw, keyed by schema key (undefined when not given). */
export function flagValues(command: Command): Record<string, unknown> {
  const opts = command.optsWithGlobals();
  const values: Record<string, unknown> = {};
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const attribute = new Option(`--${spec.key}`).attributeName();
    if (opts[attribute] !== undefined) values[spec.key] = opts[attribute];
  }
  return values;
}

/**
 * The boolean long flags of a command tree (schema options and local ones alike), each with
 * whether a `--no-` form exists.
 */
export function booleanFlags(root: Command): Map<string, boolean> {
  const flags = new Map<string, boolean>();
  const visit = (command: Command) => {
    for (const option of command.options) {
      if (!option.long || option.required || option.optional) continue;
      const name = option.long.slice(2);
      if (option.negate) flags.set(name.slice(3), true);
      else if (!flags.has(name)) flags.set(name, false);
    }
    command.commands.forEach(visit);
  };
  visit(root);
  return flags;
}

/**
 * Rewrites `--flag=true|false` for boolean flags into the forms commander knows (`--flag`, and
 * `--no-flag` or nothing); flytectl (cobra) users write both.
 */
export function normalizeBooleanFlags(args: readonly string[], flags: ReadonlyMap<string, boolean>): string[] {
  const out: string[] = [];
  for (const arg of args) {
    const match = /^--([^=]+)=(.*)$/.exec(arg);
    if (!match || !flags.has(match[1])) {
      out.push(arg);
      continue;
    }
    const value = match[2].toLowerCase();
    if (value === "true" || value === "1") out.push(`--${match[1]}`);
    else if (value === "false" || value === "0") {
      if (flags.get(match[1])) out.push(`--no-${match[1]}`);
    } else throw new UsageError(`invalid value ${quote(match[2])} for --${match[1]}: expected true or false`);
  }
  return out;
}

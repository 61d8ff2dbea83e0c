/**
 * Between the option schema and commander: which flags accumulate, commander's parsed values back
 * as schema keys, and cobra-style `--flag=true|false`. Commander never applies defaults itself: an
 * option it did not see stays undefined so that the config file and environment can supply it
 * (see `loadConfig`).
 *
 * @module
 */
import { type Command, Option } from "commander";
import { OPTIONS, type OptionSpec } from "../config/schema.ts";
import { quote, UsageError } from "../errors.ts";
import type { FlagSpec, LoadedCommand } from "./command.ts";
import { GLOBAL_FLAGS, VERSION_FLAG } from "./command_tree.ts";

const ACCUMULATING = new Set(
  (OPTIONS as readonly OptionSpec[]).filter((s) => s.type === "strings" || s.type === "map").map((s) => s.key),
);

/** Whether repeating the flag adds values (list and map options) instead of replacing the value. */
export function accumulatesValues(long: string): boolean {
  return ACCUMULATING.has(long);
}

/** Commander's attribute name of each long flag (`logger.show-source` → `logger.showSource`), made once. */
function attributeNames(longs: readonly string[]): ReadonlyMap<string, string> {
  return new Map(longs.map((long) => [long, new Option(`--${long}`).attributeName()]));
}

const SCHEMA_ATTRIBUTES = attributeNames((OPTIONS as readonly OptionSpec[]).map((spec) => spec.key));

/** The values commander saw for `longs` (with their attribute names), by long name; absent when not given. */
function valuesOf(command: Command, attributes: ReadonlyMap<string, string>): Record<string, unknown> {
  const opts = command.optsWithGlobals();
  const values: Record<string, unknown> = {};
  for (const [long, attribute] of attributes) {
    if (opts[attribute] !== undefined) values[long] = opts[attribute];
  }
  return values;
}

/** Collects the schema values commander saw, keyed by schema key (undefined when not given). */
export function flagValues(command: Command): Record<string, unknown> {
  return valuesOf(command, SCHEMA_ATTRIBUTES);
}

/**
 * The values of a command's local flags commander saw, by long name (a `--no-x` form sets `x`), including
 * those given before the subcommand's name to a parent that accepts them (`get --filter.limit 3 task`).
 */
export function localFlagValues(command: Command, flags: readonly FlagSpec[]): Record<string, unknown> {
  return valuesOf(command, attributeNames(flags.filter((f) => !f.long.startsWith("no-")).map((f) => f.long)));
}

/**
 * The boolean long flags of a command tree (schema options and local ones alike), each with whether a
 * `--no-` form exists: every switch any command of the tree accepts, as commander will see them.
 */
export function booleanFlags(root: LoadedCommand): Map<string, boolean> {
  const flags = new Map<string, boolean>();
  const visit = (path: LoadedCommand[]) => {
    const spec = path[path.length - 1];
    for (const flag of [...(path.length === 1 ? [VERSION_FLAG] : []), ...spec.flags, ...GLOBAL_FLAGS]) {
      if (flag.value) continue;
      if (flag.long.startsWith("no-")) flags.set(flag.long.slice(3), true);
      else if (!flags.has(flag.long)) flags.set(flag.long, false);
    }
    for (const sub of spec.subcommands) visit([...path, sub]);
  };
  visit([root]);
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

/**
 * What every `get` command shares on the command line: flytectl's `--filter.*` flags, their values as the
 * library's {@link ListOptions}, the library's refusals rewritten for those flags, and the "full page" hint.
 * Import-light (no npm package, no protos): the command modules declare their flags with it.
 *
 * @module
 */
import type { FlagSpec } from "./command.ts";
import type { CliContext } from "./context.ts";
import { type FlagOfOption, wholeNumber } from "./flag_values.ts";
import type { ListOptions } from "../get/list_query.ts";
import { printNote } from "../output/print.ts";
import { quote, UsageError } from "../errors.ts";

/** `--filter.*`, with an example selector for the entity and the listing's default sort key. */
export function filterFlags(selectorExample: string, defaultSortKey = "created_at") {
  return [
    { long: "filter.fieldSelector", value: "<selector>", help: `e.g. "${selectorExample}"` },
    { long: "filter.sortBy", value: "<field>", help: `sort key (default ${defaultSortKey})` },
    { long: "filter.asc", help: "sort ascending (default descending)" },
    { long: "no-filter.asc", help: "", hidden: true },
    { long: "filter.limit", value: "<n>", help: "page size (default 100)" },
    { long: "filter.page", value: "<n>", help: "page number, from 1 (default 1)" },
  ] as const satisfies readonly FlagSpec[];
}

/** The values of the `--filter.*` flags, as parsed. */
export interface FilterFlagValues {
  "filter.fieldSelector"?: string;
  "filter.sortBy"?: string;
  "filter.asc"?: boolean;
  "filter.limit"?: string;
  "filter.page"?: string;
}

/** The `--filter.*` flags as listing options; numbers that are not whole become NaN, which the library refuses. */
export function listOptions(flags: FilterFlagValues): ListOptions {
  return {
    fieldSelector: flags["filter.fieldSelector"],
    sortBy: flags["filter.sortBy"],
    asc: flags["filter.asc"] === true,
    limit: wholeNumber(flags["filter.limit"]),
    page: wholeNumber(flags["filter.page"]),
  };
}

/** Which flag each paging option of the library came from, for `flagError`. */
export function pagingFlags(flags: FilterFlagValues): Record<string, FlagOfOption> {
  return {
    limit: { flag: "filter.limit", raw: flags["filter.limit"] },
    page: { flag: "filter.page", raw: flags["filter.page"] },
  };
}

/**
 * After a full page, tells a terminal how to get the next one. FlyteAdmin gives a next-page token for every full
 * page, so a full page may also be the last: "may". Always on stderr: stdout keeps the listing.
 */
export function hintNextPage(ctx: CliContext, hasMore: boolean, plural: string, page: number): void {
  if (hasMore && ctx.io.stderrIsTerminal) {
    printNote(ctx.io, `a full page: there may be more ${plural}; add --filter.page ${page + 1} for the next`);
  }
}

/**
 * Refuses an empty name argument and an empty `--version` before any call: `fctl get workflow "$NAME"` with
 * `NAME` unset would otherwise list every entity of the project and domain, and `--version ""` be ignored.
 */
export function checkNameAndVersion(noun: string, name: string | undefined, version?: string): void {
  if (name !== undefined && name.trim() === "") {
    const article = /^[aeiou]/.test(noun) ? "an" : "a";
    throw new UsageError(`invalid ${noun} name ${quote(name)}: expected ${article} ${noun} name`);
  }
  if (version !== undefined && version.trim() === "") {
    throw new UsageError(`invalid value ${quote(version)} for --version: expected a version`);
  }
}

/**
 * The flag of a switch that selects one version of a named entity (`--latest`, workflow's `--version`), for
 * `flagError`: its refusal without a name says what to give, and that flytectl, which lists them all then, ignores
 * it (fctl refuses it: the listing is not what the flag asks for).
 */
export function oneVersionFlag(flag: string, command: string): FlagOfOption {
  const example = flag === "version" ? "--version V" : `--${flag}`;
  return {
    flag,
    hint: `give one (fctl get ${command} NAME ${example}), or leave --${flag} out to list them all (flytectl ` +
      "ignores it without a name)",
  };
}

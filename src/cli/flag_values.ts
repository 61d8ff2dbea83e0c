/**
 * Flag text to typed values, for command modules: the CLI converts, the library checks. A conversion
 * that fails yields a value the library refuses (NaN), so every rule has one place, and
 * {@link flagError} rewrites the library's refusal for the flag the user typed.
 *
 * @module
 */
import { InvalidOptionError, quote, UsageError } from "../errors.ts";

/** The number a whole-number flag's text stands for; NaN for anything else (`ten`, `1.5`); undefined if absent. */
export function wholeNumber(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  return /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
}

/** How a command names a library option: the flag's name and the text the user gave it. */
export interface FlagOfOption {
  flag: string;
  /** The flag's text; absent for a switch. */
  raw?: string;
  /** What to do instead, added to the refusal of a switch (`give one (…), or leave --latest out …`). */
  hint?: string;
}

/**
 * Rewrites a library's {@link InvalidOptionError} about one of `flags` (keyed by library option) for
 * the command line: `invalid value "0" for --filter.limit: expected a whole number of 1 or more`, or
 * for a switch `--latest needs a task name`. Any other error is returned unchanged.
 */
export function flagError(err: unknown, flags: Readonly<Record<string, FlagOfOption>>): unknown {
  if (!(err instanceof InvalidOptionError) || !Object.hasOwn(flags, err.detail.option)) return err;
  const { flag, raw, hint } = flags[err.detail.option];
  if (raw === undefined) return new UsageError(`--${flag} needs ${err.detail.expected}${hint ? `: ${hint}` : ""}`);
  return new UsageError(`invalid value ${quote(raw)} for --${flag}: expected ${err.detail.expected}`);
}

/**
 * Refuses each of `expected`'s flags given as the empty string, where an empty value names nothing (an id, a file,
 * a version): `invalid value "" for --id: expected a project id`. A flag whose empty value means "not set" (as
 * flytectl's text flags' do) is not one of them.
 *
 * @throws {UsageError} the first of them given empty
 */
export function refuseEmpty(
  flags: Readonly<Record<string, unknown>>,
  expected: Readonly<Record<string, string>>,
): void {
  for (const [flag, what] of Object.entries(expected)) {
    if (flags[flag] === "") throw new UsageError(`invalid value "" for --${flag}: expected ${what}`);
  }
}

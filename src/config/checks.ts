/**
 * Checks of a loaded configuration: the rules the loader cannot see (values only wrong together, or against the
 * outside world: files, the environment). Each domain module exports its checks, each the one place its rule
 * is written: its run-time site (connecting, building the HTTP client, a flow, opening storage) applies the same
 * rule, and `fctl config validate` runs the registry the command line assembles from them (`src/cli/config_checks.ts`).
 * This module only says what a check is: the configuration layer imports no domain's code.
 *
 * @module
 */
import { FctlError } from "../errors.ts";
import type { LoadedConfig } from "./load.ts";
import type { OptionKey } from "./schema.ts";

/** What a check reads: the loaded configuration, and the world a run would meet. */
export interface CheckInput {
  /** The configuration, with where each value came from. */
  loaded: LoadedConfig;
  /** The environment the command runs in (proxy variables, the variable `admin.clientSecretEnvVar` names). */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a file the configuration names (the CA file, the client secret file). */
  readTextFile: (path: string) => Promise<string>;
}

/** One rule of the configuration. */
export interface ConfigCheck {
  /** What it checks, unique in the registry. */
  name: string;
  /** The options it reads. */
  keys: readonly OptionKey[];
  /** What is wrong, one line each naming the value and what is valid; empty when nothing is. */
  problems(input: CheckInput): string[] | Promise<string[]>;
  /**
   * What is not wrong but limits what the configuration can do (no admin endpoint: only commands that call no
   * admin work), one line each; `config validate` lists them without failing.
   */
  notes?(input: CheckInput): string[];
}

/**
 * The problem a rule throws, as a list: how a check applies a rule written as its run-time site uses it (a
 * function that throws a {@link FctlError} naming the bad value). Any other error is a bug, and is thrown.
 */
export async function thrownProblems(rule: () => unknown): Promise<string[]> {
  try {
    await rule();
    return [];
  } catch (err) {
    if (!(err instanceof FctlError)) throw err;
    return [err.message];
  }
}

/** Every problem of `checks`, in their order. */
export async function configProblems(checks: readonly ConfigCheck[], input: CheckInput): Promise<string[]> {
  const found: string[] = [];
  for (const check of checks) found.push(...await check.problems(input));
  return found;
}

/** Every note of `checks`, in their order. */
export function configNotes(checks: readonly ConfigCheck[], input: CheckInput): string[] {
  return checks.flatMap((check) => check.notes?.(input) ?? []);
}

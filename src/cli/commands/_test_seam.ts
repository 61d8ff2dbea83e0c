/**
 * Test helpers for the command modules' options steps, through the runF seam (`parseToOptions`).
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import { UsageError } from "../../errors.ts";
import { parseToOptions } from "../run.ts";

/** The options the options step of the command `args` run makes (typed as the test expects them). */
export async function optionsOf<T = Record<string, unknown>>(args: string[]): Promise<T> {
  return (await parseToOptions(args)).options as T;
}

/** The message of the usage error `args` stop with, on the command line or in the command's options step. */
export async function usageError(args: string[]): Promise<string> {
  try {
    await parseToOptions(args);
  } catch (err) {
    assert(err instanceof UsageError, String(err));
    return err.message;
  }
  throw new Error(`${args.join(" ")} was accepted`);
}

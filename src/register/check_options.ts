/**
 * A registration's options checked, their defaults filled in: before anything is read or sent, and without
 * loading what decoding a package needs.
 *
 * @module
 */
import { InvalidOptionError, quote, UsageError } from "../errors.ts";
import { type CheckedOptions, DEFAULT_CONCURRENCY, type RegisterFilesOptions } from "./options.ts";

/**
 * The options with their defaults, once they are known to be usable.
 *
 * @throws {UsageError} no project, domain or paths
 * @throws {InvalidOptionError} a concurrency that is not a whole number from 1 to `Number.MAX_SAFE_INTEGER`
 */
export function checkOptions(options: RegisterFilesOptions): CheckedOptions {
  if (options.paths.length === 0) throw new UsageError("no files given to register");
  return checkSettings(options);
}

/**
 * What every registration needs whatever it registers: project, domain and concurrency (the default
 * filled in), and an empty version dropped. `registerExamples` checks these before asking GitHub anything.
 *
 * @throws {UsageError} no project or domain
 * @throws {InvalidOptionError} a concurrency that is not a whole number from 1 to `Number.MAX_SAFE_INTEGER`
 */
export function checkSettings<T extends Omit<RegisterFilesOptions, "paths">>(
  options: T,
): T & { concurrency: number } {
  if (options.project === "") throw new UsageError("project is required (-p/--project)");
  if (options.domain === "") throw new UsageError("domain is required (-d/--domain)");
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    // Past the largest exact integer a count is no number typed on purpose (`99999999999999999999` reads as 1e20).
    const expected = concurrency > Number.MAX_SAFE_INTEGER
      ? `a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`
      : "a whole number of at least 1";
    throw new InvalidOptionError(`invalid concurrency ${quote(concurrency)}: expected ${expected}`, {
      option: "concurrency",
      value: concurrency,
      expected,
    });
  }
  // An empty version (a config file's default) means "not given": entities keep the versions they have.
  return { ...options, concurrency, version: options.version || undefined };
}

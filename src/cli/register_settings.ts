/**
 * The one place where `register` local flags and their `--files.*` twins (config file, environment,
 * global flags) are merged: a local flag wins over its twin.
 *
 * @module
 */
import type { Config } from "../config/schema.ts";
import { quote, UsageError } from "../errors.ts";
import type { RegisterFilesOptions } from "../register/register_files.ts";
import type { RegisterFlags } from "./commands/register.ts";

/** Default of `--concurrency`. */
export const DEFAULT_CLI_CONCURRENCY = 8;

/** Every `register` setting, resolved; `paths` and `project`/`domain` come from elsewhere. */
export type RegisterSettings =
  & Required<
    Pick<
      RegisterFilesOptions,
      | "archive"
      | "force"
      | "dryRun"
      | "continueOnError"
      | "enableSchedule"
      | "concurrency"
    >
  >
  & Pick<
    RegisterFilesOptions,
    | "version"
    | "assumableIamRole"
    | "k8sServiceAccount"
    | "outputLocationPrefix"
    | "sourceUploadPath"
    | "destinationDirectory"
  >;

/** An empty string means "not set" for text options (it is every text option's schema default). */
const text = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== "") ?? undefined;

/**
 * Merges local flags over `files.*`.
 *
 * @throws {UsageError} `--concurrency` is not a whole number of at least 1
 */
export function registerSettings(config: Config, local: RegisterFlags): RegisterSettings {
  return {
    archive: local.archive ?? config["files.archive"],
    force: local.force ?? config["files.force"],
    dryRun: local.dryRun ?? config["files.dryRun"],
    continueOnError: local.continueOnError ?? config["files.continueOnError"],
    enableSchedule: local.enableSchedule ?? config["files.enableSchedule"],
    version: text(local.version, config["files.version"]),
    assumableIamRole: text(local.assumableIamRole, config["files.assumableIamRole"]),
    // The deprecated spelling (flytectl's typo) still works, at the lowest precedence of its source.
    k8sServiceAccount: text(
      local.k8sServiceAccount,
      local.k8ServiceAccount,
      config["files.k8sServiceAccount"],
      config["files.k8ServiceAccount"],
    ),
    outputLocationPrefix: text(local.outputLocationPrefix, config["files.outputLocationPrefix"]),
    sourceUploadPath: text(local.sourceUploadPath, config["files.sourceUploadPath"]),
    destinationDirectory: text(local.destinationDirectory, config["files.destinationDirectory"]),
    concurrency: parseConcurrency(local.concurrency),
  };
}

function parseConcurrency(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CLI_CONCURRENCY;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`invalid value ${quote(raw)} for --concurrency: expected a whole number of at least 1`);
  }
  return n;
}

/**
 * What `register files` and `register examples` share on the command line: their local flags, and the
 * one place where those flags and their `--files.*` twins (config file, environment, global flags) are
 * merged (a local flag wins over its twin). Import-light: the help screens read the flags.
 *
 * @module
 */
import type { Config } from "../config/schema.ts";
import type { RegisterFilesOptions } from "../register/register_files.ts";
import { type FlagSpec, type FlagValues, WIDE_FLAG } from "./command.ts";
import { wholeNumber } from "./flag_values.ts";

/** Flags both register commands take after `--version` (whose meaning differs). */
export const REGISTER_FLAGS = [
  { long: "force", help: "use --version for every entity, even those that carry a version" },
  { long: "dryRun", help: "read, check and plan, but register and upload nothing" },
  { long: "continueOnError", help: "keep registering after a failure (exit status 1 if anything failed)" },
  { long: "enableSchedule", help: "activate registered launch plans that have a schedule" },
  { long: "assumableIamRole", value: "<role>", help: "IAM role executions of the launch plans run as" },
  {
    long: "k8sServiceAccount",
    value: "<account>",
    help: "Kubernetes service account executions of the launch plans run as",
  },
  {
    long: "outputLocationPrefix",
    value: "<prefix>",
    help: "where executions of the launch plans write their outputs",
  },
  {
    long: "sourceUploadPath",
    value: "<location>",
    help: "where the source goes when the admin has no upload location",
  },
  {
    long: "destinationDirectory",
    value: "<dir>",
    help: "where the fast-registered source is unpacked in the container",
  },
  { long: "concurrency", value: "<n>", help: "most create calls in flight at once (default 64; 1 is one at a time)" },
  WIDE_FLAG,
  { long: "k8ServiceAccount", value: "<account>", help: "deprecated: use --k8sServiceAccount", hidden: true },
] as const satisfies readonly FlagSpec[];

/** The local flags of either register command. */
export type RegisterFlags = FlagValues<typeof REGISTER_FLAGS> & {
  readonly version?: string;
  readonly archive?: boolean;
};

/** Every `register` setting, resolved; `paths` and `project`/`domain` come from elsewhere. */
export type RegisterSettings =
  & Required<Pick<RegisterFilesOptions, "archive" | "force" | "dryRun" | "continueOnError" | "enableSchedule">>
  & Pick<
    RegisterFilesOptions,
    | "concurrency"
    | "version"
    | "assumableIamRole"
    | "k8sServiceAccount"
    | "outputLocationPrefix"
    | "sourceUploadPath"
    | "destinationDirectory"
  >;

/**
 * What either register command's options step makes of its flags and the global options: the project and domain,
 * every setting resolved, and how to show the report.
 */
export interface RegisterCommandOptions {
  project: string;
  domain: string;
  settings: RegisterSettings;
  /** `--concurrency` as typed, to name it in the library's refusal of its value. */
  concurrencyText?: string;
  wide: boolean;
}

/** An empty string means "not set" for text options (it is every text option's schema default). */
const text = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== "") ?? undefined;

/**
 * Merges local flags over `files.*`; `concurrency` is left to the library's default when not given.
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
    // Converted only: the rule (a whole number of at least 1) is the library's, mapped to the flag by the command.
    concurrency: wholeNumber(local.concurrency),
  };
}

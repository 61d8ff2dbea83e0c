/**
 * Definition of `register files|file` and `register examples`. Actions are loaded lazily.
 *
 * @module
 */
import { type Command, Option } from "commander";
import type { Io } from "../../output/io.ts";
import { commandContext } from "../context.ts";
import { loadLazy } from "../lazy.ts";

/**
 * Local flags shared by `register files` and `register examples`. Each has a `--files.*` twin in the
 * option schema (settable from the config file and environment); a local flag wins over its twin.
 */
export interface RegisterFlags {
  archive?: boolean;
  version?: string;
  force?: boolean;
  dryRun?: boolean;
  continueOnError?: boolean;
  enableSchedule?: boolean;
  assumableIamRole?: string;
  k8sServiceAccount?: string;
  k8ServiceAccount?: string;
  outputLocationPrefix?: string;
  sourceUploadPath?: string;
  destinationDirectory?: string;
  /** Raw text; validated with the rest when the action runs. */
  concurrency?: string;
}

/** Adds the flags both register commands take; `versionHelp` says what `--version` means for the command. */
function addRegisterFlags(command: Command, versionHelp: string): Command {
  const flags: [string, string][] = [
    ["--version <version>", versionHelp],
    ["--force", "use --version for every entity, even those that carry a version"],
    ["--dryRun", "read, check and plan, but register and upload nothing"],
    ["--continueOnError", "keep registering after a failure (exit status 1 if anything failed)"],
    ["--enableSchedule", "activate registered launch plans that have a schedule"],
    ["--assumableIamRole <role>", "IAM role executions of the launch plans run as"],
    ["--k8sServiceAccount <account>", "Kubernetes service account executions of the launch plans run as"],
    ["--outputLocationPrefix <prefix>", "where executions of the launch plans write their outputs"],
    ["--sourceUploadPath <location>", "where the source goes when the admin has no upload location"],
    ["--destinationDirectory <dir>", "where the fast-registered source is unpacked in the container"],
    ["--concurrency <n>", "most create calls in flight at once (default 8; 1 is one at a time)"],
  ];
  for (const [flags_, help] of flags) command.option(flags_, help);
  command.addOption(new Option("--k8ServiceAccount <account>", "deprecated: use --k8sServiceAccount").hideHelp());
  return command;
}

/** Adds the `register` subcommands under `register`. */
export function addRegisterCommands(register: Command, io: Io, signal: AbortSignal): void {
  const files = register
    .command("files")
    .alias("file")
    .description("register serialized .pb files, or .tar/.tgz/.tar.gz archives (paths or http(s) URLs) with --archive")
    .argument("<paths...>", ".pb files, or archives with --archive")
    .option("--archive", "the paths are .tar, .tgz or .tar.gz archives, local or http(s) URLs");
  addRegisterFlags(files, "version of the registered entities where the package leaves it open")
    .action(async (paths: string[], local: RegisterFlags, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      const { runRegisterFiles } = await loadLazy<typeof import("../register_files_action.ts")>("registerFiles");
      await runRegisterFiles(ctx, paths, local);
    });
  const examples = register
    .command("examples")
    .aliases(["example", "flytesnack", "flytesnacks"])
    .description("register the published Flyte example release (flytesnacks) from GitHub");
  addRegisterFlags(examples, "release tag to register, also the entities' version (default: the latest release)")
    .action(async (local: RegisterFlags, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      const { runRegisterExamples } = await loadLazy<typeof import("../register_examples_action.ts")>(
        "registerExamples",
      );
      await runRegisterExamples(ctx, local);
    });
}

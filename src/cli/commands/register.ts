/**
 * The actions of `register files|file` and `register examples` (flags declared in `command_tree.ts`). Their
 * implementations are loaded lazily.
 *
 * @module
 */
import type { Command } from "commander";
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

/** The action of `register files <paths...>`. */
export function registerFilesAction(io: Io, signal: AbortSignal) {
  return async (paths: string[], local: RegisterFlags, command: Command): Promise<void> => {
    const ctx = await commandContext(command, io, signal);
    const { runRegisterFiles } = await loadLazy<typeof import("../register_files_action.ts")>("registerFiles");
    await runRegisterFiles(ctx, paths, local);
  };
}

/** The action of `register examples`. */
export function registerExamplesAction(io: Io, signal: AbortSignal) {
  return async (local: RegisterFlags, command: Command): Promise<void> => {
    const ctx = await commandContext(command, io, signal);
    const { runRegisterExamples } = await loadLazy<typeof import("../register_examples_action.ts")>(
      "registerExamples",
    );
    await runRegisterExamples(ctx, local);
  };
}

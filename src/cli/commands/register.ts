/**
 * Definition of `register files|file` and `register examples`. Actions are loaded lazily.
 *
 * @module
 */
import type { Command } from "commander";
import { NotSupportedError } from "../../errors.ts";
import type { Io } from "../../output/io.ts";
import { commandContext } from "../context.ts";
import { loadLazy } from "../lazy.ts";

/** Local flags of `register files`. */
export interface RegisterFlags {
  archive?: boolean;
  version?: string;
  force?: boolean;
  dryRun?: boolean;
  continueOnError?: boolean;
}

/** Adds the `register` subcommands under `register`. */
export function addRegisterCommands(register: Command, io: Io, signal: AbortSignal): void {
  register
    .command("files")
    .alias("file")
    .description("register serialized .pb files, or .tar/.tgz/.tar.gz archives of them with --archive")
    .argument("<paths...>", ".pb files, or archives with --archive")
    .option("--archive", "the paths are .tar, .tgz or .tar.gz archives")
    .option("--version <version>", "version of the registered entities where the package leaves it open")
    .option("--force", "use --version for every entity, even those that carry a version")
    .option("--dryRun", "read, check and plan, but register nothing")
    .option("--continueOnError", "keep registering after a failure (exit status 1 if anything failed)")
    .action(async (paths: string[], local: RegisterFlags, command: Command) => {
      const ctx = await commandContext(command, io, signal);
      const { runRegisterFiles } = await loadLazy<typeof import("../register_files_action.ts")>("registerFiles");
      await runRegisterFiles(ctx, paths, local);
    });
  register
    .command("examples")
    .aliases(["example", "flytesnack", "flytesnacks"])
    .description("register the published Flyte example release (flytesnacks)")
    .option("--version <version>", "release tag to register (default: the latest release)")
    .action(() => {
      throw new NotSupportedError(
        "register examples is not available in this version yet; download a flytesnacks release and run " +
          "`fctl register files --archive <file> --version <tag>`",
      );
    });
}

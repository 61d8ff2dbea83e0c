/**
 * What every command action starts from: the resolved configuration, the IO and a cancel signal.
 *
 * @module
 */
import type { Command } from "commander";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { flagValues } from "./global_options.ts";

/** Shared inputs of a command action. */
export interface CommandContext {
  io: Io;
  loaded: LoadedConfig;
  config: Config;
  /** Aborted when the user presses Ctrl-C. */
  signal: AbortSignal;
}

/** Resolves the configuration for `command` from its flags, the environment and the config file. */
export async function commandContext(command: Command, io: Io, signal: AbortSignal): Promise<CommandContext> {
  const loaded = await loadConfig({ flags: flagValues(command), env: io.env, readTextFile: io.readTextFile });
  return { io, loaded, config: loaded.config, signal };
}

/** Project and domain, which every entity command needs, checked before any connection is made. */
export function requireProjectDomain(config: Config): { project: string; domain: string } {
  if (!config.project || !config.domain) throw new UsageError("project and domain are required parameters");
  return { project: config.project, domain: config.domain };
}

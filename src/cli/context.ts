/**
 * What every command action starts from: the resolved configuration, the IO, the logger and a cancel signal.
 *
 * @module
 */
import type { Command } from "commander";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import { type Config, OPTIONS, type OptionSpec } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { Io } from "../output/io.ts";
import { createLogger, type Logger } from "../log/logger.ts";
import type { Redactor } from "../log/redact.ts";
import type { FormatterType } from "../log/format.ts";
import { flagValues } from "./global_options.ts";
import { describeConfig } from "../config/describe.ts";
import { sessionOf } from "./run_session.ts";

/** Shared inputs of a command action. */
export interface CommandContext {
  io: Io;
  loaded: LoadedConfig;
  config: Config;
  /** Aborted when the user presses Ctrl-C. */
  signal: AbortSignal;
  /** The configured logger (stderr). */
  log: Logger;
  /** Register every secret learned later (tokens, client secrets) here: it is redacted from all output. */
  secrets: Redactor;
}

/**
 * The logger and secrets of each loaded configuration, so that `connectAdmin(loaded)` (whose signature
 * command actions already use) can log and redact without a new parameter.
 */
const RUNTIME = new WeakMap<LoadedConfig, CommandRuntime>();

/** What a command's configuration brings along besides values. */
export interface CommandRuntime {
  log: Logger;
  secrets: Redactor;
  /** The process environment (proxy variables). */
  env: Readonly<Record<string, string | undefined>>;
}

/** The logger and redactor that belong to a loaded configuration, if it came from {@link commandContext}. */
export function runtimeOf(loaded: LoadedConfig): CommandRuntime | undefined {
  return RUNTIME.get(loaded);
}

/** Registers every secret the configuration holds or points at. */
async function registerSecrets(loaded: LoadedConfig, io: Io, secrets: Redactor): Promise<void> {
  const values = loaded.config as unknown as Record<string, unknown>;
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    if (spec.secret && typeof values[spec.key] === "string") secrets.add(values[spec.key] as string);
  }
  const envVar = loaded.config["admin.clientSecretEnvVar"];
  if (envVar) secrets.add(io.env[envVar]);
  try {
    // The client secret file is read here only to know what to hide; the auth flow reads it for use.
    secrets.add(await io.readTextFile(loaded.config["admin.clientSecretLocation"]));
  } catch {
    // Absent or unreadable: nothing to hide, and the auth flow reports it if it needs the secret.
  }
}

/** Resolves the configuration for `command` from its flags, the environment and the config file. */
export async function commandContext(command: Command, io: Io, signal: AbortSignal): Promise<CommandContext> {
  const session = sessionOf(io);
  // Secrets given as flags must be hidden even if loading fails on another value.
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const raw = flagValues(command)[spec.key];
    if (spec.secret && typeof raw === "string") session.redactor.add(raw);
  }
  const loaded = await loadConfig({ flags: flagValues(command), env: io.env, readTextFile: io.readTextFile });
  await registerSecrets(loaded, io, session.redactor);
  const config = loaded.config;
  const log = createLogger({
    sink: io.stderr,
    level: config["logger.level"],
    formatter: config["logger.formatter.type"] as FormatterType,
    mute: config["logger.mute"],
    showSource: config["logger.show-source"],
    redactor: session.redactor,
  });
  session.logger = log;
  for (const warning of loaded.warnings) log.warn(warning);
  if (log.enabled(5)) {
    const set = describeConfig(loaded).filter((row) => row.source !== "default");
    log.debug("configuration loaded", {
      file: loaded.file ?? "none",
      options: Object.fromEntries(set.map((row) => [row.key, `${row.value} (${row.source})`])),
    });
  }
  RUNTIME.set(loaded, { log, secrets: session.redactor, env: io.env });
  return { io, loaded, config, signal, log, secrets: session.redactor };
}

/** Project and domain, which every entity command needs, checked before any connection is made. */
export function requireProjectDomain(config: Config): { project: string; domain: string } {
  if (!config.project || !config.domain) throw new UsageError("project and domain are required parameters");
  return { project: config.project, domain: config.domain };
}

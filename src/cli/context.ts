/**
 * The context of one `fctl` run (in the spirit of GitHub CLI's Factory): built by `runCli`, handed to the
 * command that runs, closed by `runCli` when it ends. It holds the IO (redacting every secret the run learns),
 * the abort signal, the clock, the global flags, and once they are loaded the app (`src/app/`): the loaded
 * configuration, its logger and the clients commands share, each made on first use. Tests inject their own
 * dependencies through {@link CliDeps}. Nothing about a run lives anywhere else.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { type App, type AppDeps, loadApp } from "../app/app.ts";
import type { AdminWithAuth } from "../app/connect_admin.ts";
import { startupLogger } from "../app/logger.ts";
import { redactingIo } from "../app/redacting_io.ts";
import { registerOptionSecrets } from "../app/secrets.ts";
import type { LoadedConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Logger } from "../log/logger.ts";
import { Redactor } from "../log/redact.ts";
import type { Io } from "../output/io.ts";

/** Time, injected so that commands are testable at a fixed instant. */
export interface Clock {
  /** The wall-clock time (exec spec file headers). */
  now(): Date;
  /** Milliseconds on a monotonic clock (durations, progress redraws). */
  monotonic(): number;
}

/** The process clock. */
export const SYSTEM_CLOCK: Clock = { now: () => new Date(), monotonic: () => performance.now() };

/** Dependencies given to `runCli` instead of the ones built from the configuration; the caller closes them. */
export interface CliDeps extends AppDeps {
  /** The clock; default {@link SYSTEM_CLOCK}. */
  clock?: Clock;
}

/** Everything a command may use; one per run. */
export class CliContext {
  /** stdout and stderr pass through secret redaction; the rest is the process's. */
  readonly io: Io;
  /** The process environment (the config file location, `FCTL_*`, proxy variables, `GITHUB_TOKEN`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Every secret learned (flags, config, tokens) is registered here and never written anywhere. */
  readonly secrets: Redactor = new Redactor();
  /** Aborted when the user presses Ctrl-C. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  #startupLogger: Logger;
  #app?: App;
  #deps: CliDeps;

  /** A context writing through `io`; `deps` replace the dependencies built from the configuration. */
  constructor(io: Io, signal: AbortSignal, deps: CliDeps = {}) {
    this.io = redactingIo(io, this.secrets);
    this.env = io.env;
    this.signal = signal;
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.#deps = deps;
    this.#startupLogger = startupLogger(this.io.stderr, this.secrets);
  }

  /** The logger (stderr): warnings only until the configuration is loaded, then as configured. */
  get logger(): Logger {
    return this.#app?.logger ?? this.#startupLogger;
  }

  /** The app of the loaded configuration: its clients, made on first use. */
  get app(): App {
    if (!this.#app) throw new Error("the configuration is read before it was loaded");
    return this.#app;
  }

  /** The loaded configuration, with the origin of every value. */
  get loaded(): LoadedConfig {
    return this.app.loaded;
  }

  /** The configuration's values. */
  get config(): Config {
    return this.loaded.config;
  }

  /**
   * Loads the configuration from the global flags and makes the run's app (see `loadApp`). Its warnings
   * (unknown keys, deprecated options) are logged at every level unless muted (see `Logger.configWarning`),
   * except with `reportWarnings: false`, for a command whose own output reports them (`config validate`).
   */
  async loadConfig(
    flags: Readonly<Record<string, unknown>>,
    options: { reportWarnings?: boolean } = {},
  ): Promise<LoadedConfig> {
    this.#app = await loadApp(flags, {
      io: this.io,
      secrets: this.secrets,
      signal: this.signal,
      deps: this.#deps,
      reportWarnings: options.reportWarnings,
    });
    return this.#app.loaded;
  }

  /**
   * Takes the global flags of a command that reads no configuration (`config init`), without reading any: their
   * secrets are redacted, the logger stays at warnings, and {@link config} is not available (the command's
   * options step is given the flags as typed).
   */
  useFlagsWithoutConfig(flags: Readonly<Record<string, unknown>>): void {
    registerOptionSecrets(this.secrets, flags);
  }

  /** The app's admin client (see `App.admin`); `connectNow` opens the connection before its modules load. */
  admin(options: { connectNow?: boolean } = {}): Promise<AdminClient> {
    return this.app.admin(options);
  }

  /** The app's admin client with its auth, for `fctl auth …` (see `App.adminWithAuth`). */
  adminWithAuth(): Promise<AdminWithAuth> {
    return this.app.adminWithAuth();
  }

  /** The app's HTTP client (see `App.http`). */
  http(): Promise<HttpClient> {
    return this.app.http();
  }

  /** Closes what the run's app made (never what was injected). */
  async close(): Promise<void> {
    await this.#app?.close();
  }
}

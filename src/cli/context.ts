/**
 * The context of one `fctl` run (in the spirit of GitHub CLI's Factory): built by `runCli`, handed to the
 * command that runs, closed by `runCli` when it ends. It holds the IO (redacting every secret it learns),
 * the logger, the environment, the loaded configuration, and the dependencies commands share, created on
 * first use from the configuration and cached: the admin client, the HTTP client, the clock. Tests inject
 * their own dependencies through {@link CliDeps}. Nothing about a run lives anywhere else.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import type { AdminWithAuth } from "./connect_admin.ts";
import type { LoadedConfig } from "../config/load.ts";
import { type Config, OPTIONS, type OptionSpec } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { FormatterType } from "../log/format.ts";
import { createLogger, type Logger } from "../log/logger.ts";
import { Redactor, urlPasswords } from "../log/redact.ts";
import type { Io, TextSink } from "../output/io.ts";
import { storageSecrets } from "../storage/secrets.ts";

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
export interface CliDeps {
  /** The admin client every command uses (e.g. one connected to a test admin), instead of `admin.*`. */
  admin?: AdminClient;
  /** The HTTP client for downloads, the GitHub API and uploads (e.g. one whose `fetch` serves a fake API). */
  http?: HttpClient;
  /** The clock; default {@link SYSTEM_CLOCK}. */
  clock?: Clock;
}

function redacting(sink: TextSink, redactor: Redactor): TextSink {
  return { write: (text) => sink.write(redactor.redact(text)) };
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
  #logger: Logger;
  #loaded?: LoadedConfig;
  /** The global flags of the command line, as given. */
  #flags: Readonly<Record<string, unknown>> = {};
  #deps: CliDeps;
  #admin?: Promise<AdminWithAuth>;
  #http?: Promise<HttpClient>;
  /** Closes what this context created (never what was injected). */
  #closers: (() => void)[] = [];

  /** A context writing through `io`; `deps` replace the dependencies built from the configuration. */
  constructor(io: Io, signal: AbortSignal, deps: CliDeps = {}) {
    this.io = { ...io, stdout: redacting(io.stdout, this.secrets), stderr: redacting(io.stderr, this.secrets) };
    this.env = io.env;
    this.signal = signal;
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.#deps = deps;
    this.#logger = createLogger({ sink: this.io.stderr, level: 3, formatter: "json", redactor: this.secrets });
  }

  /** The logger (stderr): warnings only until the configuration is loaded, then as configured. */
  get logger(): Logger {
    return this.#logger;
  }

  /** The loaded configuration, with the origin of every value. */
  get loaded(): LoadedConfig {
    if (!this.#loaded) throw new Error("the configuration is read before it was loaded");
    return this.#loaded;
  }

  /** The configuration's values. */
  get config(): Config {
    return this.loaded.config;
  }

  /**
   * Loads the configuration (defaults < file < environment < `flags`), registers every secret it holds or
   * points at, and configures the logger. Its warnings (unknown keys, deprecated options) are logged at every
   * level unless muted (see `Logger.configWarning`), except with `reportWarnings: false`, for a command
   * whose own output reports them (`config validate`).
   */
  async loadConfig(
    flags: Readonly<Record<string, unknown>>,
    options: { reportWarnings?: boolean } = {},
  ): Promise<LoadedConfig> {
    // Secrets given as flags must be hidden even if loading fails on another value.
    for (const spec of OPTIONS as readonly OptionSpec[]) {
      const raw = flags[spec.key];
      if (spec.secret && typeof raw === "string") this.secrets.add(raw);
      if (typeof raw === "string") { for (const password of urlPasswords(raw)) this.secrets.add(password); }
    }
    this.#flags = flags;
    // Loaded here, not at start-up: `fctl --help` never reads a configuration.
    const { loadConfig } = await import("../config/load.ts");
    const loaded = await loadConfig({ flags, env: this.env, readTextFile: this.io.readTextFile });
    await this.#registerSecrets(loaded);
    const config = loaded.config;
    const log = createLogger({
      sink: this.io.stderr,
      level: config["logger.level"],
      formatter: config["logger.formatter.type"] as FormatterType,
      mute: config["logger.mute"],
      showSource: config["logger.show-source"],
      redactor: this.secrets,
    });
    this.#logger = log;
    this.#loaded = loaded;
    if (options.reportWarnings !== false) { for (const warning of loaded.warnings) log.configWarning(warning); }
    if (log.enabled(5)) {
      const [{ describeConfig }, { shownUrl }] = await Promise.all([
        import("../config/describe.ts"),
        import("../http/fetch_error.ts"),
      ]);
      const set = describeConfig(loaded).filter((row) => row.source !== "default");
      // A URL's query and user information may carry secrets (`admin.tokenUrl`'s `?secret=…`): never logged.
      const shown = (value: string) => URL.canParse(value) ? shownUrl(value) : value;
      log.debug("configuration loaded", {
        file: loaded.file ?? "none",
        options: Object.fromEntries(set.map((row) => [row.key, `${shown(row.value)} (${row.source})`])),
      });
    }
    return loaded;
  }

  /**
   * Takes the global flags of a command that reads no configuration (`config init`), without reading any:
   * the logger stays at warnings, and {@link config} is not available.
   */
  useFlagsWithoutConfig(flags: Readonly<Record<string, unknown>>): void {
    for (const spec of OPTIONS as readonly OptionSpec[]) {
      if (spec.secret && typeof flags[spec.key] === "string") this.secrets.add(flags[spec.key] as string);
    }
    this.#flags = flags;
  }

  /** `-c`/`--config` as given on the command line, if it was. */
  get commandLineConfigFile(): string | undefined {
    const value = this.#flags["config"];
    return typeof value === "string" && value !== "" ? value : undefined;
  }

  /** Project and domain, which every entity command needs, checked before any connection is made. */
  projectDomain(): { project: string; domain: string } {
    const { project, domain } = this.config;
    if (!project || !domain) throw new UsageError("project and domain are required parameters");
    return { project, domain };
  }

  /**
   * The admin client of the configuration (endpoint, TLS, proxy, retries), made on first use. With
   * `connectNow` (a command that calls the admin whatever happens next), the first use opens the connection
   * before the client's modules load, so that the handshakes overlap loading them.
   */
  admin(options: { connectNow?: boolean } = {}): Promise<AdminClient> {
    if (this.#deps.admin) return Promise.resolve(this.#deps.admin);
    return this.#adminWithAuth(options).then((made) => made.client);
  }

  /**
   * The admin client of the configuration with its auth (flow, token cache), for `fctl auth …`; not with an
   * injected admin client, whose auth is not fctl's.
   */
  adminWithAuth(): Promise<AdminWithAuth> {
    if (this.#deps.admin) throw new Error("the auth commands use the configured admin client, not an injected one");
    return this.#adminWithAuth({});
  }

  #adminWithAuth(options: { connectNow?: boolean }): Promise<AdminWithAuth> {
    this.#admin ??= (async () => {
      const { connectAdminWithAuth } = await import("./connect_admin.ts");
      const made = await connectAdminWithAuth(this.loaded, {
        logger: this.#logger,
        env: this.env,
        io: this.io,
        connectNow: options.connectNow,
        secrets: this.secrets,
        http: () => this.http(),
        interactive: { prompt: this.io.stderr, terminal: this.io.stderrIsTerminal, signal: this.signal },
        signal: this.signal,
      });
      this.#closers.push(() => made.client.close());
      return made;
    })();
    return this.#admin;
  }

  /** The HTTP client of the configuration (`admin.httpProxyURL` else the proxy variables, CA file), made on first use. */
  http(): Promise<HttpClient> {
    if (this.#deps.http) return Promise.resolve(this.#deps.http);
    this.#http ??= (async () => {
      const { connectHttp } = await import("./connect_http.ts");
      const client = await connectHttp(this.loaded, {
        env: this.env,
        io: this.io,
        logger: this.#logger,
        signal: this.signal,
      });
      this.#closers.push(() => client.close());
      return client;
    })();
    return this.#http;
  }

  /**
   * Closes every dependency this context created, newest first, once those still being made are made (a
   * command may fail while the admin client it started early is still loading: its connection is closed too).
   */
  async close(): Promise<void> {
    await Promise.allSettled([this.#admin, this.#http]);
    for (const close of this.#closers.splice(0).reverse()) close();
  }

  async #registerSecrets(loaded: LoadedConfig): Promise<void> {
    const values = loaded.config as unknown as Record<string, unknown>;
    for (const spec of OPTIONS as readonly OptionSpec[]) {
      const value = values[spec.key];
      if (spec.secret && typeof value === "string") this.secrets.add(value);
      // An endpoint or proxy URL may carry a password (`http://user:PASSWORD@host`), which errors would echo.
      if (typeof value === "string") { for (const password of urlPasswords(value)) this.secrets.add(password); }
    }
    // Storage credentials: the access key (not marked secret, as flytectl shows it) and stow.config's keys.
    for (
      const secret of storageSecrets({
        accessKey: loaded.config["storage.connection.access-key"],
        secretKey: loaded.config["storage.connection.secret-key"],
        stowConfig: loaded.config["storage.stow.config"],
        env: this.env,
      })
    ) this.secrets.add(secret);
    const envVar = loaded.config["admin.clientSecretEnvVar"];
    if (envVar) this.secrets.add(this.env[envVar]);
    try {
      // The client secret file is read here only to know what to hide; the auth flow reads it for use.
      this.secrets.add(await this.io.readTextFile(loaded.config["admin.clientSecretLocation"]));
    } catch {
      // Absent or unreadable: nothing to hide, and the auth flow reports it if it needs the secret.
    }
  }
}

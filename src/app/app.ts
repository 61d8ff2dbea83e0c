/**
 * The application layer between a front end (the command line, the library's `connect`) and the domain: from the
 * option values given, it loads the configuration, registers every secret it holds or points at, configures the
 * logger, and builds on first use what commands and library callers share: the admin client (with its auth and
 * token cache) and the HTTP client. Nothing here knows about commands, flags' spelling or exit codes.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Logger } from "../log/logger.ts";
import type { Redactor } from "../log/redact.ts";
import type { Io } from "../output/io.ts";
import type { AdminWithAuth } from "./connect_admin.ts";
import { configuredLogger } from "./logger.ts";
import { registerConfigSecrets, registerOptionSecrets } from "./secrets.ts";
import { adminUsesTls, prepareTlsAhead } from "./tls_ahead.ts";

/** Dependencies used instead of the ones built from the configuration; whoever gave them closes them. */
export interface AppDeps {
  /** The admin client to use (e.g. one connected to a test admin), instead of `admin.*`. */
  admin?: AdminClient;
  /** The HTTP client for downloads, the GitHub API and uploads (e.g. one whose `fetch` serves a fake API). */
  http?: HttpClient;
}

/** What an {@link App} is built with besides the option values. */
export interface AppInput {
  /** The run's IO, already redacting `secrets` (see `redactingIo`): logs and sign-in prompts go to its stderr. */
  io: Io;
  /** Every secret learned is registered here. */
  secrets: Redactor;
  /** Ends sign-ins, `admin.command`/`admin.proxyCommand` and HTTP calls (Ctrl-C). */
  signal: AbortSignal;
  deps?: AppDeps;
  /**
   * Whether the configuration's warnings are logged (default true); false for a command whose own output
   * reports them (`config validate`).
   */
  reportWarnings?: boolean;
}

/**
 * Loads the configuration (defaults < file < environment < `flags`), registering the secrets among `flags`
 * first (they must be hidden even if loading fails on another value), then every secret the configuration holds
 * or points at, and makes the logger it configures.
 *
 * @throws {UsageError} a config file that is missing or invalid, an invalid option value
 */
export async function loadApp(flags: Readonly<Record<string, unknown>>, input: AppInput): Promise<App> {
  registerOptionSecrets(input.secrets, flags);
  // `config/load.ts` is imported with this module, not by a dynamic import of its own: `fctl --help` never
  // loads this module, and a run that does needs both (a dynamic import is a module-graph load of its own).
  const loaded = await loadConfig({ flags, env: input.io.env, readTextFile: input.io.readTextFile });
  await registerConfigSecrets(input.secrets, loaded, input.io);
  const logger = await configuredLogger(loaded, input.io.stderr, input.secrets, input);
  return new App(loaded, logger, input);
}

/** A loaded configuration and the clients it makes, each on first use; {@link close} closes those it made. */
export class App {
  /** The loaded configuration, with the origin of every value. */
  readonly loaded: LoadedConfig;
  /** The logger the configuration sets up (stderr). */
  readonly logger: Logger;
  #input: AppInput;
  #admin?: Promise<AdminWithAuth>;
  #http?: Promise<HttpClient>;
  /** Closes what this app made (never what was injected). */
  #closers: (() => void)[] = [];

  constructor(loaded: LoadedConfig, logger: Logger, input: AppInput) {
    this.loaded = loaded;
    this.logger = logger;
    this.#input = input;
  }

  /** The configuration's values. */
  get config(): Config {
    return this.loaded.config;
  }

  /**
   * The admin client of the configuration (endpoint, TLS, proxy, retries, auth), made on first use. With
   * `connectNow` (a command that calls the admin whatever happens next), the first use opens the connection
   * before the client's modules load, so that the handshakes overlap loading them.
   */
  admin(options: { connectNow?: boolean } = {}): Promise<AdminClient> {
    const injected = this.#input.deps?.admin;
    if (injected) return Promise.resolve(injected);
    return this.#adminWithAuth(options).then((made) => made.client);
  }

  /**
   * The admin client of the configuration with its auth (flow, token cache), for `fctl auth …`; not with an
   * injected admin client, whose auth is not fctl's.
   */
  adminWithAuth(): Promise<AdminWithAuth> {
    if (this.#input.deps?.admin) {
      throw new Error("the auth commands use the configured admin client, not an injected one");
    }
    return this.#adminWithAuth({});
  }

  #adminWithAuth(options: { connectNow?: boolean }): Promise<AdminWithAuth> {
    const { io, secrets, signal } = this.#input;
    this.#admin ??= (async () => {
      // Before the client's modules load, so that TLS's set-up overlaps loading them.
      if (adminUsesTls(this.loaded)) prepareTlsAhead();
      const { connectAdminWithAuth } = await import("./connect_admin.ts");
      const made = await connectAdminWithAuth(this.loaded, {
        logger: this.logger,
        env: io.env,
        io,
        connectNow: options.connectNow,
        secrets,
        http: () => this.http(),
        interactive: { prompt: io.stderr, terminal: io.stderrIsTerminal, signal },
        signal,
      });
      this.#closers.push(() => made.client.close());
      return made;
    })();
    return this.#admin;
  }

  /** The HTTP client of the configuration (`admin.httpProxyURL` else the proxy variables, CA file), made on first use. */
  http(): Promise<HttpClient> {
    const injected = this.#input.deps?.http;
    if (injected) return Promise.resolve(injected);
    const { io, signal } = this.#input;
    this.#http ??= (async () => {
      const { connectHttp } = await import("./connect_http.ts");
      const client = await connectHttp(this.loaded, { env: io.env, io, logger: this.logger, signal });
      this.#closers.push(() => client.close());
      return client;
    })();
    return this.#http;
  }

  /**
   * Closes every client this app made, newest first, once those still being made are made (a command may fail
   * while the admin client it started early is still loading: its connection is closed too).
   */
  async close(): Promise<void> {
    await Promise.allSettled([this.#admin, this.#http]);
    for (const close of this.#closers.splice(0).reverse()) close();
  }
}

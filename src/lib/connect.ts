/**
 * {@link connect}: an admin client built as the `fctl` command line builds it, from the same config file,
 * option values and environment, with the same retries, TLS, proxy and auth flows (ClientSecret,
 * ExternalCommand, Pkce, DeviceFlow, `admin.proxyCommand`, the token cache).
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { loadApp } from "../app/app.ts";
import { denoIo } from "../app/deno_io.ts";
import { redactingIo } from "../app/redacting_io.ts";
import type { LoadedConfig } from "../config/load.ts";
import { KeySuggester } from "../config/nearest.ts";
import { OPTIONS } from "../config/schema.ts";
import { quote, UsageError } from "../errors.ts";
import type { HttpClient } from "../http/http_client.ts";
import { Redactor } from "../log/redact.ts";
import { hideSecrets, hidingSecrets } from "./hidden_secrets.ts";
import { type RegistrationStorage, registrationStorage } from "../app/registration_storage.ts";
import type { ObjectStore } from "../storage/store.ts";
import type { Io, TextSink } from "../output/io.ts";

/**
 * What {@link connect} builds the client from; everything the command line reads, each replaceable.
 *
 * ```ts
 * import { connect, type ConnectOptions } from "@fctl/fctl";
 *
 * // A service's client: its own file and secret, none of the user's environment, logs into its own logger.
 * const options: ConnectOptions = {
 *   config: "/etc/flyte/config.yaml",
 *   flags: { "admin.authType": "ClientSecret", "admin.clientSecretLocation": "/run/secrets/flyte" },
 *   env: {},
 *   log: { write: (line) => console.debug(line.trimEnd()) },
 * };
 * await using flyte = await connect(options);
 * ```
 */
export interface ConnectOptions {
  /**
   * The config file: a path (`~/` is `$HOME/`), which must exist; or `"default"` (the default): as `fctl`
   * finds it, `$FLYTECTL_CONFIG`, else `$HOME/.flyte/config.yaml` if there is one.
   */
  config?: string;
  /**
   * Option values by key, as `fctl`'s flags give them (`{ "admin.endpoint": "dns:///flyte.example.com" }`):
   * they win over the environment and the file. An unknown key is refused.
   */
  flags?: Readonly<Record<string, string | number | boolean>>;
  /**
   * The environment (`FCTL_*`, `FLYTECTL_CONFIG`, `HOME` for the token cache, proxies, variables that
   * `admin.clientSecretEnvVar` names, the storage's `GOOGLE_APPLICATION_CREDENTIALS` and AWS variables). Default: the
   * process's (read whole, which needs `--allow-env`); given, the process's is not read (but for what the AWS SDK
   * reads regardless: see the README's library section).
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Where log records go (retries at info level, warnings), one line each, as the `logger.*` options say,
   * secrets redacted; the Pkce and DeviceFlow sign-in prompts too. Default: stderr.
   */
  log?: TextSink;
  /** Aborts a sign-in that waits for the user, and every HTTP call of the connection's HTTP client (token requests included). */
  signal?: AbortSignal;
}

/**
 * A connected admin client and the configuration it was built from; close it when done (`await using` does).
 *
 * ```ts
 * import { connect } from "@fctl/fctl";
 *
 * const flyte = await connect();
 * try {
 *   const project = flyte.config.config.project || "flytesnacks";
 *   const domain = flyte.config.config.domain || "development";
 *   const { tasks } = await flyte.client.admin.listTasks({ id: { project, domain }, limit: 10 });
 *   console.log(tasks.map((task) => task.id?.name), flyte.config.sources["admin.endpoint"]);
 * } finally {
 *   await flyte.close();
 * }
 * ```
 */
export interface FlyteConnection extends AsyncDisposable {
  /** The admin client, with the configured retries and auth: pass it to `getTask`, `registerFiles`, … */
  readonly client: AdminClient;
  /** The configuration, with the origin of every value (`config.project`, `config.domain`, …). */
  readonly config: LoadedConfig;
  /** The HTTP client of the configuration (proxy, CA) for downloads and uploads, made on first use. */
  http(): Promise<HttpClient>;
  /**
   * Where uploads go as the command line sends them: the HTTP client, and the configured storage (`storage.*`) for
   * an admin that offers no upload location, opened on first use. Pass it as `registerFiles`'s deps and as
   * `createExecution`'s `upload`; the same object each call.
   *
   * @throws {UsageError} `storage.allow-local-fallback` with an admin that is not on this machine
   */
  uploads(): ConnectionUploads;
  /** Closes the admin client, the HTTP client and the storage. */
  close(): Promise<void>;
}

/**
 * What {@link FlyteConnection.uploads} gives: `registerFiles`'s deps (the fast-registration source, packages in
 * storage) and `createExecution`'s `upload` (local file and directory inputs), from the connection's configuration.
 *
 * ```ts
 * import { connect, type ConnectionUploads, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const uploads: ConnectionUploads = flyte.uploads();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options, undefined, uploads);
 * console.log(report.source?.via); // "dataProxy", or "storage" when the admin offers no upload location
 * ```
 */
export interface ConnectionUploads {
  /** The connection's HTTP client (its proxy and CA), made on first use. */
  http: HttpClient;
  /** The configured storage, its settings checked and opened on first use. */
  openStorage: () => Promise<ObjectStore>;
  /** `storage.allow-local-fallback`: `local` or `mem` storage may take uploads (an admin on this machine only). */
  allowLocalStorage: boolean;
}

/** `~/x` as `$HOME/x`, as a shell would. */
function expandHome(path: string, env: Readonly<Record<string, string | undefined>>): string {
  if (path !== "~" && !path.startsWith("~/")) return path;
  const home = env["HOME"];
  if (!home) throw new UsageError(`cannot find config file ${quote(path)}: HOME is not set`);
  return `${home.replace(/\/+$/, "")}${path.slice(1)}`;
}

function checkKeys(flags: Readonly<Record<string, unknown>>): void {
  const keys: string[] = OPTIONS.map((option) => option.key);
  for (const key of Object.keys(flags)) {
    if (keys.includes(key)) continue;
    throw new UsageError(`unknown option ${quote(key)}${new KeySuggester(keys).didYouMean(key)}`);
  }
}

/**
 * Builds an admin client from the config file, option values and environment, as the `fctl` command line
 * does: the same precedence (defaults < file < environment < `flags`), the same errors (a
 * {@link UsageError} naming the bad value), retries of `UNAVAILABLE` and the other retryable codes
 * (`admin.maxRetries`, `admin.perRetryTimeout`), and the configured auth flow, which runs when the admin
 * first asks for a token. Unlike the rest of the library, it reads the process by default: the environment
 * and the files the configuration names. No error it, its client or the HTTP client throws holds a secret (a
 * password in a URL, the client secret, a token, which a server may echo): each is `[redacted]`.
 *
 * ```ts
 * import { connect, getTask } from "@fctl/fctl";
 *
 * await using flyte = await connect({ config: "~/.flyte/config.yaml" });
 * const result = await getTask(flyte.client, {
 *   project: flyte.config.config.project || "flytesnacks",
 *   domain: flyte.config.config.domain || "development",
 *   name: "core.basic.hello",
 *   latest: true,
 * });
 * if (result.kind === "one") console.log(result.task.id?.version);
 * ```
 *
 * @throws {UsageError} a config file that is missing or invalid, an unknown or invalid option value.
 */
export async function connect(options: ConnectOptions = {}): Promise<FlyteConnection> {
  const processIo = denoIo(options.env);
  const env = processIo.env;
  const flags: Record<string, unknown> = { ...options.flags };
  checkKeys(flags);
  if (options.config === "") {
    // Names no file and is not "default": refused rather than guessed to mean either.
    throw new UsageError(`invalid config "": give the path of a config file, or "default" to find it as fctl does`);
  }
  if (options.config !== undefined && options.config !== "default") flags["config"] = expandHome(options.config, env);
  const quiet: TextSink = { write: () => {} };
  const log = options.log ?? processIo.stderr;
  const io: Io = {
    ...processIo,
    env,
    // A library prints no results; its logs and prompts go where the caller says.
    stdout: quiet,
    stderr: log,
    stderrIsTerminal: options.log === undefined && processIo.stderrIsTerminal,
    readLine: undefined,
  };
  const secrets = new Redactor();
  const app = await loadApp(flags, {
    io: redactingIo(io, secrets),
    secrets,
    signal: options.signal ?? new AbortController().signal,
  }).catch((err) => {
    throw hideSecrets(err, secrets);
  });
  try {
    // The program prints its errors itself: none it gets from this connection holds a secret.
    const client = hidingClientSecrets(await app.admin(), secrets);
    const http = () =>
      app.http().then((made) => hidingSecrets(made, secrets), (err) => Promise.reject(hideSecrets(err, secrets)));
    let storage: RegistrationStorage | undefined;
    let uploads: ConnectionUploads | undefined;
    const close = async () => {
      storage?.close();
      await app.close();
    };
    return {
      client,
      config: app.loaded,
      http,
      uploads: () => {
        if (uploads) return uploads;
        try {
          storage = registrationStorage(app.config, () => app.http(), env);
        } catch (err) {
          throw hideSecrets(err, secrets);
        }
        const opened = storage;
        uploads = {
          http: hidingSecrets(opened.http, secrets),
          openStorage: () =>
            opened.openStorage().then(
              (store) => hidingSecrets(store, secrets),
              (err) => Promise.reject(hideSecrets(err, secrets)),
            ),
          allowLocalStorage: opened.allowLocalStorage,
        };
        return uploads;
      },
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (err) {
    await app.close();
    throw hideSecrets(err, secrets);
  }
}

/** `client` whose services' calls reject with their errors' secrets hidden. */
function hidingClientSecrets(client: AdminClient, secrets: Redactor): AdminClient {
  return {
    admin: hidingSecrets(client.admin, secrets),
    dataProxy: hidingSecrets(client.dataProxy, secrets),
    rows: hidingSecrets(client.rows, secrets),
    registration: hidingSecrets(client.registration, secrets),
    connection: client.connection,
    connect: () => client.connect(),
    close: () => client.close(),
  };
}

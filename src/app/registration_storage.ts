/**
 * The storage a registration uploads its source to, from the configuration: the rule that
 * `storage.allow-local-fallback` needs an admin on this machine, and the store opened (its settings checked,
 * its SDK loaded) only when the registration first needs it.
 *
 * @module
 */
import type { Config } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { HttpClient } from "../http/http_client.ts";
import { adminPlace, localFallbackProblem } from "../storage/local_fallback.ts";
import type { ObjectStore } from "../storage/store.ts";

/** What a registration or an execution's local inputs upload with. */
export interface RegistrationStorage {
  /**
   * The run's HTTP client (its CA file and proxy), made by its first call: most executions upload nothing, a dry run
   * of local files uses none, and a registration that sends has made it already.
   */
  http: HttpClient;
  /** The storage, opened on first use: its settings checked as `config validate` checks them, then its SDK loaded. */
  openStorage: () => Promise<ObjectStore>;
  /** Whether `local` or `mem` may take the source: `storage.allow-local-fallback`, which only a loopback admin permits. */
  allowLocalStorage: boolean;
  /** Closes the storage if it was opened (the app closes the HTTP client it made). */
  close: () => void;
}

/**
 * What the registration's storage is: opened (its settings checked as `config validate` checks them, all
 * problems in one line; then its SDK loaded) on first use only, with the run's HTTP client (`http`, asked for on
 * first use); and whether `local` or `mem` may take the source, which `storage.allow-local-fallback` asks for and
 * only a loopback admin endpoint permits. The backends take their variables (stow google's
 * `GOOGLE_APPLICATION_CREDENTIALS`) from `env`, the run's environment.
 *
 * @throws {UsageError} `storage.allow-local-fallback` with an admin that is not on this machine
 */
export function registrationStorage(
  config: Config,
  http: () => Promise<HttpClient>,
  env: Readonly<Record<string, string | undefined>>,
): RegistrationStorage {
  const admin = adminPlace(config);
  const refused = localFallbackProblem(admin);
  if (refused) throw new UsageError(refused);
  const client = onFirstUse(http);
  let opened: Promise<ObjectStore> | undefined;
  return {
    http: client,
    openStorage: () =>
      opened ??= loadStorage().then(({ storageConfigFrom, storageProblems, storageProblemsMessage, openStorage }) => {
        const storageConfig = storageConfigFrom(config, { fetch: client.fetch, env });
        const problems = storageProblems(storageConfig, admin);
        if (problems.length > 0) throw new UsageError(storageProblemsMessage(problems));
        return openStorage(storageConfig);
      }),
    allowLocalStorage: admin.allowLocalFallback,
    close: () => void opened?.then((store) => store.close(), () => {}),
  };
}

/** An HTTP client that asks `make` for the real one on its first call; closing it is left to whoever made that. */
function onFirstUse(make: () => Promise<HttpClient>): HttpClient {
  return {
    fetch: async (input, init) => (await make()).fetch(input, init),
    put: async (url, body, init) => (await make()).put(url, body, init),
    prefetch: (url, init) => void make().then((client) => client.prefetch(url, init), () => {}),
    close: () => {},
  };
}

/**
 * The storage settings, checks and backends, loaded on first use: a registration that never writes to storage (a dry
 * run, or one whose admin offers an upload location) loads none of them, nor the Node built-ins the settings use
 * (`node:os`, `node:path`: the first Node built-in a process loads costs it about 10 ms).
 */
async function loadStorage(): Promise<
  & typeof import("../storage/from_config.ts")
  & typeof import("../storage/validate.ts")
  & typeof import("../storage/mod.ts")
> {
  const [settings, validate, backends] = await Promise.all([
    import("../storage/from_config.ts"),
    import("../storage/validate.ts"),
    import("../storage/mod.ts"),
  ]);
  return { ...settings, ...validate, ...backends };
}

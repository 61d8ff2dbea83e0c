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
import { storageConfigFrom } from "../storage/from_config.ts";
import { localFallbackProblem } from "../storage/local_fallback.ts";
import type { ObjectStore } from "../storage/store.ts";

/**
 * What the registration's storage is: opened (its settings checked as `config validate` checks them, all
 * problems in one line; then its SDK loaded) on first use only, with the run's HTTP client (its CA file and
 * proxy); and whether `local` or `mem` may take the source, which `storage.allow-local-fallback` asks for and only a
 * loopback admin endpoint permits.
 *
 * @throws {UsageError} `storage.allow-local-fallback` with an admin that is not on this machine
 */
export function registrationStorage(
  config: Config,
  http: HttpClient,
): { openStorage: () => Promise<ObjectStore>; allowLocalStorage: boolean; close: () => void } {
  const admin = { endpoint: config["admin.endpoint"], allowLocalFallback: config["storage.allow-local-fallback"] };
  const refused = localFallbackProblem(admin);
  if (refused) throw new UsageError(refused);
  const storageConfig = storageConfigFrom(config, { fetch: http.fetch });
  let opened: Promise<ObjectStore> | undefined;
  return {
    openStorage: () =>
      opened ??= loadStorage().then(({ storageProblems, storageProblemsMessage, openStorage }) => {
        const problems = storageProblems(storageConfig, admin);
        if (problems.length > 0) throw new UsageError(storageProblemsMessage(problems));
        return openStorage(storageConfig);
      }),
    allowLocalStorage: admin.allowLocalFallback,
    close: () => void opened?.then((store) => store.close(), () => {}),
  };
}

/**
 * The storage checks and backends, loaded on first use: a registration that never writes to storage (a dry run, or
 * one whose admin offers an upload location) loads neither.
 */
async function loadStorage(): Promise<typeof import("../storage/validate.ts") & typeof import("../storage/mod.ts")> {
  const [validate, backends] = await Promise.all([import("../storage/validate.ts"), import("../storage/mod.ts")]);
  return { ...validate, ...backends };
}

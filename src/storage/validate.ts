/**
 * The storage settings' checks: the type, the stow kind and its required keys, the endpoint URL and the
 * region, each problem one line naming the option, and the rule of `storage.allow-local-fallback`; and, when
 * all is well, one line saying what fctl would do with storage. `fctl config validate` reports them, and a
 * registration makes the same checks before it writes the fast-registration source to storage. Pure: no
 * backend or SDK is loaded.
 *
 * @module
 */
import type { ConfigCheck } from "../config/checks.ts";
import { type OptionKey, OPTIONS } from "../config/schema.ts";
import { quote } from "../errors.ts";
import { storageConfigFrom } from "./from_config.ts";
import { type AdminPlace, adminPlace, localFallbackProblem } from "./local_fallback.ts";
import type { StorageConfig } from "./store.ts";
import { STORAGE_TYPES, STOW_KINDS } from "./mod.ts";
import {
  connectionProblems,
  describeS3,
  s3SettingsFromConnection,
  s3SettingsFromStow,
  stowS3Problems,
} from "./s3_settings.ts";
import { cloudStowConfigProblems, describeCloudStow } from "./stow_config.ts";

// What `config validate` reads of a configuration for the checks here, beside them.
export { type AdminPlace, adminPlace } from "./local_fallback.ts";

/** Storage problems as the one line of an error: the problem itself, or their count and each of them. */
export function storageProblemsMessage(problems: readonly string[]): string {
  return problems.length === 1
    ? problems[0]
    : `the storage settings have ${problems.length} problems: ${problems.join("; ")}`;
}

/** What is wrong with the storage settings: one message per problem. */
export function storageProblems(config: StorageConfig, admin: AdminPlace): string[] {
  const found: string[] = [];
  const type = config.type.toLowerCase();
  switch (type) {
    case "s3":
    case "minio":
      found.push(...connectionProblems(config));
      break;
    case "stow": {
      const kind = (config.stowKind ?? "").toLowerCase();
      if (kind === "s3") found.push(...stowS3Problems(config.stowConfig ?? {}));
      else if (kind === "google" || kind === "azure") {
        found.push(...cloudStowConfigProblems(kind, config.stowConfig ?? {}));
      } else {
        found.push(
          `storage.stow.kind ${quote(config.stowKind ?? "")} is not supported; accepted kinds: ${
            STOW_KINDS.join(", ")
          }`,
        );
      }
      break;
    }
    case "local":
    case "mem":
      break;
    default:
      found.push(`storage.type ${quote(type)} is not supported; accepted types: ${STORAGE_TYPES.join(", ")}`);
  }
  const fallback = localFallbackProblem(admin);
  if (fallback) found.push(fallback);
  return found;
}

/** One line saying what fctl would do with storage; only for settings without {@link storageProblems}. */
export function describeStorage(config: StorageConfig, admin: Pick<AdminPlace, "allowLocalFallback">): string {
  const type = config.type.toLowerCase();
  const cache = (config.cacheMaxSizeMbs ?? 0) > 0 ? `; read cache ${config.cacheMaxSizeMbs} MiB` : "";
  switch (type) {
    case "s3":
    case "minio":
      return describeS3(s3SettingsFromConnection(config)) + cache;
    case "stow": {
      const kind = (config.stowKind ?? "").toLowerCase();
      if (kind === "google" || kind === "azure") {
        return describeCloudStow(kind, config.container, config.stowConfig ?? {}) + cache;
      }
      return describeS3(s3SettingsFromStow(config)) + cache;
    }
    case "local":
    case "mem": {
      const where = type === "local"
        ? `local directory ${config.endpoint || config.defaultLocalRoot}/${config.container || "<container>"}`
        : "process memory";
      const use = admin.allowLocalFallback
        ? "used for the fast-registration source when the admin has no upload location (admin on this machine)"
        : "refused for the fast-registration source (the admin's cluster cannot read it) unless " +
          "--storage.allow-local-fallback with an admin on this machine";
      return `storage: ${type} in ${where}, ${use}`;
    }
    default:
      return `storage: ${type}`;
  }
}

/** The storage settings' check in the registry `config validate` runs: {@link storageProblems} of the configuration. */
export const STORAGE_CHECK: ConfigCheck = {
  name: "storage",
  keys: [
    ...OPTIONS.map((option) => option.key as OptionKey).filter((key) => key.startsWith("storage.")),
    "admin.endpoint",
  ],
  problems: ({ loaded: { config } }) => storageProblems(storageConfigFrom(config), adminPlace(config)),
};

/**
 * The `storage.stow.config` keys of the stow `google` and `azure` kinds, as flytestdlib's stow backends
 * read them, with their checks: one message per problem, naming the key and the accepted ones, never a
 * credential's value. `fctl config validate` lists these problems; opening a store refuses them.
 *
 * @module
 */
import { quote } from "../errors.ts";

/** One accepted key of a kind's config. */
export interface StowKey {
  key: string;
  /** Missing or empty is a problem. */
  required: boolean;
  /** The value is a credential: never printed, redacted from every message. */
  secret: boolean;
  /** What it is, for messages and docs. */
  help: string;
  /** A problem with a present, non-empty value (without quoting a secret value), or undefined. */
  check?: (value: string) => string | undefined;
}

/** Keys stow once read and now refuses (flytestdlib fails on them), with what to do instead. */
interface RemovedKey {
  key: string;
  instead: string;
}

/** The kinds this module checks. */
export type CloudStowKind = "google" | "azure";

/** URL of an HTTP(S) endpoint without credentials in it. */
function checkEndpoint(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not a URL (expected http://host:port or https://host)`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `is not an http:// or https:// URL`;
  if (url.username !== "" || url.password !== "") return `must not carry credentials in the URL`;
  return undefined;
}

/** Keys of stow kind `google` (flyteorg/stow google/config.go), plus fctl's `endpoint`. */
export const GOOGLE_KEYS: readonly StowKey[] = [
  {
    key: "json",
    required: false,
    secret: true,
    help: "service-account (or other credentials) JSON; empty: application default credentials",
    check(value) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return "is not valid JSON";
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "is not a JSON object";
      const fields = parsed as Record<string, unknown>;
      if (typeof fields.type !== "string") return `has no "type" field (expected e.g. "service_account")`;
      if (fields.type === "service_account") {
        const lacking = ["client_email", "private_key"].filter((f) =>
          typeof fields[f] !== "string" || fields[f] === ""
        );
        if (lacking.length > 0) return `is a service account without ${lacking.join(" and ")}`;
      }
      return undefined;
    },
  },
  { key: "project_id", required: true, secret: false, help: "project that buckets are created in" },
  {
    key: "scopes",
    required: false,
    secret: false,
    help: "comma-separated OAuth scopes (default: devstorage.full_control)",
    check: (value) => value.split(",").some((s) => s.trim() === "") ? "has an empty scope" : undefined,
  },
  {
    key: "endpoint",
    required: false,
    secret: false,
    help: "fctl: Cloud Storage API endpoint URL instead of Google's (emulators, private endpoints)",
    check: checkEndpoint,
  },
];

/** Keys of stow kind `azure` (flyteorg/stow azure/config.go), plus fctl's `endpoint`. */
export const AZURE_KEYS: readonly StowKey[] = [
  {
    key: "account",
    required: true,
    secret: false,
    help: "storage account name",
    check: (value) =>
      /^[a-z0-9]{3,24}$/.test(value)
        ? undefined
        : "is not a storage account name (3 to 24 lowercase letters or digits)",
  },
  {
    key: "key",
    required: true,
    secret: true,
    help: "storage account access key (fctl authenticates with the account key only)",
    check: (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? undefined : "is not a base64 account key",
  },
  {
    key: "domain_suffix",
    required: false,
    secret: false,
    help: "domain of the cloud's storage service (default: core.windows.net)",
    check: (value) => /^[A-Za-z0-9.-]+(:\d+)?$/.test(value) ? undefined : "is not a domain name",
  },
  {
    key: "base_url",
    required: false,
    secret: false,
    help: "deprecated name of domain_suffix",
    check: (value) => /^[A-Za-z0-9.-]+(:\d+)?$/.test(value) ? undefined : "is not a domain name",
  },
  {
    key: "upload_concurrency",
    required: false,
    secret: false,
    help: "accepted for compatibility; fctl puts each object in one request so the service checks its MD5",
    check: (value) => /^[1-9]\d*$/.test(value) ? undefined : "is not a whole number of 1 or more",
  },
  {
    key: "endpoint",
    required: false,
    secret: false,
    help: "fctl: blob service URL instead of https://<account>.blob.<domain_suffix> (e.g. Azurite's)",
    check: checkEndpoint,
  },
];

const REMOVED_KEYS: Readonly<Record<CloudStowKind, readonly RemovedKey[]>> = {
  google: [],
  azure: [
    { key: "use_https", instead: "set endpoint to an http:// URL for a local emulator" },
    { key: "api_version", instead: "remove it; the service version is the client's" },
  ],
};

/** The blob service URL of a stow azure config: `endpoint`, else `https://<account>.blob.<domain_suffix>`. */
export function azureServiceUrl(config: Readonly<Record<string, string>>): string {
  if (config.endpoint) return config.endpoint.replace(/\/+$/, "");
  // stow's default: the Azure public cloud; base_url is the deprecated name of domain_suffix.
  const suffix = config.domain_suffix || config.base_url || "core.windows.net";
  return `https://${config.account}.blob.${suffix}`;
}

/** The accepted keys of `kind`. */
export function stowKeys(kind: CloudStowKind): readonly StowKey[] {
  return kind === "google" ? GOOGLE_KEYS : AZURE_KEYS;
}

/**
 * Problems with a stow `google` or `azure` config, one message per problem (unknown, removed or missing keys,
 * bad values); empty when it can be used. Never quotes a secret value.
 */
export function cloudStowConfigProblems(kind: CloudStowKind, config: Readonly<Record<string, string>>): string[] {
  const keys = stowKeys(kind);
  const accepted = keys.map((k) => k.key).join(", ");
  const problems: string[] = [];
  for (const name of Object.keys(config)) {
    const removed = REMOVED_KEYS[kind].find((r) => r.key === name);
    if (removed) {
      problems.push(`storage.stow.config key ${quote(name)} was removed from stow ${kind}: ${removed.instead}`);
    } else if (!keys.some((k) => k.key === name)) {
      problems.push(`storage.stow.config has unknown key ${quote(name)} for stow kind ${kind}; accepted: ${accepted}`);
    }
  }
  for (const spec of keys) {
    const value = config[spec.key];
    if (value === undefined || value === "") {
      if (spec.required) {
        problems.push(`storage.stow.config lacks ${quote(spec.key)} (${spec.help}); accepted: ${accepted}`);
      }
      continue;
    }
    const problem = spec.check?.(value);
    if (problem !== undefined) {
      const shown = spec.secret ? "" : ` ${quote(value)}`;
      problems.push(`storage.stow.config ${spec.key}${shown} ${problem}`);
    }
  }
  return problems;
}

/** The values of `config` that are credentials of `kind`, to redact from every message. */
export function cloudStowSecrets(kind: CloudStowKind, config: Readonly<Record<string, string>>): string[] {
  return stowKeys(kind).filter((k) => k.secret && config[k.key]).map((k) => config[k.key]);
}

/** Problems with a stow `google` config (see {@link cloudStowConfigProblems}), for `fctl config validate`. */
export function stowGoogleProblems(config: Readonly<Record<string, string>>): string[] {
  return cloudStowConfigProblems("google", config);
}

/** Problems with a stow `azure` config (see {@link cloudStowConfigProblems}), for `fctl config validate`. */
export function stowAzureProblems(config: Readonly<Record<string, string>>): string[] {
  return cloudStowConfigProblems("azure", config);
}

/**
 * One line saying what fctl would do with a stow `google` or `azure` config that has no problems, for
 * `fctl config validate`. Names where objects go and where credentials come from, never a credential.
 */
export function describeCloudStow(
  kind: CloudStowKind,
  container: string,
  config: Readonly<Record<string, string>>,
): string {
  const scheme = kind === "google" ? "gs" : "abfs";
  const where = `${scheme}://${container === "" ? "<the container each reference names>" : container}`;
  if (kind === "google") {
    const endpoint = config.endpoint || "https://storage.googleapis.com";
    const credentials = config.json
      ? "the service account in storage.stow.config json"
      : "application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's file or the metadata server)";
    return `storage: stow google, ${where} through ${endpoint} in project ${config.project_id}, ` +
      `with ${credentials}; a missing bucket is created`;
  }
  return `storage: stow azure, ${where} through ${azureServiceUrl(config)} with account ${config.account}'s key; ` +
    `a missing container is created`;
}

/**
 * What a run must never show, learned in one place: the secrets among option values (every option the schema
 * marks secret, and the password of any URL among them), and, once the configuration is loaded, the storage
 * credentials and the client secret from the variable or file it names. The command line, a command that reads
 * no configuration and the library's `connect` all register them here.
 *
 * @module
 */
import type { LoadedConfig } from "../config/load.ts";
import { type Config, OPTIONS, type OptionSpec } from "../config/schema.ts";
import { urlPasswords } from "../log/redact.ts";
import type { Io } from "../output/io.ts";
import { storageSecrets } from "../storage/secrets.ts";

/** Where secrets are registered (the run's `Redactor`). */
export interface SecretSink {
  add(secret: string | undefined): void;
}

/**
 * The words fctl itself takes as an option's value, in lower case: every choice of an enum option (`minio`, `s3`,
 * `json`, `pkce`, …). Such a word is no secret whatever option holds it (the sandbox's access key is `minio`): it is
 * printed in `fctl --help` for anyone to try, and fctl writes it for its own reasons (`storage.type MINIO`, a
 * `minio bucket`), so hiding it protects nothing and would cut it out of every file name and message holding it.
 */
const PUBLIC_WORDS: ReadonlySet<string> = new Set(
  (OPTIONS as readonly OptionSpec[]).flatMap((spec) => spec.choices ?? []).map((word) => word.toLowerCase()),
);

/** `secrets`, passing on every value but a word of {@link PUBLIC_WORDS} (with its surrounding whitespace). */
function withoutPublicWords(secrets: SecretSink): SecretSink {
  return { add: (secret) => PUBLIC_WORDS.has(secret?.trim().toLowerCase() ?? "") ? undefined : secrets.add(secret) };
}

/**
 * Registers the secrets among option values by key (the flags as given, or the loaded configuration's values):
 * secret options, and the password of every URL (`http://user:PASSWORD@host`, which errors would echo); none that
 * is one of fctl's own words for a value, such as `minio` (see {@link PUBLIC_WORDS}).
 */
export function registerOptionSecrets(sink: SecretSink, values: Readonly<Record<string, unknown>>): void {
  const secrets = withoutPublicWords(sink);
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const value = values[spec.key];
    if (typeof value !== "string") continue;
    if (spec.secret) secrets.add(value);
    for (const password of urlPasswords(value)) secrets.add(password);
  }
}

/**
 * Registers every secret a loaded configuration holds or points at (none that is one of fctl's own words for a
 * value, such as the sandbox's access key `minio`: see {@link PUBLIC_WORDS}): its option values', the storage credentials
 * (the access key, not marked secret as flytectl shows it, and `storage.stow.config`'s keys), the variable
 * `admin.clientSecretEnvVar` names and the file `admin.clientSecretLocation` names.
 */
export async function registerConfigSecrets(
  sink: SecretSink,
  loaded: LoadedConfig,
  io: Pick<Io, "env" | "readTextFile">,
): Promise<void> {
  const secrets = withoutPublicWords(sink);
  const config = loaded.config;
  registerConfigValueSecrets(secrets, config, io.env);
  const envVar = config["admin.clientSecretEnvVar"];
  if (envVar) secrets.add(io.env[envVar]);
  try {
    // The client secret file is read here only to know what to hide; the auth flow reads it for use.
    secrets.add(await io.readTextFile(config["admin.clientSecretLocation"]));
  } catch {
    // Absent or unreadable: nothing to hide, and the auth flow reports it if it needs the secret.
  }
}

/**
 * Registers the secrets among a configuration's own values (none that is one of fctl's own words for a value, such
 * as `minio`): its option values' (see {@link registerOptionSecrets}) and the storage credentials (the access key,
 * `storage.stow.config`'s keys), with the AWS credential variables of `env` when given. Synchronous and reading
 * nothing: what a view of the configuration hides.
 */
export function registerConfigValueSecrets(
  sink: SecretSink,
  config: Config,
  env?: Readonly<Record<string, string | undefined>>,
): void {
  const secrets = withoutPublicWords(sink);
  registerOptionSecrets(secrets, config as unknown as Record<string, unknown>);
  const storage = storageSecrets({
    accessKey: config["storage.connection.access-key"],
    secretKey: config["storage.connection.secret-key"],
    stowConfig: config["storage.stow.config"],
    env,
  });
  for (const secret of storage) secrets.add(secret);
}

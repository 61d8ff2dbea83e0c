/**
 * The storage settings' credentials, for the run's redactor: the access and secret keys of
 * `storage.connection`, and every credential-looking value of `storage.stow.config` (`secret_key`,
 * `access_key_id`, `key`, `json`, tokens, passwords, SAS signatures), including the string fields of a
 * JSON value such as a service-account key, and the AWS credential variables of the environment. Pure: no
 * backend is loaded.
 *
 * @module
 */

/** Stow config keys whose values are credentials (flytestdlib's s3, google and azure kinds, and the like). */
const CREDENTIAL_KEY = /secret|key|token|password|passwd|json|credential|sas|signature|private/i;

/** Keys that match {@link CREDENTIAL_KEY} but hold no secret. */
const NOT_SECRET = new Set(["auth_type", "key_type", "token_uri", "type"]);

/** The AWS SDK's credential variables (its default chain reads them from the environment). */
const AWS_CREDENTIAL_VARIABLES = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"];

/** The credential values of the storage settings, and of the environment the AWS SDK reads them from. */
export function storageSecrets(settings: {
  accessKey?: string;
  secretKey?: string;
  stowConfig?: Readonly<Record<string, string>>;
  env?: Readonly<Record<string, string | undefined>>;
}): string[] {
  const found: string[] = [];
  for (const value of [settings.accessKey, settings.secretKey]) if (value) found.push(value);
  for (const name of AWS_CREDENTIAL_VARIABLES) {
    const value = settings.env?.[name];
    if (value) found.push(value);
  }
  for (const [key, value] of Object.entries(settings.stowConfig ?? {})) {
    if (!CREDENTIAL_KEY.test(key) || NOT_SECRET.has(key) || !value) continue;
    found.push(value, ...jsonSecrets(value));
  }
  return found;
}

/** The credential-looking string fields of a JSON object (a service-account key file's `private_key`, …). */
function jsonSecrets(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== "object") return [];
  return Object.entries(parsed as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === "string" && CREDENTIAL_KEY.test(key) && !NOT_SECRET.has(key) ? [value] : []
  );
}

/**
 * The effective configuration as rows for `fctl config view`: every option's value as a user would
 * write it (durations as Go strings), where it came from, and secrets redacted: by the rule the command line's
 * output follows (`secrets.ts`), so that a program showing the rows shows no more than `fctl config view`.
 *
 * @module
 */
import type { LoadedConfig } from "../config/load.ts";
import { envName, OPTIONS, type OptionSpec, yamlPath } from "../config/schema.ts";
import { formatDuration } from "../config/duration.ts";
import { REDACTED, Redactor } from "../log/redact.ts";
import { registerConfigValueSecrets } from "./secrets.ts";

/**
 * One option of the effective configuration.
 *
 * ```ts
 * import { type ConfigRow, describeConfig, loadConfig } from "@fctl/fctl";
 *
 * const loaded = await loadConfig({ flags: {}, env: Deno.env.toObject(), readTextFile: Deno.readTextFile });
 * const changed: ConfigRow[] = describeConfig(loaded).filter((row) => row.source !== "default");
 * for (const row of changed) console.log(`${row.key}=${row.value} (${row.source})`);
 * ```
 */
export interface ConfigRow {
  /** The option's dotted key. */
  key: string;
  /** The value as text, as it would be written in a flag. */
  value: string;
  /** The typed value for JSON/YAML output (durations as Go strings). */
  json: string | number | boolean | string[] | Record<string, string>;
  /** `default`, `file <path>`, `env <NAME>` or `flag --key`. */
  source: string;
}

function showValue(spec: OptionSpec, value: unknown, secrets: Redactor): ConfigRow["json"] {
  if (spec.secret) return value === "" ? "" : REDACTED;
  switch (spec.type) {
    case "duration":
      return formatDuration(value as number);
    case "strings":
      return (value as readonly string[]).map((item) => secrets.redact(item));
    case "map":
      return Object.fromEntries(
        Object.entries(value as Record<string, string>).map(([key, item]) => [key, secrets.redact(item)]),
      );
    default:
      return typeof value === "string" ? secrets.redact(value) : value as number | boolean;
  }
}

function asText(json: ConfigRow["json"]): string {
  if (Array.isArray(json)) return json.join(",");
  if (typeof json === "object") return Object.entries(json).map(([k, v]) => `${k}=${v}`).join(",");
  return String(json);
}

/**
 * Every option of `loaded` with its value and source. Secrets are shown as `[redacted]`, as the command line shows
 * them: options marked secret whole, and wherever they appear in other values the password of a URL
 * (`http://user:[redacted]@proxy:3128`) and the storage credentials (the access key, `storage.stow.config`'s keys).
 *
 * ```ts
 * import { connect, describeConfig } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * for (const row of describeConfig(flyte.config)) if (row.source !== "default") console.log(row.key, row.value, row.source);
 * ```
 */
export function describeConfig(loaded: LoadedConfig): ConfigRow[] {
  const values = loaded.config as unknown as Record<string, unknown>;
  const secrets = new Redactor();
  registerConfigValueSecrets(secrets, loaded.config);
  return OPTIONS.map((spec) => {
    const source = loaded.sources[spec.key];
    const json = showValue(spec, values[spec.key], secrets);
    const where = source === "file"
      ? `file ${loaded.file} (${loaded.fileKeys?.[spec.key] ?? yamlPath(spec).join(".")})`
      : source === "env"
      ? `env ${envName(spec)}`
      : source === "flag"
      ? `flag --${spec.key}`
      : "default";
    return { key: spec.key, value: asText(json), json, source: where };
  });
}

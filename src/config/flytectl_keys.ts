/**
 * Keys real flytectl config files carry that fctl reads nothing from: accepted in a config file without a
 * warning (users keep one `~/.flyte/config.yaml` for both tools), never flags. Collected from the config
 * structs flytectl registers (flyteidl's admin client, flytestdlib's storage section).
 *
 * Keep this module free of imports: the loader reads it for every config file.
 *
 * @module
 */

/** Leaf keys (dotted, as in the file) fctl accepts and ignores. */
export const IGNORED_FLYTECTL_KEYS: readonly string[] = [
  // flyteidl's admin client: organisations are a Union extension fctl does not speak.
  "admin.defaultOrg",
  // flytestdlib's OpenTelemetry section is in the option schema (flytectl has its keys as flags too), all but this
  // one, which flytectl has in a file only: fctl exports no traces.
  "otel.sampler.traceIdRatio",
];

/**
 * Keys whose value is a free-form mapping fctl accepts and ignores, whatever is below them: flytestdlib's
 * extra storage HTTP headers and the stow overrides of signed URLs, and flytekit's `images` (name → container
 * image): pyflyte reads the same `~/.flyte/config.yaml`, whose other keys are flytectl's.
 */
export const IGNORED_FLYTECTL_MAPPINGS: readonly string[] = [
  "storage.defaultHttpClient.headers",
  "storage.signedUrl.stowConfigOverride",
  "images",
];

/**
 * flytectl's keys whose meaning fctl does not have, each with why: a file with one still loads, with one warning
 * naming it (it is no typo, but what it asks for does not happen).
 */
export const UNUSED_FLYTECTL_KEYS: Readonly<Record<string, string>> = {
  "task.org": "organisations are a Union extension fctl does not speak",
  "root.interactive": "fctl has no interactive mode",
  "adminutils.maxRecords": "lists are paged with --filter.limit and --filter.page",
  "adminutils.batchSize": "lists are paged with --filter.limit and --filter.page",
};

/**
 * Keys real flytectl config files carry that fctl reads nothing from: accepted in a config file without a
 * warning (users keep one `~/.flyte/config.yaml` for both tools), never flags. Collected from the config
 * structs flytectl registers (flyteidl's admin client, flytestdlib's storage and otel sections).
 *
 * Keep this module free of imports: the loader reads it for every config file.
 *
 * @module
 */

/** Leaf keys (dotted, as in the file) fctl accepts and ignores. */
export const IGNORED_FLYTECTL_KEYS: readonly string[] = [
  // flyteidl's admin client: organisations are a Union extension fctl does not speak.
  "admin.defaultOrg",
  // flytestdlib's OpenTelemetry section: fctl exports no traces.
  "otel.type",
  "otel.file.filename",
  "otel.jaeger.endpoint",
  "otel.otlpgrpc.endpoint",
  "otel.otlphttp.endpoint",
  "otel.sampler.parentSampler",
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

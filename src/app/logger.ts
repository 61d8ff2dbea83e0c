/**
 * The run's logger as the `logger.*` options configure it, and the record at debug level of what was loaded.
 * Before a configuration is loaded (or without one), {@link startupLogger} writes warnings only.
 *
 * @module
 */
import type { LoadedConfig } from "../config/load.ts";
import type { FormatterType } from "../log/format.ts";
import { createLogger, type Logger } from "../log/logger.ts";
import type { Redactor } from "../log/redact.ts";
import type { TextSink } from "../output/io.ts";

/** The logger of a run that has no configuration (yet): warnings only, as JSON, secrets redacted. */
export function startupLogger(sink: TextSink, redactor: Redactor): Logger {
  return createLogger({ sink, level: 3, formatter: "json", redactor });
}

/**
 * The logger `loaded` configures, writing to `sink`. Logs the configuration's warnings (unknown keys, deprecated
 * options) unless `reportWarnings` is false, for a command whose own output reports them (`config validate`),
 * and at debug level the options set and where each came from.
 */
export async function configuredLogger(
  loaded: LoadedConfig,
  sink: TextSink,
  redactor: Redactor,
  options: { reportWarnings?: boolean } = {},
): Promise<Logger> {
  const config = loaded.config;
  const log = createLogger({
    sink,
    level: config["logger.level"],
    formatter: config["logger.formatter.type"] as FormatterType,
    mute: config["logger.mute"],
    showSource: config["logger.show-source"],
    redactor,
  });
  if (options.reportWarnings !== false) { for (const warning of loaded.warnings) log.configWarning(warning); }
  if (log.enabled(5)) {
    const [{ describeConfig }, { shownUrl }] = await Promise.all([
      import("./describe_config.ts"),
      import("../log/shown_url.ts"),
    ]);
    const set = describeConfig(loaded).filter((row) => row.source !== "default");
    // A URL's query and user information may carry secrets (`admin.tokenUrl`'s `?secret=…`): never logged.
    const shown = (value: string) => URL.canParse(value) ? shownUrl(value) : value;
    log.debug("configuration loaded", {
      file: loaded.file ?? "none",
      options: Object.fromEntries(set.map((row) => [row.key, `${shown(row.value)} (${row.source})`])),
    });
  }
  return log;
}

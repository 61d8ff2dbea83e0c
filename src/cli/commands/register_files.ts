/**
 * `fctl register files|file <paths...>`: flags → `RegisterFilesOptions` → `registerFiles` → the results
 * table or the JSON/YAML report.
 *
 * @module
 */
import { type FlagSpec, leafCommand } from "../command.ts";
import { flagError } from "../flag_values.ts";
import { REGISTER_FLAGS, registerSettings } from "../register_options.ts";

const FLAGS = [
  { long: "archive", help: "the paths are .tar, .tgz or .tar.gz archives, local or http(s) URLs" },
  {
    long: "version",
    value: "<version>",
    help: "version of the registered entities where the package leaves it open",
  },
  ...REGISTER_FLAGS,
] as const satisfies readonly FlagSpec[];

function load() {
  return Promise.all([
    import("../../register/register_files.ts"),
    import("../register_report.ts"),
    import("../register_progress.ts"),
  ]);
}

/** `register files`. */
export const REGISTER_FILES_COMMAND = leafCommand({
  name: "files",
  aliases: ["file"],
  description: "register serialized .pb files, or .tar/.tgz/.tar.gz archives (paths or http(s) URLs) with --archive",
  arguments: [{ name: "paths", help: ".pb files, or archives with --archive", required: true, variadic: true }],
  flags: FLAGS,
  preload: load,
  async run(ctx, [paths], flags) {
    const { project, domain } = ctx.projectDomain();
    const settings = registerSettings(ctx.config, flags);
    const [{ registerFiles }, { renderReport, reportOutcome, storageOpener }, { progressDisplay }] = await load();
    const progress = progressDisplay(ctx.io, () => ctx.clock.monotonic());
    try {
      let report;
      try {
        report = await registerFiles(() => ctx.admin(), { paths, project, domain, ...settings }, ctx.signal, {
          http: await ctx.http(),
          openStorage: storageOpener(ctx.config),
          onDownloadProgress: progress.onDownloadProgress,
          onProgress: progress.onProgress,
        });
      } catch (err) {
        // The library's own refusal of --concurrency, named for the flag.
        throw flagError(err, { concurrency: { flag: "concurrency", raw: flags.concurrency } });
      }
      progress.clear();
      await renderReport(ctx.io, ctx.config.output, report);
      reportOutcome(report, `${report.failed} of ${report.entries.length} files failed to register`);
    } finally {
      progress.clear();
    }
  },
});

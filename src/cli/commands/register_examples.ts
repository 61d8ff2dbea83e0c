/**
 * `fctl register examples`: flags, `GITHUB_TOKEN` and `GITHUB_API_URL` → `RegisterExamplesOptions` →
 * `registerExamples` (resolve the flytesnacks release, register each archive) → one report.
 *
 * @module
 */
import { type FlagSpec, leafCommand } from "../command.ts";
import { flagError } from "../flag_values.ts";
import { REGISTER_FLAGS, registerSettings } from "../register_options.ts";

const FLAGS = [
  {
    long: "version",
    value: "<version>",
    help: "release tag to register, also the entities' version (default: the latest release)",
  },
  ...REGISTER_FLAGS,
] as const satisfies readonly FlagSpec[];

function load() {
  return Promise.all([
    import("../../register/register_examples.ts"),
    import("../register_report.ts"),
    import("../register_progress.ts"),
  ]);
}

/** `register examples`. */
export const REGISTER_EXAMPLES_COMMAND = leafCommand({
  name: "examples",
  aliases: ["example", "flytesnack", "flytesnacks"],
  description: "register the published Flyte example release (flytesnacks) from GitHub",
  arguments: [],
  flags: FLAGS,
  preload: load,
  async run(ctx, _args, flags) {
    const { project, domain } = ctx.projectDomain();
    const settings = registerSettings(ctx.config, flags);
    const [{ registerExamples }, { renderExamplesReport, reportOutcome, storageOpener }, { progressDisplay }] =
      await load();
    // Hidden from every output and log line, whatever echoes it (a GitHub error, a debug record).
    ctx.secrets.add(ctx.env["GITHUB_TOKEN"]);
    const progress = progressDisplay(ctx.io, () => ctx.clock.monotonic());
    try {
      let report;
      try {
        report = await registerExamples(() => ctx.admin(), { project, domain, ...settings }, ctx.signal, {
          githubApiUrl: ctx.env["GITHUB_API_URL"] || undefined,
          githubToken: ctx.env["GITHUB_TOKEN"] || undefined,
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
      await renderExamplesReport(ctx.io, ctx.config.output, report);
      reportOutcome(report, `${report.failed} files of release ${report.release} failed to register`);
    } finally {
      progress.clear();
    }
  },
});

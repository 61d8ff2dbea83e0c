/**
 * `fctl register examples`: flags, `GITHUB_TOKEN` and `GITHUB_API_URL` → `RegisterExamplesOptions` →
 * `registerExamples` (resolve the flytesnacks release, register each archive) → one report.
 *
 * @module
 */
import { type FlagSpec, leafCommand } from "../command.ts";
import type { CliContext } from "../context.ts";
import { projectDomain } from "../project_domain.ts";
import { REGISTER_FLAGS, type RegisterCommandOptions, registerSettings } from "../register_options.ts";
import { printNote } from "../../output/print.ts";

const FLAGS = [
  {
    long: "version",
    value: "<version>",
    help: "release tag to register, also the entities' version (default: the latest release)",
  },
  ...REGISTER_FLAGS,
  // flytectl's examples command takes every flag of `register files`; its --archive changes nothing there (the
  // release's assets are always archives), and so here.
  { long: "archive", help: "accepted as by register files; changes nothing: release assets are always archives" },
] as const satisfies readonly FlagSpec[];

function load() {
  return Promise.all([
    import("../../register/register_examples.ts"),
    import("../register_outcome.ts"),
    import("../run_registration.ts"),
  ]);
}

/**
 * Says which release was resolved (the latest one is only known now): a line on a terminal, and an info
 * record in the log wherever stderr goes.
 */
function announceRelease(ctx: CliContext, tag: string, assets: readonly string[]): void {
  ctx.logger.info("resolved the flytesnacks release", { release: tag, archives: assets.join(", ") });
  if (ctx.io.stderrIsTerminal) printNote(ctx.io, releaseAnnouncement(tag, assets));
}

/** The line that names the release on a terminal (`printNote` shows GitHub's tag escaped). */
export function releaseAnnouncement(tag: string, assets: readonly string[]): string {
  const archives = `${assets.length} ${assets.length === 1 ? "archive" : "archives"}`;
  return `Registering flytesnacks release ${tag} (${archives})`;
}

/** `register examples`. */
export const REGISTER_EXAMPLES_COMMAND = leafCommand({
  name: "examples",
  aliases: ["example", "flytesnack", "flytesnacks"],
  description: "register the published Flyte example release (flytesnacks) from GitHub",
  arguments: [],
  flags: FLAGS,
  globals: ["config", "project", "domain", "output", "admin.endpoint"],
  environment: [
    {
      name: "GITHUB_API_URL",
      help: "the GitHub REST API root the release is resolved from (default https://api.github.com; GitHub " +
        "Enterprise: https://<host>/api/v3); only https:// release assets are downloaded",
    },
    {
      name: "GITHUB_TOKEN",
      help: "a GitHub token, sent as a bearer token to that API's host only (and github.com for the public API), " +
        "for a higher rate limit or a private release; never shown",
    },
  ],
  examples: [
    "fctl register examples -p flytesnacks -d development",
    "fctl register examples -p flytesnacks -d development --version v0.3.4",
    "GITHUB_TOKEN=… fctl register examples -p flytesnacks -d development --continueOnError",
    "GITHUB_API_URL=https://github.example.com/api/v3 fctl register examples -p flytesnacks -d development",
  ],
  options({ flags, globals: { config } }): RegisterCommandOptions {
    return {
      ...projectDomain(config),
      settings: registerSettings(config, flags),
      concurrencyText: flags.concurrency,
      wide: flags.wide === true,
    };
  },
  async run(ctx, { project, domain, settings, concurrencyText, wide }) {
    // A registration that sends opens the admin connection before anything else loads, so that its round trips
    // (TCP, TLS) overlap loading the registration's modules and fetching the release: imported together with
    // them, the connection's own few modules would wait for theirs. A dry run connects to nothing. A client that
    // cannot be made is still reported where the registration makes it, first.
    if (!settings.dryRun) await ctx.admin({ connectNow: true }).catch(() => {});
    const [{ registerExamples }, { examplesFailures }, { runRegistration }] = await load();
    // Hidden from every output and log line, whatever echoes it (a GitHub error, a debug record).
    ctx.secrets.add(ctx.env["GITHUB_TOKEN"]);
    await runRegistration(ctx, concurrencyText, {
      register: (deps) =>
        registerExamples(() => ctx.admin(), { project, domain, ...settings }, ctx.signal, {
          ...deps,
          githubApiUrl: ctx.env["GITHUB_API_URL"] || undefined,
          githubToken: ctx.env["GITHUB_TOKEN"] || undefined,
          onRelease: (tag, assets) => announceRelease(ctx, tag, assets),
        }),
      // Loaded once there is a report, as by `register files`: its descriptors must not be built before the
      // registrations have asked for their sources' upload locations.
      render: async (...args) => (await import("../register_report.ts")).renderExamplesReport(...args),
      wide,
      failedMessage: (report) =>
        `${report.failed} ${report.failed === 1 ? "file" : "files"} of release ${report.release} failed to register`,
      failures: examplesFailures,
    });
  },
});

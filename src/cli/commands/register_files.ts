/**
 * `fctl register files|file <paths...>`: flags → `RegisterFilesOptions` → `registerFiles` → the results
 * table or the JSON/YAML report.
 *
 * @module
 */
import { type FlagSpec, leafCommand } from "../command.ts";
import { projectDomain } from "../project_domain.ts";
import { REGISTER_FLAGS, type RegisterCommandOptions, registerSettings } from "../register_options.ts";

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
    import("../register_outcome.ts"),
    import("../run_registration.ts"),
  ]);
}

/** What `register files` does: register these files or archives with the register settings. */
export interface RegisterFilesCommandOptions extends RegisterCommandOptions {
  paths: string[];
}

/** `register files`. */
export const REGISTER_FILES_COMMAND = leafCommand({
  name: "files",
  aliases: ["file"],
  description: "register serialized .pb files, or .tar/.tgz/.tar.gz archives (paths or http(s) URLs) with --archive",
  arguments: [{ name: "paths", help: ".pb files, or archives with --archive", required: true, variadic: true }],
  flags: FLAGS,
  globals: ["config", "project", "domain", "output", "admin.endpoint"],
  examples: [
    "fctl register files --archive pkg.tgz -p flytesnacks -d development --version v1",
    "fctl register files 0_core.basic.hello_1.pb 1_core.basic.wf_2.pb -p flytesnacks -d development --version v1",
    "fctl register files --archive https://example.com/pkg.tar.gz -p flytesnacks -d development --version v1 --dryRun",
  ],
  options({ args: [paths], flags, globals: { config } }): RegisterFilesCommandOptions {
    return {
      paths,
      ...projectDomain(config),
      settings: registerSettings(config, flags),
      concurrencyText: flags.concurrency,
      wide: flags.wide === true,
    };
  },
  async run(ctx, { paths, project, domain, settings, concurrencyText, wide }) {
    // A registration that sends opens the admin connection before anything else loads, so that its round trips
    // (TCP, TLS) overlap loading the registration's modules and reading the package: imported together with
    // them, the connection's own few modules would wait for theirs. A dry run connects to nothing. A client that
    // cannot be made is still reported where the registration makes it, first.
    if (!settings.dryRun) await ctx.admin({ connectNow: true }).catch(() => {});
    // The HTTP client of a registration that sends (its upload, downloads) is made while the modules load, not after
    // them; one that cannot be made is reported where the registration asks for it, as before. A dry run makes it only
    // to download an archive: one of local files never loads it (its bad settings are still refused first).
    if (!settings.dryRun) ctx.http().catch(() => {});
    const [{ registerFiles }, { failuresOf }, { runRegistration }] = await load();
    await runRegistration(ctx, concurrencyText, {
      register: (deps) => registerFiles(() => ctx.admin(), { paths, project, domain, ...settings }, ctx.signal, deps),
      // Loaded once there is a report: it writes identifiers through flyteidl's generated descriptors, which must not
      // be built before the registration has asked for its source's upload location.
      render: async (...args) => (await import("../register_report.ts")).renderReport(...args),
      wide,
      failedMessage: (report) => `${report.failed} of ${report.entries.length} files failed to register`,
      failures: (report) => failuresOf(report.entries),
      httpOnDemand: settings.dryRun,
    });
  },
});

/**
 * `fctl version`: fctl's version, then the admin service's (`AdminService.GetVersion`) when an endpoint is
 * configured, in flytectl's shape (`App`, `Version`, `Build`, `BuildTime`; the admin is `controlPlane`).
 * The client's version is printed whatever happens, so an unreachable admin still leaves it on stdout,
 * followed by the one-line error (exit 1).
 *
 * @module
 */
import { checkFormat } from "../../output/check_format.ts";
import { leafCommand } from "../command.ts";

/** One component's version, as flytectl's `version` prints it (empty fields are left out). */
export interface VersionRow {
  App: string;
  Version: string;
  Build?: string;
  BuildTime?: string;
}

/** flytectl's name for the admin service's side. */
export const CONTROL_PLANE_APP = "controlPlane";

/** What `fctl version` does: the `-o` format, and the admin endpoint to ask (none: only fctl's version). */
export interface VersionOptions {
  format: string;
  endpoint: string;
}

/** `fctl version`. */
export const VERSION_COMMAND = leafCommand({
  name: "version",
  description: "print fctl's version and, when an endpoint is configured, the admin service's " +
    "(exit 1, after fctl's own version, if the admin cannot be reached)",
  arguments: [],
  flags: [],
  globals: ["config", "output", "admin.endpoint"],
  examples: [
    "fctl version",
    "fctl version -o json  # [{App, Version}, …] for scripts",
    "fctl version --admin.endpoint dns:///flyte.example.com",
  ],
  options({ globals: { config } }): VersionOptions {
    checkFormat(config.output, false);
    return { format: config.output, endpoint: config["admin.endpoint"] };
  },
  async run(ctx, { format, endpoint }) {
    const [{ VERSION }, { render }] = await Promise.all([
      import("../../version.ts"),
      import("../../output/render.ts"),
    ]);
    const rows: VersionRow[] = [{ App: "fctl", Version: VERSION }];
    let failure: unknown;
    if (endpoint) {
      try {
        const admin = await ctx.admin({ connectNow: true });
        const { controlPlaneVersion: v } = await admin.admin.getVersion({}, { signal: ctx.signal });
        rows.push(versionRow(CONTROL_PLANE_APP, v?.Version ?? "", v?.Build ?? "", v?.BuildTime ?? ""));
      } catch (err) {
        // Ctrl-C ends the run here: no table, fctl's own row included.
        if (ctx.signal.aborted) throw err;
        failure = err;
      }
    }
    await render(ctx.io, format, {
      columns: [
        { header: "APP", cell: (row: VersionRow) => row.App, keep: true },
        { header: "VERSION", cell: (row: VersionRow) => row.Version, keep: true },
        { header: "BUILD", cell: (row: VersionRow) => row.Build ?? "" },
        { header: "BUILD TIME", cell: (row: VersionRow) => row.BuildTime ?? "" },
      ],
      toJson: (row) => ({ ...row }),
      value: { list: rows },
    });
    if (failure !== undefined) throw failure;
  },
});

function versionRow(app: string, version: string, build: string, buildTime: string): VersionRow {
  return {
    App: app,
    Version: version,
    ...(build ? { Build: build } : {}),
    ...(buildTime ? { BuildTime: buildTime } : {}),
  };
}

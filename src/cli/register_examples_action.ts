/**
 * `fctl register examples`: resolve the flytesnacks release → register each archive → one report.
 * Loaded lazily.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { InterruptedError, OperationError } from "../errors.ts";
import { render } from "../output/render.ts";
import type { Column } from "../output/table.ts";
import type { RegisterEntry } from "../register/register_files.ts";
import { registerExamples, type RegisterExamplesReport } from "../register/register_examples.ts";
import { connectAdmin, connectHttp } from "./connect.ts";
import { type CommandContext, requireProjectDomain } from "./context.ts";
import type { RegisterFlags } from "./commands/register.ts";
import { reportJson, storageOpener } from "./register_files_action.ts";
import { progressDisplay } from "./register_progress.ts";
import { registerSettings } from "./register_settings.ts";

interface Row {
  asset: string;
  entry: Pick<RegisterEntry, "name" | "status" | "info">;
}

const COLUMNS: readonly Column<Row>[] = [
  { header: "ASSET", cell: (r) => r.asset },
  { header: "NAME", cell: (r) => r.entry.name },
  { header: "STATUS", cell: (r) => r.entry.status },
  { header: "ADDITIONAL INFO", cell: (r) => r.entry.info },
];

function rows(report: RegisterExamplesReport): Row[] {
  return report.assets.flatMap((a): Row[] =>
    a.report
      ? a.report.entries.map((entry) => ({ asset: a.asset, entry }))
      : [{ asset: a.asset, entry: { name: a.asset, status: "Failed", info: a.error ?? "" } }]
  );
}

function examplesJson(report: RegisterExamplesReport): JsonValue {
  return {
    release: report.release,
    failed: report.failed,
    interrupted: report.interrupted,
    assets: report.assets.map((a) => ({
      asset: a.asset,
      ...(a.report ? { report: reportJson(a.report) } : {}),
      ...(a.error !== undefined ? { error: a.error } : {}),
    })),
  };
}

/** Runs `register examples` with the resolved configuration and `GITHUB_TOKEN` / `GITHUB_API_URL`. */
export async function runRegisterExamples(ctx: CommandContext, flags: RegisterFlags): Promise<void> {
  const { project, domain } = requireProjectDomain(ctx.config);
  const settings = registerSettings(ctx.config, flags);
  const client = connectAdmin(ctx.loaded);
  const http = connectHttp(ctx.loaded, ctx.io.env);
  const progress = progressDisplay(ctx.io);
  try {
    const report = await registerExamples(client, { project, domain, ...settings }, ctx.signal, {
      githubApiUrl: ctx.io.env["GITHUB_API_URL"] || undefined,
      githubToken: ctx.io.env["GITHUB_TOKEN"] || undefined,
      http,
      openStorage: storageOpener(ctx.config),
      onDownloadProgress: progress.onDownloadProgress,
      onProgress: progress.onProgress,
    });
    progress.clear();
    if (ctx.config.output === "JSON" || ctx.config.output === "YAML") {
      await render(ctx.io, ctx.config.output, { columns: [], toJson: examplesJson, value: { one: report } });
    } else {
      await render(ctx.io, ctx.config.output, { columns: COLUMNS, toJson: () => null, value: { list: rows(report) } });
    }
    if (report.interrupted) {
      throw new InterruptedError("interrupted; the report above shows what was and was not registered");
    }
    if (report.failed > 0) {
      throw new OperationError(`${report.failed} files of release ${report.release} failed to register`);
    }
  } finally {
    progress.clear();
    http.close();
    client.close();
  }
}

/**
 * `fctl register files`: parse → `registerFiles` → results table or JSON/YAML report. Loaded lazily.
 *
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { InterruptedError, OperationError } from "../errors.ts";
import { render } from "../output/render.ts";
import type { Column } from "../output/table.ts";
import { type RegisterEntry, registerFiles, type RegisterReport } from "../register/register_files.ts";
import { openStorage } from "../storage/mod.ts";
import type { ObjectStore } from "../storage/store.ts";
import type { Config } from "../config/schema.ts";
import { connectAdmin, connectHttp } from "./connect.ts";
import { type CommandContext, requireProjectDomain } from "./context.ts";
import type { RegisterFlags } from "./commands/register.ts";
import { progressDisplay } from "./register_progress.ts";
import { registerSettings } from "./register_settings.ts";

const COLUMNS: readonly Column<RegisterEntry>[] = [
  { header: "NAME", cell: (e) => e.name },
  { header: "STATUS", cell: (e) => e.status },
  { header: "ADDITIONAL INFO", cell: (e) => e.info },
];

/** Milliseconds, to a tenth: enough for timings, without float noise. */
const ms = (value: number) => Math.round(value * 10) / 10;

/** One entry of the machine-readable report. */
export function entryJson(entry: RegisterEntry): JsonValue {
  const json: Record<string, JsonValue> = {
    name: entry.name,
    kind: entry.kind ?? null,
    id: entry.id ? toJson(IdentifierSchema, entry.id) : null,
    status: entry.status,
    info: entry.info,
  };
  if (entry.dependsOn !== undefined) json.dependsOn = entry.dependsOn;
  if (entry.startedMs !== undefined) json.startedMs = ms(entry.startedMs);
  if (entry.durationMs !== undefined) json.durationMs = ms(entry.durationMs);
  return json;
}

/** The machine-readable report (`-o json|yaml`). */
export function reportJson(report: RegisterReport): JsonValue {
  const source: JsonValue = report.source
    ? Object.fromEntries(Object.entries(report.source).filter(([, v]) => v !== undefined))
    : null;
  return {
    entries: report.entries.map(entryJson),
    source,
    failed: report.failed,
    interrupted: report.interrupted,
    dryRun: report.dryRun,
    timings: Object.fromEntries(Object.entries(report.timings).map(([k, v]) => [k, ms(v)])),
  };
}

/** Writes the report: the results table, or with `-o json|yaml` the whole report as one document. */
export async function renderReport(ctx: CommandContext, report: RegisterReport): Promise<void> {
  if (ctx.config.output === "JSON" || ctx.config.output === "YAML") {
    await render(ctx.io, ctx.config.output, { columns: [], toJson: reportJson, value: { one: report } });
  } else {
    await render(ctx.io, ctx.config.output, { columns: COLUMNS, toJson: entryJson, value: { list: report.entries } });
  }
}

/** Opens `storage.*` only when the admin offers no upload location. */
export function storageOpener(config: Config): () => ObjectStore {
  return () =>
    openStorage({
      type: config["storage.type"],
      container: config["storage.container"],
      endpoint: config["storage.connection.endpoint"],
      defaultLocalRoot: join(tmpdir(), "flyte-local-storage"),
    });
}

/** Throws what the report's outcome means for the exit status: 130 if interrupted, 1 if anything failed. */
export function reportOutcome(report: RegisterReport, what: string): void {
  if (report.interrupted) {
    throw new InterruptedError("interrupted; the report above shows what was and was not registered");
  }
  if (report.failed > 0) {
    throw new OperationError(`${report.failed} of ${report.entries.length} ${what} failed to register`);
  }
}

/** Runs `register files` with the resolved configuration. */
export async function runRegisterFiles(ctx: CommandContext, paths: string[], flags: RegisterFlags): Promise<void> {
  const { project, domain } = requireProjectDomain(ctx.config);
  const settings = registerSettings(ctx.config, flags);
  const client = connectAdmin(ctx.loaded);
  const http = connectHttp(ctx.loaded, ctx.io.env);
  const progress = progressDisplay(ctx.io);
  try {
    const report = await registerFiles(client, { paths, project, domain, ...settings }, ctx.signal, {
      http,
      openStorage: storageOpener(ctx.config),
      onDownloadProgress: progress.onDownloadProgress,
      onProgress: progress.onProgress,
    });
    progress.clear();
    await renderReport(ctx, report);
    reportOutcome(report, "files");
  } finally {
    progress.clear();
    http.close();
    client.close();
  }
}

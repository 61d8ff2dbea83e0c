/**
 * How `register files` and `register examples` write their reports: the results table, or the whole report
 * with `-o json|yaml`. Loaded when a register command runs (it brings in the generated protos).
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Io } from "../output/io.ts";
import { printLine } from "../output/print.ts";
import { render, type RenderOptions } from "../output/render.ts";
import type { Column } from "../output/table.ts";
import { INFO } from "../register/entries.ts";
import type { RegisterExamplesReport } from "../register/register_examples.ts";
import type { RegisterEntry, RegisterReport } from "../register/register_files.ts";

// Nothing is cut on a terminal: the file and why it failed are as important as each other, and both wrap in their
// columns (the widest narrowed first) when the terminal is too narrow for them on one line.
const COLUMNS: readonly Column<RegisterEntry>[] = [
  { header: "NAME", cell: (e) => e.name, wrap: true },
  { header: "STATUS", cell: (e) => e.status },
  { header: "ADDITIONAL INFO", cell: (e) => e.info, wrap: true },
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
    ...(report.error ? { error: report.error.message } : {}),
    timings: Object.fromEntries(Object.entries(report.timings).map(([k, v]) => [k, ms(v)])),
  };
}

/**
 * Whether a report is worth showing: always, unless an error stopped the registration before anything
 * was registered or uploaded (a refused token), when every row would only repeat that error.
 */
function worthShowing(report: RegisterReport): boolean {
  return !report.error || report.source?.location !== undefined || report.entries.some((e) => e.status === "Success");
}

/**
 * The rows a table shows of a report's entries, and the line that stands for the rest: the entities of a package
 * refused before any create are summed up in one line under its problems (the invalid members), not a row each.
 * JSON and YAML keep every entry.
 */
export function tableEntries<E extends Pick<RegisterEntry, "status" | "info">>(
  entries: readonly E[],
): { rows: E[]; summary?: string } {
  const rows = entries.filter((e) => e.info !== INFO.invalidPackage);
  const notRegistered = entries.length - rows.length;
  if (notRegistered === 0) return { rows };
  const problems = rows.filter((e) => e.status === "Failed").length;
  return {
    rows,
    summary: `${plural(notRegistered, "entity", "entities")} not registered because the package has ` +
      plural(problems, "problem", "problems"),
  };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Writes the report of `register files` (see {@link worthShowing}). */
export async function renderReport(
  io: Io,
  format: string,
  report: RegisterReport,
  options: RenderOptions = {},
): Promise<void> {
  if (!worthShowing(report)) return;
  if (format === "JSON" || format === "YAML") {
    await render(io, format, { columns: [], toJson: reportJson, value: { one: report } });
  } else {
    const { rows, summary } = tableEntries(report.entries);
    await render(io, format, { columns: COLUMNS, toJson: entryJson, value: { list: rows } }, options);
    if (summary) printLine(io, summary);
  }
}

interface ExampleRow {
  asset: string;
  entry: Pick<RegisterEntry, "name" | "status" | "info">;
}

const EXAMPLE_COLUMNS: readonly Column<ExampleRow>[] = [
  { header: "ASSET", cell: (r) => r.asset, wrap: true },
  { header: "NAME", cell: (r) => r.entry.name, wrap: true },
  { header: "STATUS", cell: (r) => r.entry.status },
  { header: "ADDITIONAL INFO", cell: (r) => r.entry.info, wrap: true },
];

/** The table's rows of every asset (see {@link tableEntries}), and a summary line per refused package. */
function exampleRows(report: RegisterExamplesReport): { rows: ExampleRow[]; summaries: string[] } {
  const summaries: string[] = [];
  const rows = report.assets.flatMap((a): ExampleRow[] => {
    if (!a.report) return [{ asset: a.asset, entry: { name: a.asset, status: "Failed", info: a.error ?? "" } }];
    const shown = tableEntries(a.report.entries);
    if (shown.summary) summaries.push(`${a.asset}: ${shown.summary}`);
    return shown.rows.map((entry) => ({ asset: a.asset, entry }));
  });
  return { rows, summaries };
}

function examplesJson(report: RegisterExamplesReport): JsonValue {
  return {
    release: report.release,
    failed: report.failed,
    interrupted: report.interrupted,
    ...(report.error ? { error: report.error.message } : {}),
    assets: report.assets.map((a) => ({
      asset: a.asset,
      ...(a.report ? { report: reportJson(a.report) } : {}),
      ...(a.error !== undefined ? { error: a.error } : {}),
    })),
  };
}

/** Writes the report of `register examples`: one table of every asset's entries, or one document (see {@link worthShowing}). */
export async function renderExamplesReport(
  io: Io,
  format: string,
  report: RegisterExamplesReport,
  options: RenderOptions = {},
): Promise<void> {
  if (report.error && report.assets.every((a) => !a.report || !worthShowing(a.report))) return;
  if (format === "JSON" || format === "YAML") {
    await render(io, format, { columns: [], toJson: examplesJson, value: { one: report } });
  } else {
    const { rows, summaries } = exampleRows(report);
    await render(io, format, { columns: EXAMPLE_COLUMNS, toJson: () => null, value: { list: rows } }, options);
    for (const summary of summaries) printLine(io, summary);
  }
}

/**
 * How `register files` and `register examples` write their reports (the results table, or the whole
 * report with `-o json|yaml`), open the storage fallback, and turn the outcome into an exit status.
 * Loaded when a register command runs (it brings in the generated protos).
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Config } from "../config/schema.ts";
import { InterruptedError, OperationError, UsageError } from "../errors.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Io, TextSink } from "../output/io.ts";
import { render, type RenderOptions } from "../output/render.ts";
import type { Column } from "../output/table.ts";
import type { RegisterExamplesReport } from "../register/register_examples.ts";
import type { RegisterEntry, RegisterReport } from "../register/register_files.ts";
import { INFO } from "../register/entries.ts";
import { openStorage } from "../storage/mod.ts";
import { storageConfigFrom } from "../storage/from_config.ts";
import { localFallbackProblem, storageProblems, storageProblemsMessage } from "../storage/validate.ts";
import type { ObjectStore } from "../storage/store.ts";
import type { DownloadProgress, RegisterProgress } from "../register/register_files.ts";
import type { CliContext } from "./context.ts";
import { flagError } from "./flag_values.ts";
import { progressDisplay } from "./register_progress.ts";

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
    if (summary) io.stdout.write(`${summary}\n`);
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
    for (const summary of summaries) io.stdout.write(`${summary}\n`);
  }
}

/**
 * What the registration's storage is: opened (its settings checked as `config validate` checks them, all
 * problems in one line; then its SDK loaded) on first use only, with the run's HTTP client (its CA file and
 * proxy); and whether `local` or `mem` may take the source, which `storage.allow-local-fallback` asks for and only a
 * loopback admin endpoint permits.
 *
 * @throws {UsageError} `storage.allow-local-fallback` with an admin that is not on this machine
 */
export function registrationStorage(
  config: Config,
  http: HttpClient,
): { openStorage: () => Promise<ObjectStore>; allowLocalStorage: boolean; close: () => void } {
  const admin = { endpoint: config["admin.endpoint"], allowLocalFallback: config["storage.allow-local-fallback"] };
  const refused = localFallbackProblem(admin);
  if (refused) throw new UsageError(refused);
  const storageConfig = storageConfigFrom(config, { fetch: http.fetch });
  let opened: Promise<ObjectStore> | undefined;
  return {
    openStorage: () =>
      opened ??= Promise.resolve().then(() => {
        const problems = storageProblems(storageConfig, admin);
        if (problems.length > 0) throw new UsageError(storageProblemsMessage(problems));
        return openStorage(storageConfig);
      }),
    allowLocalStorage: admin.allowLocalFallback,
    close: () => void opened?.then((store) => store.close(), () => {}),
  };
}

/** Most failures named on stderr, one line each; the rest are counted in one more line. */
export const MAX_FAILURES_NAMED = 10;

/** One file that failed, as stderr names it. */
export interface Failure {
  /** The file (and, for `register examples`, its asset). */
  name: string;
  /** Why, in full. */
  reason: string;
}

/** The failed entries of a report's rows, in their order. */
export function failuresOf(entries: readonly Pick<RegisterEntry, "name" | "status" | "info">[]): Failure[] {
  return entries.filter((e) => e.status === "Failed").map((e) => ({ name: e.name, reason: e.info }));
}

/** The failed files of every asset of a `register examples` report, each named with its asset. */
export function examplesFailures(report: RegisterExamplesReport): Failure[] {
  return report.assets.flatMap((a) =>
    a.report
      ? failuresOf(a.report.entries).map((f) => ({ ...f, name: `${a.asset}: ${f.name}` }))
      : a.error !== undefined
      ? [{ name: a.asset, reason: a.error }]
      : []
  );
}

/**
 * Throws what a report's outcome means for the exit status: the error that stopped the registration
 * as a whole (shown after its report), 130 if interrupted, 1 if anything failed, after a line on stderr for
 * each failed file and why (at most {@link MAX_FAILURES_NAMED}, then how many more), so that the reasons are
 * read whole whatever the table had room for.
 */
export function reportOutcome(
  stderr: TextSink,
  outcome: { interrupted: boolean; failed: number; error?: Error },
  failedMessage: string,
  failures: readonly Failure[],
): void {
  if (outcome.error) throw outcome.error;
  if (outcome.interrupted) {
    throw new InterruptedError("interrupted; the report above shows what was and was not registered");
  }
  if (outcome.failed > 0) {
    for (const { name, reason } of failures.slice(0, MAX_FAILURES_NAMED)) {
      stderr.write(`failed: ${name}: ${reason.replace(/\s*\n\s*/g, " ")}\n`);
    }
    const more = failures.length - MAX_FAILURES_NAMED;
    if (more > 0) stderr.write(`failed: and ${more} more (the report above lists them)\n`);
    throw new OperationError(failedMessage);
  }
}

/** What every registration takes from the run besides its own inputs. */
export interface RegistrationDeps {
  http: HttpClient;
  openStorage: () => Promise<ObjectStore>;
  /** `storage.allow-local-fallback` with a loopback admin. */
  allowLocalStorage: boolean;
  onDownloadProgress?: (progress: DownloadProgress) => void;
  onProgress?: (progress: RegisterProgress) => void;
}

/** How one register command registers and reports. */
export interface Registration<R> {
  /** The library call, given the run's dependencies. */
  register(deps: RegistrationDeps): Promise<R>;
  /** Writes the report (table, or the whole document with `-o json|yaml`). */
  render(io: Io, format: string, report: R, options: RenderOptions): Promise<void>;
  /** `--wide`: the table is never fitted to the terminal. */
  wide?: boolean;
  /** The one line for a report with failed entries. */
  failedMessage(report: R): string;
  /** The failed files, named one a line on stderr before that line. */
  failures(report: R): Failure[];
}

/**
 * Runs a registration the way both register commands do: progress on the terminal meanwhile, the library's
 * refusal of `--concurrency` named for the flag (`concurrencyText` as typed), then the report, always before
 * the error its outcome means.
 */
export async function runRegistration<R extends { interrupted: boolean; failed: number; error?: Error }>(
  ctx: CliContext,
  concurrencyText: string | undefined,
  registration: Registration<R>,
): Promise<void> {
  const progress = progressDisplay(ctx.io, () => ctx.clock.monotonic());
  const http = await ctx.http();
  const storage = registrationStorage(ctx.config, http);
  const notice = interruptNotice(ctx, () => progress.clear());
  try {
    let report: R;
    try {
      report = await registration.register({
        http,
        openStorage: storage.openStorage,
        allowLocalStorage: storage.allowLocalStorage,
        onDownloadProgress: progress.onDownloadProgress,
        onProgress: progress.onProgress,
      });
    } catch (err) {
      throw flagError(err, { concurrency: { flag: "concurrency", raw: concurrencyText } });
    }
    progress.clear();
    await registration.render(ctx.io, ctx.config.output, report, { wide: registration.wide });
    reportOutcome(ctx.io.stderr, report, registration.failedMessage(report), registration.failures(report));
  } finally {
    notice.cancel();
    progress.clear();
    storage.close();
  }
}

/** How long a registration may take to end after Ctrl-C before the user is told what it waits for. */
export const INTERRUPT_NOTICE_MS = 1_000;

/**
 * Ctrl-C lets the creates already sent finish, so that the report says what was registered; against a slow admin
 * that can take up to the retries' time limits. When ending takes longer than {@link INTERRUPT_NOTICE_MS}, the
 * user is told why, and how not to wait. `cancel` once the registration has ended.
 */
function interruptNotice(ctx: CliContext, clearProgress: () => void): { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => {
    timer = setTimeout(() => {
      clearProgress();
      ctx.io.stderr.write(
        "interrupted: waiting for the creates already sent to the admin to end, for the report; Ctrl-C again to exit now\n",
      );
    }, INTERRUPT_NOTICE_MS);
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    cancel: () => {
      ctx.signal.removeEventListener("abort", onAbort);
      clearTimeout(timer);
    },
  };
}

/**
 * The report step of a registration: what it did, file by file (the rows of the results table and
 * the machine report).
 *
 * @module
 */
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { entityId, type EntityKind, type RegistrationEntity } from "./classify.ts";
import { type JobResult, type RegisterJob, type SourceUpload, UPLOAD_FAILED } from "./jobs.ts";
import type { JobOutcome } from "./run_graph.ts";
import type { RegisterRun } from "./run_state.ts";

/**
 * Outcome of one file, as the results table shows it.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterStatus } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["workflow.pb"], project: "flytesnacks", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options);
 * const counts = new Map<RegisterStatus, number>();
 * for (const entry of report.entries) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
 * console.log(counts); // e.g. Map(1) { "Success" => 3 }
 * ```
 */
export type RegisterStatus = "Success" | "Failed" | "Skipped";

/**
 * One row of the results.
 *
 * ```ts
 * import { connect, type RegisterEntry, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options, undefined, {});
 * const failed: RegisterEntry[] = report.entries.filter((entry) => entry.status === "Failed");
 * for (const entry of failed) console.error(`${entry.name} (${entry.kind}): ${entry.info}`);
 * ```
 */
export interface RegisterEntry {
  /** The file as the user knows it: the path given or the name inside the archive. */
  name: string;
  /** What the file holds, if it could be decoded. */
  kind?: EntityKind;
  /** The identifier it was (or would have been) registered under. */
  id?: Identifier;
  /** `Success` (registered or identical one exists), `Failed`, or `Skipped` (dry run, or not attempted). */
  status: RegisterStatus;
  /** `Successfully registered file`, `AlreadyExists`, or why it failed or was skipped. */
  info: string;
  /** For a file skipped because a file it depends on was not registered: that file. */
  dependsOn?: string;
  /** When its RPCs started, in milliseconds since registration began (absent if never attempted). */
  startedMs?: number;
  /** How long its RPCs took, in milliseconds. */
  durationMs?: number;
}

/**
 * The fast-registration source of a package.
 *
 * ```ts
 * import { connect, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const { source } = await registerFiles(flyte.client, options);
 * if (source) console.log(`${source.name}: ${source.size} bytes to ${source.location} via ${source.via}`);
 * ```
 */
export interface RegisteredSource {
  /** Its name as the user knows it. */
  name: string;
  /** Where it was uploaded; absent on dry runs and when registration stopped before the upload. */
  location?: string;
  /** How it got there: the admin's signed URL, or the configured storage. */
  via?: "dataProxy" | "storage";
  /** Bytes uploaded. */
  size?: number;
}

/**
 * Milliseconds spent in each phase.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterTimings } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const timings: RegisterTimings = (await registerFiles(flyte.client, options)).timings;
 * console.log(`prepared in ${timings.prepareMs} ms, registered in ${timings.registerMs} ms`);
 * ```
 */
export interface RegisterTimings {
  /** Reading, extracting, decoding, hydrating and planning. */
  prepareMs: number;
  /** Uploading the fast-registration source; part of {@link registerMs}. */
  uploadMs: number;
  /** Creating the entities, and the upload, which runs alongside the creates that do not need the source. */
  registerMs: number;
  /** All of it. */
  totalMs: number;
}

/**
 * What `registerFiles` did.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterReport } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const report: RegisterReport = await registerFiles(flyte.client, options);
 * if (report.error) throw report.error;
 * if (report.failed > 0 || report.interrupted) Deno.exitCode = 1;
 * ```
 */
export interface RegisterReport {
  /** Rows: files that cannot be registered first, then the entities in creation order. */
  entries: RegisterEntry[];
  /** The fast-registration source archive, if the package has one. */
  source?: RegisteredSource;
  /** Number of `Failed` entries; a caller exits non-zero if it is not 0. */
  failed: number;
  /** Registration stopped early because the caller's signal aborted (Ctrl-C). */
  interrupted: boolean;
  /** Nothing was created or uploaded on purpose (`--dryRun`). */
  dryRun: boolean;
  /**
   * What stopped the registration as a whole after it had started sending (the admin unreachable, the
   * source upload failed); the entries say what was and was not registered before it. A caller shows
   * them, then fails with this error.
   */
  error?: Error;
  /** How long each phase took. */
  timings: RegisterTimings;
}

/** Info texts of the results table (flytectl's wording where flytectl has one). */
export const INFO = {
  registered: "Successfully registered file",
  alreadyExists: "AlreadyExists",
  activated: "schedule activated",
  dryRun: "Dry run: not registered",
  invalidPackage: "Not registered: other files of the package are invalid",
  stopped: "Not registered: an earlier file failed",
  interrupted: "Not registered: interrupted",
} as const;

/** A row for an entity. */
export function entryFor(entity: RegistrationEntity, status: RegisterStatus, info: string): RegisterEntry {
  return { name: entity.name, kind: entity.kind, id: entityId(entity), status, info };
}

/** The info of a file skipped because `dependency` was not registered. */
function blockedInfo(dependency: RegisterEntry): string {
  const why = dependency.status === "Failed" ? "failed" : "was not registered";
  return `Not registered: depends on ${dependency.name}, which ${why}`;
}

/** The run's report, its total time taken now. */
export function finishReport(run: RegisterRun): RegisterReport {
  run.timings.totalMs = run.now() - run.startedMs;
  const failed = run.entries.filter((e) => e.status === "Failed").length;
  const report: RegisterReport = {
    entries: run.entries,
    failed,
    interrupted: run.interrupted,
    dryRun: run.options.dryRun ?? false,
    timings: run.timings,
  };
  if (run.source) report.source = run.source;
  if (run.error) report.error = run.error;
  return report;
}

/** Rows for entities none of which is created, all for the same reason. */
export function skippedEntries(order: readonly RegistrationEntity[], info: string): RegisterEntry[] {
  return order.map((entity) => entryFor(entity, "Skipped", info));
}

/**
 * The rows of `order` from how their jobs ended: a create's own row with its timing, or why it was
 * skipped (what it waited on, an interruption, or a stop after a failure).
 */
export function outcomeEntries(
  order: readonly RegistrationEntity[],
  outcomes: ReadonlyMap<RegisterJob, JobOutcome<RegisterJob, JobResult>>,
  started: number,
  aborted: boolean,
): RegisterEntry[] {
  const byEntity = new Map<RegistrationEntity, RegisterEntry>();
  const entryOf = (entity: RegistrationEntity): RegisterEntry => {
    const known = byEntity.get(entity);
    if (known) return known;
    const outcome = outcomes.get(entity)!;
    let entry: RegisterEntry;
    switch (outcome.state) {
      case "finished":
        entry = {
          ...(outcome.result as RegisterEntry),
          startedMs: outcome.startedMs - started,
          durationMs: outcome.durationMs,
        };
        break;
      case "blocked": {
        // What waits on something interrupted was interrupted too.
        const dependency = outcome.on.kind === "source" ? undefined : entryOf(outcome.on);
        const dependsOn = dependency?.name ?? (outcome.on as SourceUpload).member.name;
        const on = outcomes.get(outcome.on);
        const uploadFailed = on?.state === "finished" && on.result === UPLOAD_FAILED;
        const info = uploadFailed
          ? `Not registered: depends on ${dependsOn}, which failed`
          : dependency && dependency.info !== INFO.interrupted
          ? blockedInfo(dependency)
          : INFO.interrupted;
        entry = { ...entryFor(entity, "Skipped", info), dependsOn };
        break;
      }
      case "notStarted":
        entry = entryFor(entity, "Skipped", aborted ? INFO.interrupted : INFO.stopped);
        break;
    }
    byEntity.set(entity, entry);
    return entry;
  };
  return order.map(entryOf);
}

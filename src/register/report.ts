/**
 * The report step of a registration: the rows of the entities from how their jobs ended, and the report of the
 * whole run.
 *
 * @module
 */
import { entryFor, INFO, type RegisterEntry, type RegisterReport } from "./entries.ts";
import type { RegistrationEntity } from "./classify.ts";
import { type JobResult, type RegisterJob, type SourceUpload, UPLOAD_FAILED } from "./jobs.ts";
import type { JobOutcome } from "./run_graph.ts";
import type { RegisterRun } from "./run_state.ts";

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

/**
 * The rows of `order` from how their jobs ended: a create's own row with its timing, or why it was
 * skipped (what it waited on, an interruption, or a stop: `stoppedInfo` says why, after a failure by default).
 */
export function outcomeEntries(
  order: readonly RegistrationEntity[],
  outcomes: ReadonlyMap<RegisterJob, JobOutcome<RegisterJob, JobResult>>,
  started: number,
  aborted: boolean,
  stoppedInfo: string = INFO.stopped,
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
        entry = entryFor(entity, "Skipped", aborted ? INFO.interrupted : stoppedInfo);
        break;
    }
    byEntity.set(entity, entry);
    return entry;
  };
  return order.map(entryOf);
}

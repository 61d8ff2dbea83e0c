/**
 * The execute step of a registration: the source upload and the creates, concurrently in dependency
 * order, each job's outcome kept for the report.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { createEntity } from "./create_entity.ts";
import { fillSourceLocation } from "./hydrate.ts";
import {
  type JobPlan,
  type JobResult,
  type RegisterJob,
  type SourceUpload,
  UPLOAD_FAILED,
  UPLOAD_INTERRUPTED,
  UPLOADED,
} from "./jobs.ts";
import { entryFor, type RegisterEntry } from "./entries.ts";
import {
  domainsToName,
  filesNotRegistered,
  type ProjectRefusal,
  projectRefusalOf,
  ProjectRefusedError,
  refusalInfo,
} from "../projects/project_refusal.ts";
import { outcomeEntries } from "./report.ts";
import { runGraph } from "./run_graph.ts";
import type { RegisterRun } from "./run_state.ts";

// The creates' set-up, done ahead by a registration waiting for its upload location: loaded with this step.
export { prepareCreates } from "./create_entity.ts";

/**
 * Runs the plan's jobs, at most `run.options.concurrency` at a time, and adds a row per entity to
 * the run. A failure without continue-on-error starts nothing new; so does the signal, after which
 * the creates in flight finish and the run is `interrupted`.
 *
 * What no create survives (the upload failed, the admin is unreachable, …) is not thrown: it is kept as
 * `run.error`, starts nothing new, and the rows say what was and was not registered before it, so that
 * the caller can show them and then fail. So is the admin's refusal of the project or domain, continue-on-error
 * or not: every create goes there, so none can succeed after it (a {@link ProjectRefusedError}).
 */
export async function executePlan(client: AdminClient, plan: JobPlan, run: RegisterRun): Promise<void> {
  const started = run.now();
  let done = 0;
  let refusal: ProjectRefusal | undefined;
  const create = async (entity: Exclude<RegisterJob, SourceUpload>): Promise<JobResult> => {
    const entry = await createEntity(client, entity, run.options);
    run.deps.onProgress?.({ phase: "create", done: ++done, total: plan.order.length });
    if (entry.status === "Failed" && !refusal) {
      refusal = projectRefusalOf(entry.info, entry.id ?? run.options);
      if (refusal) fatal.abort();
    }
    return entry;
  };
  // A fatal error stops scheduling as the caller's signal does, but the run is not `interrupted`.
  const fatal = new AbortController();
  const signal = run.signal ? AbortSignal.any([run.signal, fatal.signal]) : fatal.signal;
  const runJob = async (job: RegisterJob): Promise<JobResult> => {
    try {
      return await (job.kind === "source" ? uploadSource(job, plan, run) : create(job));
    } catch (err) {
      run.error ??= err instanceof Error ? err : new Error(String(err));
      fatal.abort();
      const message = err instanceof Error ? err.message : String(err);
      return job.kind === "source" ? UPLOAD_FAILED : entryFor(job, "Failed", message);
    }
  };
  const outcomes = await runGraph<RegisterJob, JobResult>({
    jobs: plan.jobs,
    dependencies: plan.dependencies,
    concurrency: run.options.concurrency,
    stopOnFailure: !run.options.continueOnError,
    signal,
    now: run.now,
    run: runJob,
    isFailure: (result) =>
      result === UPLOAD_INTERRUPTED || result === UPLOAD_FAILED || (result !== UPLOADED && result.status === "Failed"),
  });
  run.timings.registerMs = run.now() - started;
  run.interrupted = run.signal?.aborted ?? false;
  const stoppedInfo = refusal && refusalInfo(refusal);
  const entries = outcomeEntries(plan.order, outcomes, run.startedMs, run.interrupted, stoppedInfo);
  run.entries.push(...entries);
  if (refusal && !run.interrupted) run.error ??= await refusalError(client, refusal, run.entries, run.signal);
}

/** The error of a registration the admin refused for its project or domain, naming the admin's domains if that was it. */
async function refusalError(
  client: AdminClient,
  refusal: ProjectRefusal,
  entries: readonly RegisterEntry[],
  signal: AbortSignal | undefined,
): Promise<ProjectRefusedError> {
  // Ctrl-C does not wait for the domains.
  const domains = await domainsToName(client, refusal, signal);
  const notRegistered = entries.filter((entry) => entry.status !== "Success").length;
  return new ProjectRefusedError(refusal, filesNotRegistered(notRegistered, entries.length), domains);
}

/** The upload job: sends the source, then fills its location into the tasks that wait for it. */
async function uploadSource({ member, requested }: SourceUpload, plan: JobPlan, run: RegisterRun): Promise<JobResult> {
  const started = run.now();
  run.deps.onProgress?.({ phase: "upload", name: member.name, done: false });
  let uploaded;
  try {
    uploaded = await requested.upload();
  } catch (err) {
    // Interrupted: what depends on the source is reported as not registered, not as an error.
    if (run.signal?.aborted) return UPLOAD_INTERRUPTED;
    throw err;
  }
  run.source = { name: member.name, location: uploaded.location, via: uploaded.via, size: uploaded.size };
  for (const entity of plan.sourceUsers) fillSourceLocation(entity, uploaded.location);
  run.timings.uploadMs = run.now() - started;
  run.deps.onProgress?.({ phase: "upload", name: member.name, done: true });
  return UPLOADED;
}

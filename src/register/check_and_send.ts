/**
 * A registration once its source's upload location has been asked for: check → plan → execute → report, on the
 * members of the package. `register_files.ts` imports it only then, because checking decodes the entities, which
 * needs the registration messages' descriptors (proto/client/fctl/registration/) and protobuf-es to decode with:
 * building them costs a cold process milliseconds of CPU, which then overlap the call's round trip instead of coming
 * before the package is even read.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { UsageError } from "../errors.ts";
import { checkPackage } from "./check.ts";
import { INFO, type RegisterReport, skippedEntries } from "./entries.ts";
import { type JobPlan, planJobs, type SourceUpload } from "./jobs.ts";
import type { PackageMember } from "./package/members.ts";
import type { KeptSource, SourceMember } from "./package_sources.ts";
import { finishReport } from "./report.ts";
import type { RegisterRun } from "./run_state.ts";
import type { RequestedUpload } from "./upload.ts";

/**
 * What a registration that sends something sends with. A dry run loads neither of its modules: the upload's
 * loads while the package is read, the execute step's once the upload location has been asked for, so that it
 * loads during that round trip instead of before it.
 */
export interface Sender {
  client: AdminClient;
  /** The upload (`node:crypto`, the HTTP client, Connect's errors). */
  upload: Promise<typeof import("./upload.ts")>;
  /** The execute step: the creates' requests and their scheduling. */
  execute: Promise<typeof import("./execute.ts")>;
}

/** The package's one fast-registration source, and its upload location asked for when the registration sends. */
export interface AskedSource {
  source: SourceMember;
  upload?: { member: KeptSource; requested: RequestedUpload };
}

/**
 * Checks the members, plans the creates and, unless the package is refused or the run is a dry run (no `sender`),
 * sends them; the report of it all.
 *
 * @throws {UsageError} entities that would have no version, or storage that cannot take the source
 */
export async function checkAndSend(
  members: readonly PackageMember[],
  run: RegisterRun,
  sender: Sender | undefined,
  asked: AskedSource | undefined,
): Promise<RegisterReport> {
  const { options } = run;
  const { entities, invalid } = await checkPackage(members, options);
  run.entries.push(...invalid);
  if (asked) run.source = { name: asked.source.name };
  const plan = planJobs(entities, asked?.upload && { kind: "source", ...asked.upload });
  const refused = invalid.length > 0 && !options.continueOnError;
  const sending = refused || !sender ? undefined : await sender.execute;
  if (sending && plan.upload) {
    // While the upload location is on its way: what the first create of each kind and the upload would
    // otherwise set up on their way out.
    sending.prepareCreates(plan.order);
    void (await sender!.upload).loadFetch();
  }
  // Where the source goes is decided as part of preparing: the creates start right after.
  const goOn = sending !== undefined && (!plan.upload || await decideRoute(plan.upload, plan, run));
  run.timings.prepareMs = run.now() - run.startedMs;
  if (refused) {
    run.entries.push(...skippedEntries(plan.order, INFO.invalidPackage));
  } else if (!sender || !sending) {
    run.entries.push(...skippedEntries(plan.order, INFO.dryRun));
  } else if (goOn) {
    await sending.executePlan(sender.client, plan, run);
  }
  return finishReport(run);
}

/**
 * Decides where the source goes before the first create: the admin's answer, and with no upload location the
 * storage, opened and checked. Whether the registration goes on. A storage that cannot take the source is a
 * configuration error, thrown (nothing was created); a failed call stops the registration as the report's
 * error, every entity not registered, as does an interruption.
 *
 * @throws {UsageError} the storage cannot take the source
 */
async function decideRoute(upload: SourceUpload, plan: JobPlan, run: RegisterRun): Promise<boolean> {
  try {
    await upload.requested.route();
    return true;
  } catch (err) {
    if (err instanceof UsageError && !run.signal?.aborted) throw err;
    const why = run.signal?.aborted ? INFO.interrupted : `Not registered: ${upload.member.name} could not be uploaded`;
    run.interrupted = run.signal?.aborted ?? false;
    if (!run.interrupted) run.error = err instanceof Error ? err : new Error(String(err));
    run.entries.push(...skippedEntries(plan.order, why));
    return false;
  }
}

/**
 * `register files`: registering a serialized Flyte package with the admin service.
 *
 * One explicit run state (`run_state.ts`) goes through four steps, each in its own module:
 * - check (`check.ts`): every file decodes, every entity gets a version, so a bad package uploads
 *   and creates nothing; only the source's upload location, which changes nothing, is asked for
 *   meanwhile, and where the source goes is decided (the admin's data proxy, or storage whose settings
 *   are checked) before the first create, so that a storage mistake creates nothing;
 * - plan (`jobs.ts`): the creates in dependency order, and the source upload as a job that only the
 *   tasks carrying its location wait for;
 * - execute (`execute.ts`): the upload and the creates, concurrently; loaded only by a registration that
 *   sends something, so a dry run never loads Connect or the HTTP client;
 * - report (`report.ts`): a row per file.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { checkOptions, checkPackage, type KeptSource, keptSource, packageSources } from "./check.ts";
import { type JobPlan, planJobs, type SourceUpload } from "./jobs.ts";
import { UsageError } from "../errors.ts";
import type { AdminClientSource, CheckedOptions, RegisterDeps, RegisterFilesOptions } from "./options.ts";
import { type PackageMember, withPackageMembers } from "./package/members.ts";
import { INFO, type RegisterReport, skippedEntries } from "./entries.ts";
import { finishReport } from "./report.ts";
import { type RegisterRun, startRun } from "./run_state.ts";
import type { UploadSourceOptions } from "./upload.ts";

export {
  type AdminClientSource,
  DEFAULT_CONCURRENCY,
  type RegisterDeps,
  type RegisterFilesOptions,
  type RegisterProgress,
} from "./options.ts";
export type { DownloadDeps, DownloadProgress, PackageReadDeps } from "./package/members.ts";
export {
  INFO,
  type RegisteredSource,
  type RegisterEntry,
  type RegisterReport,
  type RegisterStatus,
  type RegisterTimings,
} from "./entries.ts";

/**
 * Registers the tasks, workflows and launch plans in `options.paths`.
 *
 * A file the admin refuses is a `Failed` entry, not an exception; so is a file that is not a valid
 * entity. Exceptions are for what prevents registration before anything is sent; what stops it once
 * sending has begun (the admin unreachable, the source upload failed) is the report's `error`, with
 * the rows of what was and was not registered. When `signal` aborts during the creates, no new create
 * starts, the ones in flight finish, and the report has `interrupted` set.
 *
 * ```ts
 * import { connect, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const report = await registerFiles(flyte.client, {
 *   paths: ["flytesnacks-core.tgz"],
 *   archive: true,
 *   project: "flytesnacks",
 *   domain: "development",
 *   version: "v1",
 * });
 * console.log(report.entries.length, report.failed);
 * ```
 *
 * @param admin the admin client, or a function that makes it (see {@link AdminClientSource}: a dry run
 *   never calls it)
 * @throws {UsageError} bad arguments, missing files, entities that would have no version, or (when the admin
 *   offers no upload location) storage that cannot take the fast-registration source; nothing is created
 * @throws {OperationError} an unreadable archive, one with no entity in it, or a failed download
 */
export async function registerFiles(
  admin: AdminClientSource,
  options: RegisterFilesOptions,
  signal?: AbortSignal,
  deps: RegisterDeps = {},
): Promise<RegisterReport> {
  // First, as when the caller makes the client itself: a client that cannot be made is the first error.
  const client = options.dryRun ? undefined : typeof admin === "function" ? await admin() : admin;
  const run = startRun(checkOptions(options), signal, deps);
  let sender: Sender | undefined;
  if (client) {
    // Connecting (TCP, TLS, HTTP/2) overlaps reading the package; a failure surfaces only once the package
    // has been checked (the upload location asked for meanwhile reports it when the upload awaits it).
    void client.connect();
    sender = { client, upload: import("./upload.ts") };
    // Observed when awaited; a package that fails to read must not leave it rejected unobserved.
    sender.upload.catch(() => {});
  }
  return await withPackageMembers(
    options.paths,
    options.archive ?? false,
    (members) => registerMembers(members, run, sender),
    signal,
    deps,
    // A dry run uploads nothing: the source is read past, not spooled to disk and hashed.
    { sourceBytes: sender !== undefined },
  );
}

/**
 * What a registration that sends something sends with. A dry run loads neither of its modules: the upload's
 * loads while the package is read, the execute step's once the upload location has been asked for, so that it
 * loads during that round trip instead of before it. Static specifiers, so that `deno compile` and
 * `deno publish` see them.
 */
interface Sender {
  client: AdminClient;
  /** The upload (`node:crypto`, the HTTP client, Connect's errors). */
  upload: Promise<typeof import("./upload.ts")>;
}

/** The execute step's module: the creates' requests and their scheduling. */
function loadExecute(): Promise<typeof import("./execute.ts")> {
  return import("./execute.ts");
}

/**
 * Turns of the event loop given to the upload location call before the CPU-bound checks. On its way out the call
 * waits on the loop a few times (its service's descriptors load, the token cache is read), and work that holds the
 * loop holds the call back as long: measured, it left 30–50 ms after being asked when the checks ran at once, and
 * 10–15 ms after with three turns, its round trip then overlapping the checks instead of following them.
 */
const CALL_TURNS = 3;

/** Resolves after `turns` turns of the event loop (timers, and I/O that completed meanwhile, run in each). */
async function turnsOfTheEventLoop(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Check → plan → execute → report, on the members of the package; no `sender` in a dry run. */
async function registerMembers(
  members: readonly PackageMember[],
  run: RegisterRun,
  sender: Sender | undefined,
): Promise<RegisterReport> {
  const { options } = run;
  // The upload location is asked for first, before the package is checked and before the creates' module
  // loads, so that its round trip overlaps both; it changes nothing on the admin's side. The bytes are sent
  // only once the package is sound.
  const sources = packageSources(members);
  const source = sources.length === 1 ? sources[0] : undefined;
  const upload = source && sender ? keptSource(source) : undefined;
  const requested = upload && sender
    ? (await sender.upload).requestUploadLocation(sender.client, sourceUploadOptions(upload, run), run.signal)
    : undefined;
  // The call leaves through a few turns of the event loop; the checks below would hold it back as long as they run.
  if (requested) await turnsOfTheEventLoop(CALL_TURNS);
  const execute = sender && loadExecute();
  // Observed when awaited; a package that fails its checks must not leave it rejected unobserved.
  execute?.catch(() => {});
  try {
    const { entities, invalid } = await checkPackage(members, options);
    run.entries.push(...invalid);
    if (source) run.source = { name: source.name };
    const plan = planJobs(entities, requested && { kind: "source", member: upload!, requested });
    const refused = invalid.length > 0 && !options.continueOnError;
    const sending = refused || !sender ? undefined : await execute;
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
  } finally {
    // A package that failed its checks, or a registration that stopped, leaves no call or retry behind.
    requested?.cancel();
  }
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

/** What {@link requestUploadLocation} needs to upload a package's source for this registration. */
function sourceUploadOptions(member: KeptSource, run: RegisterRun): UploadSourceOptions {
  const options: CheckedOptions = run.options;
  return {
    ...(member.bytes !== undefined ? { bytes: member.bytes } : { path: member.path }),
    project: options.project,
    domain: options.domain,
    name: member.name,
    digest: member.digest,
    version: options.version,
    sourceUploadPath: options.sourceUploadPath,
    openStorage: run.deps.openStorage,
    allowLocalStorage: run.deps.allowLocalStorage,
    http: run.deps.http,
  };
}

/**
 * `register files`: registering a serialized Flyte package with the admin service.
 *
 * One explicit run state (`run_state.ts`) goes through four steps, each in its own module:
 * - check (`check.ts`): every file decodes, every entity gets a version, so a bad package uploads
 *   and creates nothing; only the source's upload location, which changes nothing, is asked for
 *   before it (its round trip overlaps the check), and where the source goes is decided (the admin's data
 *   proxy, or storage whose settings are checked) before the first create, so that a storage mistake creates
 *   nothing;
 * - plan (`jobs.ts`): the creates in dependency order, and the source upload as a job that only the
 *   tasks carrying its location wait for;
 * - execute (`execute.ts`): the upload and the creates, concurrently; loaded only by a registration that
 *   sends something, so a dry run never loads Connect or the HTTP client;
 * - report (`report.ts`): a row per file.
 *
 * This module reads the package and asks for the source's upload location; the steps (`check_and_send.ts`) load
 * once that call has been asked for. Nothing this module loads beforehand evaluates the registration messages'
 * generated file: decoding needs its descriptors, and building them overlaps the call's round trip, instead of
 * holding back the package's reading and the call. Measured against an admin 50 ms away: the call
 * leaves about 50 ms sooner and the first create about 25–35 ms sooner; the checks alone already outlasted the
 * round trip, so a registration on a busy two-core machine, bound by CPU, ends little sooner.
 *
 * @module
 */
import type { AskedSource, Sender } from "./check_and_send.ts";
import { checkOptions } from "./check_options.ts";
import type { AdminClientSource, CheckedOptions, RegisterDeps, RegisterFilesOptions } from "./options.ts";
import { type PackageMember, withPackageMembers } from "./package/members.ts";
import { type KeptSource, keptSource, packageSources } from "./package_sources.ts";
import type { RegisterReport } from "./entries.ts";
import { type RegisterRun, startRun } from "./run_state.ts";
import type { UploadSourceOptions } from "./upload.ts";
import { turnsOfTheEventLoop } from "../event_loop.ts";

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
  let sender: Omit<Sender, "execute"> | undefined;
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

/** The check, plan, execute and report steps: the registration messages, and protobuf-es to decode with. */
function loadSteps(): Promise<typeof import("./check_and_send.ts")> {
  return import("./check_and_send.ts");
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

/**
 * Asks for the source's upload location, then loads the steps and runs them on the members of the package; no
 * `sender` in a dry run.
 */
async function registerMembers(
  members: readonly PackageMember[],
  run: RegisterRun,
  sender: Omit<Sender, "execute"> | undefined,
): Promise<RegisterReport> {
  // The upload location is asked for first, before the steps' modules load and the package is checked, so that
  // its round trip overlaps them; it changes nothing on the admin's side. The bytes are sent only once the package
  // is sound. A package with more than one source asks for nothing: the check refuses it.
  const sources = packageSources(members);
  const source = sources.length === 1 ? sources[0] : undefined;
  const member = source && sender ? keptSource(source) : undefined;
  const requested = member && sender
    ? (await sender.upload).requestUploadLocation(sender.client, sourceUploadOptions(member, run), run.signal)
    : undefined;
  try {
    // The call leaves through a few turns of the event loop; loading the steps' modules (building the descriptors)
    // and the checks would hold it back as long as they run.
    if (requested) await turnsOfTheEventLoop(CALL_TURNS);
    const steps = loadSteps();
    const execute = sender && loadExecute();
    // Observed when awaited; a package that fails its checks must not leave it rejected unobserved.
    execute?.catch(() => {});
    const asked: AskedSource | undefined = source &&
      { source, ...(member && requested ? { upload: { member, requested } } : {}) };
    return await (await steps).checkAndSend(members, run, sender && execute && { ...sender, execute }, asked);
  } finally {
    // A package that failed its checks, or a registration that stopped, leaves no call or retry behind.
    requested?.cancel();
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

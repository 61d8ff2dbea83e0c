/**
 * `register files`: registering a serialized Flyte package with the admin service.
 *
 * Everything that can be checked locally is checked before anything is uploaded or created (every
 * file decodes, every entity gets a version), so a bad package does not end up half registered; only
 * the source's upload location, which changes nothing, is asked for meanwhile. Then the
 * fast-registration source, if any, is uploaded, and the entities are created concurrently in
 * dependency order.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { quote, UsageError } from "../errors.ts";
import type { ObjectStore } from "../storage/store.ts";
import { decodeEntity, memberRole, type RegistrationEntity } from "./classify.ts";
import { createEntity, CreateRequests } from "./create_entity.ts";
import {
  assertVersioned,
  fillSourceLocation,
  hydrateEntityInPlace,
  type HydrateOptions,
  usesSourceLocation,
} from "./hydrate.ts";
import {
  type MemberInMemory,
  type MemberOnDisk,
  type PackageMember,
  type PackageReadDeps,
  withPackageMembers,
} from "./inputs.ts";
import { planRegistration, type RegistrationPlan } from "./plan.ts";
import {
  blockedInfo,
  entryFor,
  INFO,
  type RegisteredSource,
  type RegisterEntry,
  type RegisterReport,
  type RegisterTimings,
} from "./report.ts";
import { IdleQueue } from "./idle_queue.ts";
import { type JobOutcome, runGraph } from "./run_graph.ts";
import { type RequestedUpload, requestUploadLocation, type UploadSourceOptions } from "./upload.ts";
import { timeSlices } from "./time_slices.ts";

export {
  INFO,
  type RegisteredSource,
  type RegisterEntry,
  type RegisterReport,
  type RegisterStatus,
  type RegisterTimings,
} from "./report.ts";

/** Creates running at once unless told otherwise. */
export const DEFAULT_CONCURRENCY = 8;

/** Options of {@link registerFiles}; the `register files` flags. */
export interface RegisterFilesOptions extends Omit<HydrateOptions, "sourceLocation"> {
  /** `.pb` files, or with {@link archive} `.tar`/`.tar.gz`/`.tgz` archives (local paths or http(s) URLs). */
  paths: string[];
  /** Treat {@link paths} as archives of a package. */
  archive?: boolean;
  /** Check and hydrate everything, but make no RPC and upload nothing. */
  dryRun?: boolean;
  /** Keep registering after a file fails (bad files included) instead of stopping. */
  continueOnError?: boolean;
  /** Activate launch plans that have a schedule, once created. */
  enableSchedule?: boolean;
  /** Most creates in flight at once (default {@link DEFAULT_CONCURRENCY}; 1 is one RPC at a time). */
  concurrency?: number;
  /** Where the source goes when the admin has no upload location (instead of the storage's container). */
  sourceUploadPath?: string;
}

/** Registration progress, for a progress display. */
export type RegisterProgress =
  | { phase: "upload"; name: string; done: boolean }
  | { phase: "create"; done: number; total: number };

/** What {@link registerFiles} uses besides the admin client; all optional. */
export interface RegisterDeps extends PackageReadDeps {
  /** Opens the configured storage when the admin offers no upload location. */
  openStorage?: () => ObjectStore;
  /** Milliseconds on a monotonic clock, for the report's timings; default `performance.now`. */
  now?: () => number;
  /** Called as the upload and the creates progress. */
  onProgress?: (progress: RegisterProgress) => void;
}

/**
 * Registers the tasks, workflows and launch plans in `options.paths`.
 *
 * A file the admin refuses is a `Failed` entry, not an exception; so is a file that is not a valid
 * entity. Exceptions are for what prevents registration as a whole. When `signal` aborts during the
 * creates, no new create starts, the ones in flight finish, and the report has `interrupted` set.
 *
 * @throws {UsageError} bad arguments, missing files, or entities that would have no version
 * @throws {OperationError} an unreadable archive, a failed download or source upload, or a connection failure
 */
export async function registerFiles(
  client: AdminClient,
  options: RegisterFilesOptions,
  signal?: AbortSignal,
  deps: RegisterDeps = {},
): Promise<RegisterReport> {
  if (options.project === "") throw new UsageError("project is required (-p/--project)");
  if (options.domain === "") throw new UsageError("domain is required (-d/--domain)");
  if (options.paths.length === 0) throw new UsageError("no files given to register");
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new UsageError(`invalid concurrency ${quote(concurrency)}: expected a whole number of at least 1`);
  }
  // An empty version (a config file's default) means "not given": entities keep the versions they have.
  const normalized = { ...options, concurrency, version: options.version || undefined };
  const now = deps.now ?? (() => performance.now());
  const started = now();
  // Connecting (TCP, TLS, HTTP/2) overlaps reading the package; a failure surfaces only once the package
  // has been checked (the upload location asked for meanwhile reports it when the upload awaits it).
  if (!options.dryRun) void client.connect();
  return await withPackageMembers(
    options.paths,
    options.archive ?? false,
    (members) => registerMembers(client, members, normalized, signal, { ...deps, now }, started),
    signal,
    deps,
  );
}

type Resolved = RegisterFilesOptions & { concurrency: number };

async function registerMembers(
  client: AdminClient,
  members: readonly PackageMember[],
  options: Resolved,
  signal: AbortSignal | undefined,
  deps: RegisterDeps & { now: () => number },
  started: number,
): Promise<RegisterReport> {
  const { now } = deps;
  // The upload location is asked for before the package is checked, so that round trip overlaps the
  // checks; it changes nothing on the admin's side. The bytes are sent only once the package is sound.
  // More than one source is an error, reported per source by the checks.
  const sources = members.filter(isSource);
  const source = sources.length === 1 ? sources[0] : undefined;
  const requested = source && !options.dryRun
    ? requestUploadLocation(client, sourceUploadOptions(source, options, deps), signal)
    : undefined;
  try {
    // Checking is milliseconds of work: done in slices, so that the request goes out meanwhile (a dry
    // run makes none).
    const { entities, invalid, plan } = await checkPackage(
      members,
      sources,
      options,
      options.dryRun ? noPause : timeSlices(),
    );
    const entries = [...invalid];
    const order = plan.stages.flat();
    const timings: RegisterTimings = { prepareMs: now() - started, uploadMs: 0, registerMs: 0, totalMs: 0 };
    const finish = (source: RegisteredSource | undefined, interrupted = false): RegisterReport => {
      timings.totalMs = now() - started;
      const failed = entries.filter((e) => e.status === "Failed").length;
      const report: RegisterReport = { entries, failed, interrupted, dryRun: options.dryRun ?? false, timings };
      if (source) report.source = source;
      return report;
    };
    const skipAll = (info: string, interrupted = false) => {
      for (const entity of order) entries.push(entryFor(entity, "Skipped", info));
      return finish(source ? { name: source.name } : undefined, interrupted);
    };
    if (invalid.length > 0 && !options.continueOnError) return skipAll(INFO.invalidPackage);
    if (options.dryRun) return skipAll(INFO.dryRun);

    // The source upload is a job of the graph: the tasks that carry its location wait for it, and
    // everything that does not need it (SQL and raw-container tasks, and what uses only them) is
    // created while it is in flight. It starts first, as the head of the longest chain.
    const upload: SourceUpload | undefined = requested && { kind: "source", member: source!, requested };
    let registeredSource: RegisteredSource | undefined = upload ? { name: upload.member.name } : undefined;
    const jobs: RegisterJob[] = upload ? [upload, ...order] : order;
    const sourceUsers = upload ? entities.filter(usesSourceLocation) : [];
    // Each create request is encoded while earlier creates are answered, in creation order; those that
    // carry the source's location once it is known.
    const requests = new CreateRequests();
    const encoding = new IdleQueue<RegistrationEntity>((entity) => requests.encodeAhead(entity));
    const waitingForSource = new Set(sourceUsers);
    const dependencies = new Map<RegisterJob, Set<RegisterJob>>(plan.dependencies);
    for (const entity of sourceUsers) dependencies.set(entity, new Set([...plan.dependencies.get(entity)!, upload!]));
    const uploadSource = async ({ member, requested }: SourceUpload): Promise<JobResult> => {
      const uploadStarted = now();
      deps.onProgress?.({ phase: "upload", name: member.name, done: false });
      let uploaded;
      try {
        uploaded = await requested.upload();
      } catch (err) {
        // Interrupted: what depends on the source is reported as not registered, not as an error.
        if (signal?.aborted) return UPLOAD_INTERRUPTED;
        throw err;
      }
      registeredSource = { name: member.name, location: uploaded.location, via: uploaded.via, size: uploaded.size };
      for (const entity of sourceUsers) fillSourceLocation(entity, uploaded.location);
      encoding.add(order.filter((entity) => waitingForSource.has(entity)));
      timings.uploadMs = now() - uploadStarted;
      deps.onProgress?.({ phase: "upload", name: member.name, done: true });
      return UPLOADED;
    };

    const registerStarted = now();
    let done = 0;
    let outcomes: Map<RegisterJob, JobOutcome<RegisterJob, JobResult>>;
    encoding.add(order.filter((entity) => !waitingForSource.has(entity)));
    try {
      outcomes = await runGraph<RegisterJob, JobResult>({
        jobs,
        dependencies,
        concurrency: options.concurrency,
        stopOnFailure: !options.continueOnError,
        signal,
        now,
        run: async (job) => {
          if (job.kind === "source") return await uploadSource(job);
          const entry = await createEntity(client.admin, job, options, requests);
          deps.onProgress?.({ phase: "create", done: ++done, total: order.length });
          return entry;
        },
        isFailure: (result) => result === UPLOAD_INTERRUPTED || (result !== UPLOADED && result.status === "Failed"),
      });
    } finally {
      encoding.stop();
    }
    timings.registerMs = now() - registerStarted;

    entries.push(...outcomeEntries(order, outcomes, started, signal?.aborted ?? false));
    return finish(registeredSource, signal?.aborted ?? false);
  } finally {
    // A package that failed its checks, or a registration that stopped, leaves no call or retry behind.
    requested?.cancel();
  }
}

/**
 * The rows of `order` from how their jobs ended: a create's own row with its timing, or why it was
 * skipped (what it waited on, an interruption, or a stop after a failure).
 */
function outcomeEntries(
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
        // Only an interrupted upload blocks its dependents (a failed one throws); what waits on
        // something interrupted was interrupted too.
        const dependency = outcome.on.kind === "source" ? undefined : entryOf(outcome.on);
        const dependsOn = dependency?.name ?? (outcome.on as SourceUpload).member.name;
        const info = dependency && dependency.info !== INFO.interrupted ? blockedInfo(dependency) : INFO.interrupted;
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

/** A fast-registration source: in memory when small, else in the private temp dir. */
type SourceMember = MemberInMemory | MemberOnDisk;

/** The fast-registration source's upload, as a job among the creates. */
interface SourceUpload {
  kind: "source";
  member: SourceMember;
  /** Its upload location, asked for while the package was checked. */
  requested: RequestedUpload;
}

type RegisterJob = RegistrationEntity | SourceUpload;

const UPLOADED = "uploaded";
const UPLOAD_INTERRUPTED = "uploadInterrupted";
/** A create's row, or how the upload ended. */
type JobResult = RegisterEntry | typeof UPLOADED | typeof UPLOAD_INTERRUPTED;

interface LoadedPackage {
  entities: RegistrationEntity[];
  /** `Failed` entries for members that cannot be registered. */
  invalid: RegisterEntry[];
}

/** A package decoded, hydrated and planned. */
interface CheckedPackage extends LoadedPackage {
  plan: RegistrationPlan;
}

/**
 * Decodes and hydrates every member and plans the creates; `checkpoint` is awaited between pieces of
 * the work. What cannot be registered is in `invalid`.
 *
 * @throws {UsageError} entities that would have no version
 */
async function checkPackage(
  members: readonly PackageMember[],
  sources: readonly SourceMember[],
  options: Resolved,
  checkpoint: () => Promise<void> | undefined,
): Promise<CheckedPackage> {
  const loaded = await loadPackage(members, sources, checkpoint);
  // The entities were decoded for this registration alone: hydrate them once, in place (copies cost
  // more than the rest of the preparation); the source location is filled in after the upload.
  for (const entity of loaded.entities) {
    hydrateEntityInPlace(entity, options);
    await checkpoint();
  }
  assertVersioned(loaded.entities);
  return { ...loaded, plan: planRegistration(loaded.entities) };
}

/**
 * Decodes every member but the fast-registration `sources`, collecting what is wrong instead of
 * stopping at the first problem; more than one source is a problem of each.
 */
async function loadPackage(
  members: readonly PackageMember[],
  sources: readonly SourceMember[],
  checkpoint: () => Promise<void> | undefined,
): Promise<LoadedPackage> {
  const loaded: LoadedPackage = { entities: [], invalid: [] };
  const sourceSet = new Set<PackageMember>(sources);
  for (const member of sortedByName(members)) {
    if (sourceSet.has(member)) continue;
    if (memberRole(member.name).role === "other" && !member.explicit) {
      loaded.invalid.push({
        name: member.name,
        status: "Failed",
        info: "Unexpected file: not a serialized entity (.pb) or a fast-registration source (fast*.tar.gz)",
      });
      continue;
    }
    try {
      loaded.entities.push(decodeEntity(member.name, await readMember(member)));
    } catch (err) {
      loaded.invalid.push({ name: member.name, status: "Failed", info: (err as Error).message });
    }
    await checkpoint();
  }
  if (sources.length > 1) {
    const sorted = sortedByName(sources);
    const names = sorted.map((s) => quote(s.name)).join(", ");
    for (const source of sorted) {
      loaded.invalid.push({
        name: source.name,
        status: "Failed",
        info: `Only one fast-registration source per registration is supported, found ${names}`,
      });
    }
  }
  return loaded;
}

function sortedByName<M extends PackageMember>(members: readonly M[]): M[] {
  return [...members].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Whether a member is a fast-registration source (whose bytes are always kept, in memory or on disk). */
function isSource(member: PackageMember): member is SourceMember {
  return memberRole(member.name).role === "fastSource" && isKept(member);
}

/** Whether a member's bytes were kept, in memory or on disk (a fast source's always are). */
function isKept(member: PackageMember): member is SourceMember {
  return member.bytes !== undefined || member.path !== undefined;
}

/** A checkpoint that never pauses. */
function noPause(): undefined {
  return undefined;
}

/** What {@link requestUploadLocation} needs to upload a package's source for this registration. */
function sourceUploadOptions(member: SourceMember, options: Resolved, deps: RegisterDeps): UploadSourceOptions {
  return {
    ...(member.bytes !== undefined ? { bytes: member.bytes } : { path: member.path }),
    project: options.project,
    domain: options.domain,
    name: member.name,
    digest: member.digest,
    version: options.version,
    sourceUploadPath: options.sourceUploadPath,
    openStorage: deps.openStorage,
    http: deps.http,
  };
}

/** An entity member's bytes: in memory for archive members, else read from disk. */
async function readMember(member: PackageMember): Promise<Uint8Array> {
  if (member.bytes !== undefined) return member.bytes;
  // Archive members are kept in memory or on disk by their role, so a role-less member never gets here.
  if (member.path === undefined) throw new Error(`${quote(member.name)} was not kept`);
  return await Deno.readFile(member.path);
}

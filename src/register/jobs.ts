/**
 * The plan step of a registration: the creates in dependency order, and the source upload as one
 * more job that only the tasks carrying the source's location wait for.
 *
 * @module
 */
import type { RegistrationEntity } from "./classify.ts";
import type { KeptSource } from "./package_sources.ts";
import { usesSourceLocation } from "./hydrate.ts";
import { planRegistration } from "./plan.ts";
import type { RegisterEntry } from "./entries.ts";
import type { RequestedUpload } from "./upload.ts";

/** The fast-registration source's upload, as a job among the creates. */
export interface SourceUpload {
  kind: "source";
  member: KeptSource;
  /** Its upload location, asked for while the package was checked. */
  requested: RequestedUpload;
}

/** A create, or the upload. */
export type RegisterJob = RegistrationEntity | SourceUpload;

export const UPLOADED = "uploaded";
export const UPLOAD_INTERRUPTED = "uploadInterrupted";
/** A create's row, or how the upload ended. */
/** The upload failed; the error is the run's `error`. */
export const UPLOAD_FAILED = "uploadFailed";
export type JobResult = RegisterEntry | typeof UPLOADED | typeof UPLOAD_INTERRUPTED | typeof UPLOAD_FAILED;

/** What to run, and in which order. */
export interface JobPlan {
  /** The entities in creation order (dependency rounds, then kind and file name). */
  order: RegistrationEntity[];
  /** Every job: the upload first (the head of the longest chain), then {@link order}. */
  jobs: RegisterJob[];
  /** The jobs each job needs to have succeeded first. */
  dependencies: Map<RegisterJob, Set<RegisterJob>>;
  /** The upload, if the package has a source to upload. */
  upload?: SourceUpload;
  /** The tasks that carry the source's location, filled in once it is uploaded. */
  sourceUsers: RegistrationEntity[];
}

/**
 * Plans the creates of `entities`, and the upload of `upload`'s source if given. Everything that does
 * not need the source (SQL and raw-container tasks, and what uses only them) can be created while it
 * is in flight.
 */
export function planJobs(entities: readonly RegistrationEntity[], upload: SourceUpload | undefined): JobPlan {
  const plan = planRegistration(entities);
  const order = plan.stages.flat();
  const dependencies = new Map<RegisterJob, Set<RegisterJob>>(plan.dependencies);
  if (upload === undefined) return { order, jobs: order, dependencies, sourceUsers: [] };
  const sourceUsers = entities.filter(usesSourceLocation);
  for (const entity of sourceUsers) dependencies.set(entity, new Set([...plan.dependencies.get(entity)!, upload]));
  return { order, jobs: [upload, ...order], dependencies, upload, sourceUsers };
}

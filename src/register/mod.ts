/**
 * Registering serialized Flyte packages (`pyflyte package` output) with the admin service.
 *
 * {@link registerFiles} is the operation; the other exports are its steps, for callers that
 * need one of them alone (inspecting a package, hydrating without registering).
 *
 * @module
 */
export {
  type ArchiveEntry,
  type ArchiveFormat,
  archiveFormat,
  DEFAULT_MEMORY_BUDGET_BYTES,
  type ExtractedArchive,
  type ExtractedFile,
  type Placement,
  type ReadArchive,
  type ReadArchiveOptions,
  UNSUPPORTED_ARCHIVE_MESSAGE,
  withArchiveEntries,
  withExtractedArchive,
  withExtractedStream,
  withStreamedArchiveEntries,
} from "./archive.ts";
export {
  decodeEntity,
  entityId,
  type EntityKind,
  type MemberRole,
  memberRole,
  type RegistrationEntity,
} from "./classify.ts";
export {
  assertVersioned,
  DEST_DIR_PLACEHOLDER,
  DOMAIN_PLACEHOLDER,
  forEachIdentifier,
  hydrateEntity,
  type HydrateOptions,
  PROJECT_PLACEHOLDER,
  REMOTE_PACKAGE_PATH_PLACEHOLDER,
  unversionedEntities,
  type UnversionedEntity,
  VERSION_PLACEHOLDER,
} from "./hydrate.ts";
export {
  type DownloadDeps,
  type DownloadProgress,
  isUrl,
  type MemberBase,
  type MemberInMemory,
  type MemberNameOnly,
  type MemberOnDisk,
  type PackageMember,
  type PackageReadDeps,
  redactUrl,
  SOURCE_IN_MEMORY_MAX_BYTES,
  withPackageMembers,
} from "./inputs.ts";
export { identifierKey, planRegistration, type RegistrationPlan } from "./plan.ts";
export { type JobOutcome, runGraph, type RunGraphOptions } from "./run_graph.ts";
export { hasSchedule, missingScheduledInputs, missingScheduledInputsMessage } from "./schedule_check.ts";
export { createEntity, type CreateOptions, type CreateRequest, CreateRequests } from "./create_entity.ts";
export {
  DEFAULT_CONCURRENCY,
  INFO,
  type RegisterDeps,
  type RegisteredSource,
  type RegisterEntry,
  registerFiles,
  type RegisterFilesOptions,
  type RegisterProgress,
  type RegisterReport,
  type RegisterStatus,
  type RegisterTimings,
} from "./register_files.ts";
export type { ObjectStore, StoreSource } from "../storage/store.ts";
// Types the functions above take and return, re-exported so this module documents completely.
export type { AdminClient } from "../admin/client.ts";
export type { TaskSpec } from "../../proto/gen/flyteidl/admin/task_pb.ts";
export type { WorkflowSpec } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
export type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
export type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
export {
  type FileDigest,
  md5Bytes,
  md5File,
  type RequestedUpload,
  requestUploadLocation,
  type SourceContent,
  type UploadedSource,
  uploadFastSource,
  type UploadSourceOptions,
  type UploadTarget,
} from "./upload.ts";

/**
 * Registering serialized Flyte packages (`pyflyte package` output) with the admin service.
 *
 * {@link registerFiles} is the operation; the other exports are its steps, for callers that
 * need one of them alone (inspecting a package, hydrating without registering).
 *
 * @module
 */
export {
  type ArchiveFormat,
  archiveFormat,
  type ExtractedArchive,
  type ExtractedFile,
  UNSUPPORTED_ARCHIVE_MESSAGE,
  withExtractedArchive,
  withExtractedStream,
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
export { type PackageMember, withPackageMembers } from "./inputs.ts";
export { identifierKey, planRegistration, type RegistrationPlan } from "./plan.ts";
export { putFile, type PutFileOptions } from "./put_file.ts";
export {
  INFO,
  type RegisterEntry,
  registerFiles,
  type RegisterFilesOptions,
  type RegisterReport,
  type RegisterStatus,
} from "./register_files.ts";
// Types the functions above take and return, re-exported so this module documents completely.
export type { AdminClient } from "../admin/client.ts";
export type { TaskSpec } from "../../proto/gen/flyteidl/admin/task_pb.ts";
export type { WorkflowSpec } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
export type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
export type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
export { md5File, type UploadedSource, uploadFastSource, type UploadSourceOptions } from "./upload.ts";

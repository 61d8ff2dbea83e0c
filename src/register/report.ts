/**
 * What a registration did, file by file: the rows of the results table and the machine report.
 *
 * @module
 */
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { entityId, type EntityKind, type RegistrationEntity } from "./classify.ts";

/** Outcome of one file, as the results table shows it. */
export type RegisterStatus = "Success" | "Failed" | "Skipped";

/** One row of the results. */
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

/** The fast-registration source of a package. */
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

/** Milliseconds spent in each phase. */
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

/** What `registerFiles` did. */
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
export function blockedInfo(dependency: RegisterEntry): string {
  const why = dependency.status === "Failed" ? "failed" : "was not registered";
  return `Not registered: depends on ${dependency.name}, which ${why}`;
}

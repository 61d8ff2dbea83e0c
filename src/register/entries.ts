/**
 * What a registration reports, and every step writes: a row per file (the results table's and the machine
 * report's), the source, the timings, and the report they make up. The report step (`report.ts`) puts them
 * together at the end.
 *
 * @module
 */
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { RegistrationEntity } from "./classify.ts";
import type { EntityKind } from "./member_role.ts";
import { entityId } from "./entity_id.ts";

/**
 * Outcome of one file, as the results table shows it.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterStatus } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["workflow.pb"], project: "flytesnacks", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options);
 * const counts = new Map<RegisterStatus, number>();
 * for (const entry of report.entries) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
 * console.log(counts); // e.g. Map(1) { "Success" => 3 }
 * ```
 */
export type RegisterStatus = "Success" | "Failed" | "Skipped";

/**
 * One row of the results.
 *
 * ```ts
 * import { connect, type RegisterEntry, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options, undefined, {});
 * const failed: RegisterEntry[] = report.entries.filter((entry) => entry.status === "Failed");
 * for (const entry of failed) console.error(`${entry.name} (${entry.kind}): ${entry.info}`);
 * ```
 */
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

/**
 * The fast-registration source of a package.
 *
 * ```ts
 * import { connect, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const { source } = await registerFiles(flyte.client, options);
 * if (source) console.log(`${source.name}: ${source.size} bytes to ${source.location} via ${source.via}`);
 * ```
 */
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

/**
 * Milliseconds spent in each phase.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterTimings } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const timings: RegisterTimings = (await registerFiles(flyte.client, options)).timings;
 * console.log(`prepared in ${timings.prepareMs} ms, registered in ${timings.registerMs} ms`);
 * ```
 */
export interface RegisterTimings {
  /**
   * Reading, extracting, decoding, hydrating and planning, and deciding where the fast-registration source goes
   * (the admin's answer to its upload location).
   */
  prepareMs: number;
  /** Uploading the fast-registration source; part of {@link registerMs}. */
  uploadMs: number;
  /** Creating the entities, and the upload, which runs alongside the creates that do not need the source. */
  registerMs: number;
  /** All of it. */
  totalMs: number;
}

/**
 * What `registerFiles` did.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterReport } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * const report: RegisterReport = await registerFiles(flyte.client, options);
 * if (report.error) throw report.error;
 * if (report.failed > 0 || report.interrupted) Deno.exitCode = 1;
 * ```
 */
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
  /**
   * What stopped the registration as a whole after it had started sending (the admin unreachable, the
   * source upload failed, the admin refused the project or domain: an `OperationError` saying what to do); the
   * entries say what was and was not registered before it. A caller shows them, then fails with this error.
   */
  error?: Error;
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

/** Rows for entities none of which is created, all for the same reason. */
export function skippedEntries(order: readonly RegistrationEntity[], info: string): RegisterEntry[] {
  return order.map((entity) => entryFor(entity, "Skipped", info));
}

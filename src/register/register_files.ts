/**
 * `register files`: registering a serialized Flyte package with the admin service.
 *
 * Everything that can be checked locally is checked before the first RPC (every file decodes,
 * every entity gets a version), so a bad package does not end up half registered. Then the
 * fast-registration source, if any, is uploaded, and the entities are created in dependency order.
 *
 * @module
 */
import type { Client } from "@connectrpc/connect";
import type { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { AdminClient } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import { quote, UsageError } from "../errors.ts";
import { decodeEntity, entityId, type EntityKind, memberRole, type RegistrationEntity } from "./classify.ts";
import { assertVersioned, hydrateEntity, type HydrateOptions } from "./hydrate.ts";
import { type PackageMember, withPackageMembers } from "./inputs.ts";
import { planRegistration } from "./plan.ts";
import { uploadFastSource } from "./upload.ts";

/** Options of {@link registerFiles}; the `register files` flags. */
export interface RegisterFilesOptions extends Omit<HydrateOptions, "sourceLocation"> {
  /** `.pb` files, or with {@link archive} `.tar`/`.tar.gz`/`.tgz` archives. */
  paths: string[];
  /** Treat {@link paths} as archives of a package. */
  archive?: boolean;
  /** Check and hydrate everything, but make no RPC and upload nothing. */
  dryRun?: boolean;
  /** Keep registering after a file fails (bad files included) instead of stopping. */
  continueOnError?: boolean;
}

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
}

/** What {@link registerFiles} did. */
export interface RegisterReport {
  /** Rows in the order files were handled: bad files first, then creation order. */
  entries: RegisterEntry[];
  /** The fast-registration source archive, and where it was uploaded (absent on dry runs). */
  source?: { name: string; location?: string };
  /** Number of `Failed` entries; a caller exits non-zero if it is not 0. */
  failed: number;
}

/** Info texts of the results table (flytectl's wording). */
export const INFO = {
  registered: "Successfully registered file",
  alreadyExists: "AlreadyExists",
  dryRun: "Dry run: not registered",
  invalidPackage: "Not registered: other files of the package are invalid",
  stopped: "Not registered: an earlier file failed",
} as const;

/** gRPC statuses after which no further create can succeed: stop instead of failing every file. */
const FATAL_STATUSES = new Set(["Unavailable", "Unauthenticated", "PermissionDenied", "Canceled", "DeadlineExceeded"]);

/**
 * Registers the tasks, workflows and launch plans in `options.paths`.
 *
 * A file the admin refuses is a `Failed` entry, not an exception; so is a file that is not a valid
 * entity. Exceptions are for what prevents registration as a whole.
 *
 * @throws {UsageError} bad arguments, missing files, or entities that would have no version
 * @throws {OperationError} an unreadable archive, a failed source upload, or a connection failure
 */
export async function registerFiles(
  client: AdminClient,
  options: RegisterFilesOptions,
  signal?: AbortSignal,
): Promise<RegisterReport> {
  if (options.project === "") throw new UsageError("project is required (-p/--project)");
  if (options.domain === "") throw new UsageError("domain is required (-d/--domain)");
  if (options.paths.length === 0) throw new UsageError("no files given to register");
  // An empty version (a config file's default) means "not given": entities keep the versions they have.
  const normalized = { ...options, version: options.version || undefined };
  return await withPackageMembers(
    options.paths,
    options.archive ?? false,
    (members) => registerMembers(client, members, normalized, signal),
    signal,
  );
}

async function registerMembers(
  client: AdminClient,
  members: readonly PackageMember[],
  options: RegisterFilesOptions,
  signal: AbortSignal | undefined,
): Promise<RegisterReport> {
  const { entities, sources, invalid } = await loadPackage(members);
  const entries = [...invalid];
  const hydrate = (sourceLocation?: string) => entities.map((e) => hydrateEntity(e, { ...options, sourceLocation }));
  assertVersioned(hydrate());

  const skipAll = (info: string) => {
    for (const entity of planOrder(hydrate())) entries.push(entryFor(entity, "Skipped", info));
    return report(entries, sources.length === 1 ? { name: sources[0].name } : undefined);
  };
  if (invalid.length > 0 && !options.continueOnError) return skipAll(INFO.invalidPackage);
  if (options.dryRun) return skipAll(INFO.dryRun);

  let source: RegisterReport["source"];
  if (sources.length === 1) {
    const uploaded = await uploadFastSource(client, {
      project: options.project,
      domain: options.domain,
      path: sources[0].path,
      name: sources[0].name,
    }, signal);
    source = { name: sources[0].name, location: uploaded.location };
  }

  let stopped = false;
  for (const entity of planOrder(hydrate(source?.location))) {
    if (stopped) {
      entries.push(entryFor(entity, "Skipped", INFO.stopped));
      continue;
    }
    signal?.throwIfAborted();
    const entry = await createEntity(client.admin, entity, signal);
    entries.push(entry);
    if (entry.status === "Failed" && !options.continueOnError) stopped = true;
  }
  return report(entries, source);
}

interface LoadedPackage {
  entities: RegistrationEntity[];
  /** Fast-registration source archives (more than one is an error, reported in `invalid`). */
  sources: PackageMember[];
  /** `Failed` entries for members that cannot be registered. */
  invalid: RegisterEntry[];
}

/** Decodes every member, collecting what is wrong instead of stopping at the first problem. */
async function loadPackage(members: readonly PackageMember[]): Promise<LoadedPackage> {
  const loaded: LoadedPackage = { entities: [], sources: [], invalid: [] };
  const sorted = [...members].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const member of sorted) {
    const role = memberRole(member.name);
    if (role.role === "fastSource") {
      loaded.sources.push(member);
    } else if (role.role === "other" && !member.explicit) {
      loaded.invalid.push({
        name: member.name,
        status: "Failed",
        info: "Unexpected file: not a serialized entity (.pb) or a fast-registration source (fast*.tar.gz)",
      });
    } else {
      try {
        loaded.entities.push(decodeEntity(member.name, await Deno.readFile(member.path)));
      } catch (err) {
        loaded.invalid.push({ name: member.name, status: "Failed", info: (err as Error).message });
      }
    }
  }
  if (loaded.sources.length > 1) {
    const names = loaded.sources.map((s) => quote(s.name)).join(", ");
    for (const source of loaded.sources) {
      loaded.invalid.push({
        name: source.name,
        status: "Failed",
        info: `Only one fast-registration source per registration is supported, found ${names}`,
      });
    }
    loaded.sources = [];
  }
  return loaded;
}

function planOrder(entities: readonly RegistrationEntity[]): RegistrationEntity[] {
  // Sequential for now; the stages are what a concurrent version runs in parallel.
  return planRegistration(entities).stages.flat();
}

function entryFor(entity: RegistrationEntity, status: RegisterStatus, info: string): RegisterEntry {
  return { name: entity.name, kind: entity.kind, id: entityId(entity), status, info };
}

function report(entries: RegisterEntry[], source: RegisterReport["source"]): RegisterReport {
  const failed = entries.filter((e) => e.status === "Failed").length;
  return source ? { entries, source, failed } : { entries, failed };
}

/** Creates one entity; the admin's refusal becomes a `Failed` entry, `ALREADY_EXISTS` a success. */
async function createEntity(
  admin: Client<typeof AdminService>,
  entity: RegistrationEntity,
  signal: AbortSignal | undefined,
): Promise<RegisterEntry> {
  const id = entityId(entity);
  try {
    switch (entity.kind) {
      case "task":
        await admin.createTask({ id, spec: entity.spec }, { signal });
        break;
      case "workflow":
        await admin.createWorkflow({ id, spec: entity.spec }, { signal });
        break;
      case "launchPlan":
        await admin.createLaunchPlan({ id, spec: entity.spec.spec }, { signal });
        break;
    }
    return entryFor(entity, "Success", INFO.registered);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (!(err instanceof AdminError) || FATAL_STATUSES.has(err.status)) throw err;
    if (err.status === "AlreadyExists") return entryFor(entity, "Success", INFO.alreadyExists);
    return entryFor(entity, "Failed", `Error registering file due to ${err.serverMessage}`);
  }
}

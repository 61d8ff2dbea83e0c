/**
 * The check step of a registration: everything that can be checked locally, before anything is
 * uploaded or created, so that a bad package does not end up half registered.
 *
 * @module
 */
import { InvalidOptionError, quote, UsageError } from "../errors.ts";
import { decodeEntity, memberRole, type RegistrationEntity } from "./classify.ts";
import { assertVersioned, hydrateEntityInPlace } from "./hydrate.ts";
import { type CheckedOptions, DEFAULT_CONCURRENCY, type RegisterFilesOptions } from "./options.ts";
import {
  type MemberInMemory,
  type MemberNameOnly,
  type MemberOnDisk,
  type PackageMember,
  readMemberBytes,
} from "./package/members.ts";
import type { RegisterEntry } from "./entries.ts";

/**
 * A fast-registration source: in memory when small, else in the private temp dir; only its name when the
 * registration uploads nothing (see {@link KeptSource}).
 */
export type SourceMember = MemberInMemory | MemberOnDisk | MemberNameOnly;

/** A fast-registration source with its bytes, as a registration that uploads it has it. */
export type KeptSource = MemberInMemory | MemberOnDisk;

/** A package decoded and hydrated. */
export interface CheckedPackage {
  /** The entities, hydrated (but for the source's location, filled in once it is uploaded). */
  entities: RegistrationEntity[];
  /** `Failed` entries for members that cannot be registered. */
  invalid: RegisterEntry[];
}

/**
 * The options with their defaults, once they are known to be usable.
 *
 * @throws {UsageError} no project, domain or paths
 * @throws {InvalidOptionError} a concurrency that is not a whole number of at least 1
 */
export function checkOptions(options: RegisterFilesOptions): CheckedOptions {
  if (options.paths.length === 0) throw new UsageError("no files given to register");
  return checkSettings(options);
}

/**
 * What every registration needs whatever it registers: project, domain and concurrency (the default
 * filled in), and an empty version dropped. `registerExamples` checks these before asking GitHub anything.
 *
 * @throws {UsageError} no project or domain
 * @throws {InvalidOptionError} a concurrency that is not a whole number of at least 1
 */
export function checkSettings<T extends Omit<RegisterFilesOptions, "paths">>(
  options: T,
): T & { concurrency: number } {
  if (options.project === "") throw new UsageError("project is required (-p/--project)");
  if (options.domain === "") throw new UsageError("domain is required (-d/--domain)");
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidOptionError(`invalid concurrency ${quote(concurrency)}: expected a whole number of at least 1`, {
      option: "concurrency",
      value: concurrency,
      expected: "a whole number of at least 1",
    });
  }
  // An empty version (a config file's default) means "not given": entities keep the versions they have.
  return { ...options, concurrency, version: options.version || undefined };
}

/**
 * The package's fast-registration sources (with their bytes, in memory or on disk, unless the registration
 * uploads nothing). More than one is an error, reported per source by {@link checkPackage}.
 */
export function packageSources(members: readonly PackageMember[]): SourceMember[] {
  return members.filter(isSource);
}

/**
 * Decodes and hydrates every member but the fast-registration sources, collecting what is wrong
 * instead of stopping at the first problem; more than one source is a problem of each.
 *
 * @throws {UsageError} entities that would have no version
 */
export async function checkPackage(
  members: readonly PackageMember[],
  options: CheckedOptions,
): Promise<CheckedPackage> {
  const sources = packageSources(members);
  const checked: CheckedPackage = { entities: [], invalid: [] };
  const sourceSet = new Set<PackageMember>(sources);
  for (const member of sortedByName(members)) {
    if (sourceSet.has(member)) continue;
    if (memberRole(member.name).role === "other" && !member.explicit) {
      checked.invalid.push({
        name: member.name,
        status: "Failed",
        info: "Unexpected file: not a serialized entity (.pb) or a fast-registration source (fast*.tar.gz)",
      });
      continue;
    }
    try {
      checked.entities.push(decodeEntity(member.name, await readMemberBytes(member)));
    } catch (err) {
      checked.invalid.push({ name: member.name, status: "Failed", info: (err as Error).message });
    }
  }
  if (sources.length > 1) {
    const sorted = sortedByName(sources);
    const names = sorted.map((s) => quote(s.name)).join(", ");
    for (const source of sorted) {
      checked.invalid.push({
        name: source.name,
        status: "Failed",
        info: `Only one fast-registration source per registration is supported, found ${names}`,
      });
    }
  }
  // The entities were decoded for this registration alone: hydrate them once, in place (copies cost
  // more than the rest of the preparation); the source location is filled in after the upload.
  for (const entity of checked.entities) hydrateEntityInPlace(entity, options);
  assertVersioned(checked.entities);
  return checked;
}

function sortedByName<M extends PackageMember>(members: readonly M[]): M[] {
  return [...members].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Whether a member is a fast-registration source whose bytes were kept (a fast source's always are). */
function isSource(member: PackageMember): member is SourceMember {
  return memberRole(member.name).role === "fastSource";
}

/**
 * The source's bytes, for its upload: a registration that sends reads its package with the source's bytes kept.
 *
 * @throws {Error} the source was read without its bytes (a registration that sends must keep them)
 */
export function keptSource(source: SourceMember): KeptSource {
  if (source.bytes === undefined && source.path === undefined) {
    throw new Error(`the fast-registration source ${quote(source.name)} was read without its bytes`);
  }
  return source as KeptSource;
}

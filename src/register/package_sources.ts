/**
 * A package's fast-registration sources, found by name alone: what a registration asks the upload location of
 * before the package is decoded.
 *
 * @module
 */
import { quote } from "../errors.ts";
import { memberRole } from "./member_role.ts";
import type { MemberInMemory, MemberNameOnly, MemberOnDisk, PackageMember } from "./package/members.ts";

/**
 * A fast-registration source: in memory when small, else in the private temp dir; only its name when the
 * registration uploads nothing (see {@link KeptSource}).
 */
export type SourceMember = MemberInMemory | MemberOnDisk | MemberNameOnly;

/** A fast-registration source with its bytes, as a registration that uploads it has it. */
export type KeptSource = MemberInMemory | MemberOnDisk;

/**
 * The package's fast-registration sources (with their bytes, in memory or on disk, unless the registration
 * uploads nothing). More than one is an error, reported per source by `checkPackage` (`check.ts`).
 */
export function packageSources(members: readonly PackageMember[]): SourceMember[] {
  return members.filter(isSource);
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

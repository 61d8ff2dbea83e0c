/**
 * The check step of a registration: everything that can be checked locally, before anything is uploaded or
 * created, so that a bad package does not end up half registered. It decodes, so it loads the registration
 * messages' generated descriptors (proto/client/fctl/registration/); what a registration needs before that (its
 * options, its source) is in `check_options.ts` and `package_sources.ts`.
 *
 * @module
 */
import { quote } from "../errors.ts";
import { decodeEntity, type RegistrationEntity } from "./classify.ts";
import { memberRole } from "./member_role.ts";
import { assertVersioned, hydrateEntityInPlace } from "./hydrate.ts";
import type { CheckedOptions } from "./options.ts";
import { type PackageMember, readMemberBytes } from "./package/members.ts";
import { packageSources } from "./package_sources.ts";
import type { RegisterEntry } from "./entries.ts";

/** A package decoded and hydrated. */
export interface CheckedPackage {
  /** The entities, hydrated (but for the source's location, filled in once it is uploaded). */
  entities: RegistrationEntity[];
  /** `Failed` entries for members that cannot be registered. */
  invalid: RegisterEntry[];
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

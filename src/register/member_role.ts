/**
 * What a package member is, judged by its name alone: what reading a package needs, without decoding anything
 * (`classify.ts`, which decodes, loads the registration messages' generated descriptors).
 *
 * pyflyte names files `<index>_<entity name>_<kind>.pb` with kind 1 = TaskSpec, 2 = WorkflowSpec,
 * 3 = LaunchPlan.
 *
 * @module
 */

/**
 * The three kinds of entity a package registers, in the order they depend on each other.
 *
 * ```ts
 * import { connect, type EntityKind, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "p", domain: "d", version: "v1" };
 * const report = await registerFiles(flyte.client, options);
 * const launchPlans = report.entries.filter((entry) => entry.kind === ("launchPlan" satisfies EntityKind));
 * console.log(launchPlans.map((entry) => entry.id?.name));
 * ```
 */
export type EntityKind = "task" | "workflow" | "launchPlan";

/** What a package member is, judged by its name alone. */
export type MemberRole =
  /** A serialized entity; `expected` is the kind its pyflyte suffix names, if it has one. */
  | { role: "entity"; expected?: EntityKind }
  /** The fast-registration source archive (`fast<digest>.tar.gz`). */
  | { role: "fastSource" }
  /** Anything else (`.DS_Store`, READMEs, …). */
  | { role: "other" };

const SUFFIX_KINDS: Record<string, EntityKind> = { "1": "task", "2": "workflow", "3": "launchPlan" };

/** Classifies a package member by its name (any directories in front are ignored). */
export function memberRole(name: string): MemberRole {
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (/^fast.*\.tar\.gz$/.test(base)) return { role: "fastSource" };
  // macOS tar adds AppleDouble `._x.pb` shadows of real files; they are metadata, not entities.
  if (!base.endsWith(".pb") || base.startsWith("._")) return { role: "other" };
  const suffix = /_([123])\.pb$/.exec(base)?.[1];
  return { role: "entity", expected: suffix === undefined ? undefined : SUFFIX_KINDS[suffix] };
}

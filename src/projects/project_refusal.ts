/**
 * FlyteAdmin's refusal of a create for its project or domain (its ValidateProjectAndDomain, which every create
 * calls before anything else): the project does not exist, is not active, or the domain is not one of the
 * system's. Every create of a registration goes to the same project and domain, so after one such refusal none
 * can succeed: the registration stops there, and says once what to do instead of a line per file. An execution
 * created there is refused the same way, and says the same.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { OperationError, quote } from "../errors.ts";
import { creatableProjectId } from "./project_fields.ts";

/**
 * What the admin refused: the project (missing or not active) or the domain.
 *
 * ```ts
 * import { type ProjectRefusal, ProjectRefusedError } from "@fctl/fctl";
 *
 * function advice(err: unknown): string | undefined {
 *   if (!(err instanceof ProjectRefusedError)) return undefined;
 *   const refusal: ProjectRefusal = err.refusal;
 *   return refusal.reason === "unknownDomain" ? `no domain ${refusal.domain}` : `see project ${refusal.project}`;
 * }
 * console.log(advice(new Error("other"))); // undefined
 * ```
 */
export interface ProjectRefusal {
  /** The project does not exist, is archived, or the domain is not one the admin has. */
  reason: "projectNotFound" | "projectNotActive" | "unknownDomain";
  /** The project the create went to. */
  project: string;
  /** The domain the create went to. */
  domain: string;
}

// FlyteAdmin's messages (flyteadmin's ValidateProjectAndDomain and NewInactiveProjectError), each at the end of a
// failed row's info or of a call's error. A project that could not be read for another reason (its database down)
// is no refusal.
// Bracketed names hold no bracket (a project or domain id cannot), so each part is matched in one pass: the text is
// the admin's, and `.*` between literals would let a hostile message of a few kilobytes take seconds to match.
const NOT_FOUND =
  /failed to validate that project \[([^[\]]*)\] and domain \[([^[\]]*)\] are registered, err: \[project \[[^[\]]*\] not found\]$/;
const NOT_ACTIVE = /project \[([^[\]]*)\] is not active$/;
const UNKNOWN_DOMAIN = /domain \[([^[\]]*)\] is unrecognized by system$/;
/** Longest refusal looked for: the messages above with project and domain ids of any length FlyteAdmin accepts. */
const REFUSAL_TEXT_MAX = 1024;

/**
 * The refusal a failed row's info or a failed call's message reports, if it is one. `id` is the row's identifier (the
 * call's project and domain), for the project or domain the admin's message does not name.
 */
export function projectRefusalOf(info: string, id: { project: string; domain: string }): ProjectRefusal | undefined {
  // Each message ends the text, and is short: only its end is searched, however long the admin made the rest.
  const end = info.slice(-REFUSAL_TEXT_MAX);
  let match = NOT_FOUND.exec(end);
  if (match) return { reason: "projectNotFound", project: match[1], domain: match[2] };
  match = NOT_ACTIVE.exec(end);
  if (match) return { reason: "projectNotActive", project: match[1], domain: id.domain };
  match = UNKNOWN_DOMAIN.exec(end);
  if (match) return { reason: "unknownDomain", project: id.project, domain: match[1] };
  return undefined;
}

/** Why the rows not sent after the refusal were not registered, as the results table says it. */
export function refusalInfo(refusal: ProjectRefusal): string {
  switch (refusal.reason) {
    case "projectNotFound":
      return `Not registered: project ${refusal.project} does not exist`;
    case "projectNotActive":
      return `Not registered: project ${refusal.project} is not active`;
    case "unknownDomain":
      return `Not registered: the admin has no domain ${refusal.domain}`;
  }
}

/** How a registration's refusal names the flags that chose its project and domain. */
const REGISTRATION_FLAGS = { project: "-p", domainAdvice: "register into one of its domains with -d" };

/**
 * A registration or an execution the admin refused for its project or domain (exit 1). The message says what was
 * refused, what was not done, and what to do; {@link refusal} says it as data. `createExecution`'s has the
 * admin's `AdminError` as its `cause`; a registration's is its report's `error` (each refused file a `Failed` row).
 *
 * ```ts
 * import { connect, ProjectRefusedError, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "nope", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options);
 * if (report.error instanceof ProjectRefusedError) console.error(report.error.refusal.reason, report.error.message);
 * // projectNotFound project "nope" does not exist on the admin: none of the 84 files was registered; create it with: fctl create project --id nope --name nope
 * ```
 */
export class ProjectRefusedError extends OperationError {
  /** What the admin refused. */
  readonly refusal: ProjectRefusal;

  /**
   * `notDone` says what was not done (`none of the 84 files was registered`); `domains` are the admin's domains,
   * when known (for an unknown domain); `flags` name the flags that chose the project and the domain (default a
   * registration's, `-p` and `-d`); `options.cause` the admin's error, when there is one.
   */
  constructor(
    refusal: ProjectRefusal,
    notDone: string,
    domains: readonly string[] = [],
    flags: { project: string; domainAdvice: string } = REGISTRATION_FLAGS,
    options?: ErrorOptions,
  ) {
    const { project, domain } = refusal;
    let message: string;
    switch (refusal.reason) {
      case "projectNotFound":
        message = `project ${quote(project)} does not exist on the admin: ${notDone}; ` +
          // A project named otherwise can never be created: its refusal says what a project id is.
          (creatableProjectId(project)
            ? `create it with: fctl create project --id ${project} --name ${project}`
            : `check ${flags.project}: a project id is lower case letters, digits and '-' (not first or last), at most 63 ` +
              "characters");
        break;
      case "projectNotActive":
        message = `project ${quote(project)} is not active (archived) on the admin: ${notDone}; ` +
          `activate it with: fctl update project ${project} --activate`;
        break;
      case "unknownDomain":
        message = `domain ${quote(domain)} is not one the admin has` +
          (domains.length > 0 ? ` (${domains.join(", ")})` : "") +
          `: ${notDone}; ${flags.domainAdvice}`;
        break;
    }
    super(message, options);
    this.refusal = refusal;
  }
}

/** How much of a registration of `total` files was not registered (`notRegistered` of them), as its error says it. */
export function filesNotRegistered(notRegistered: number, total: number): string {
  return total === 1
    ? "the file was not registered"
    : notRegistered === total
    ? `none of the ${total} files was registered`
    : `${notRegistered} of ${total} files ${notRegistered === 1 ? "was" : "were"} not registered`;
}

/**
 * The domains the admin has, to name in the refusal of an unknown domain; none when the refusal is another or they
 * cannot be read (only a hint: the refusal is said all the same). Every project answers with the system's domains.
 */
export async function domainsToName(
  client: AdminClient,
  refusal: ProjectRefusal,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  if (refusal.reason !== "unknownDomain") return [];
  try {
    const project = await client.admin.getProject({ id: refusal.project }, { signal });
    return project.domains.map((domain) => domain.id);
  } catch {
    return [];
  }
}

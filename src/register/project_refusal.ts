/**
 * FlyteAdmin's refusal of a create for its project or domain (its ValidateProjectAndDomain, which every create
 * calls before anything else): the project does not exist, is not active, or the domain is not one of the
 * system's. Every create of a registration goes to the same project and domain, so after one such refusal none
 * can succeed: the registration stops there, and says once what to do instead of a line per file.
 *
 * @module
 */
import { OperationError, quote } from "../errors.ts";

/** What the admin refused: the project (missing or not active) or the domain. */
export interface ProjectRefusal {
  reason: "projectNotFound" | "projectNotActive" | "unknownDomain";
  project: string;
  domain: string;
}

// FlyteAdmin's messages (flyteadmin's ValidateProjectAndDomain and NewInactiveProjectError), each at the end of a
// failed row's info. A project that could not be read for another reason (its database down) is no refusal.
const NOT_FOUND =
  /failed to validate that project \[(.*)\] and domain \[(.*)\] are registered, err: \[project \[.*\] not found\]$/;
const NOT_ACTIVE = /project \[(.*)\] is not active$/;
const UNKNOWN_DOMAIN = /domain \[(.*)\] is unrecognized by system$/;

/**
 * What FlyteAdmin's RegisterProject accepts as a project id (a DNS-1123 label, at most 63 characters): a project
 * named otherwise can never be created, so its refusal says what a project id is rather than how to create it.
 */
function creatableProjectId(id: string): boolean {
  return id.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(id);
}

/**
 * The refusal a failed row's info reports, if it is one. `id` is the row's identifier, for the project or domain the
 * admin's message does not name.
 */
export function projectRefusalOf(info: string, id: { project: string; domain: string }): ProjectRefusal | undefined {
  let match = NOT_FOUND.exec(info);
  if (match) return { reason: "projectNotFound", project: match[1], domain: match[2] };
  match = NOT_ACTIVE.exec(info);
  if (match) return { reason: "projectNotActive", project: match[1], domain: id.domain };
  match = UNKNOWN_DOMAIN.exec(info);
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

/**
 * A registration the admin refused for its project or domain (exit 1). The message says what was refused, how much
 * was not registered, and what to do.
 *
 * ```ts
 * import { connect, OperationError, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "nope", domain: "development", version: "v1" };
 * const report = await registerFiles(flyte.client, options);
 * if (report.error instanceof OperationError) console.error(report.error.message);
 * // project "nope" does not exist on the admin: none of the 84 files was registered; create it with: fctl create project --id nope --name nope
 * ```
 */
export class ProjectRefusedError extends OperationError {
  /** What the admin refused. */
  readonly refusal: ProjectRefusal;

  /**
   * `notRegistered` of `total` files were not registered; `domains` are the admin's domains, when known (for an
   * unknown domain).
   */
  constructor(refusal: ProjectRefusal, notRegistered: number, total: number, domains: readonly string[] = []) {
    const what = total === 1
      ? "the file was not registered"
      : notRegistered === total
      ? `none of the ${total} files was registered`
      : `${notRegistered} of ${total} files ${notRegistered === 1 ? "was" : "were"} not registered`;
    const { project, domain } = refusal;
    let message: string;
    switch (refusal.reason) {
      case "projectNotFound":
        message = `project ${quote(project)} does not exist on the admin: ${what}; ` +
          (creatableProjectId(project)
            ? `create it with: fctl create project --id ${project} --name ${project}`
            : "check -p: a project id is lower case letters, digits and '-' (not first or last), at most 63 characters");
        break;
      case "projectNotActive":
        message = `project ${quote(project)} is not active (archived) on the admin: ${what}; ` +
          `activate it with: fctl update project ${project} --activate`;
        break;
      case "unknownDomain":
        message = `domain ${quote(domain)} is not one the admin has` +
          (domains.length > 0 ? ` (${domains.join(", ")})` : "") +
          `: ${what}; register into one of its domains with -d`;
        break;
    }
    super(message);
    this.refusal = refusal;
  }
}

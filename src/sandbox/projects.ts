/**
 * Projects as FlyteAdmin keeps them (project_manager.go, validation/project_validator.go, gormimpl/project_repo.go):
 * RegisterProject, GetProject, UpdateProject (archiving is an update of `state`) and ListProjects, whose listing
 * hides ARCHIVED projects only when the request has no filters, sorts by identifier unless asked otherwise, and
 * gives a next token exactly when a page is full. Every project answers with the system-wide domains.
 * A fresh table holds what a fresh Flyte sandbox/demo cluster's FlyteAdmin seeds (`flytesnacks`), and
 * {@link ProjectTable.requireProjectAndDomain} is FlyteAdmin's ValidateProjectAndDomain, which every create calls.
 *
 * @module
 */
import { clone, create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  DomainSchema,
  InactiveProjectSchema,
  type Project,
  Project_ProjectState,
  type ProjectListRequest,
  ProjectSchema,
} from "../../proto/gen/flyteidl/admin/project_pb.ts";
import { Sort_Direction, SortSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { AdminServiceImpl } from "./admin_service_impl.ts";
import { pageAt, PROJECT_COLUMNS } from "./column_filters.ts";
import {
  type FilterTable,
  matchesFilters,
  parseOffsetToken,
  parseRequestFilters,
  sortComparator,
} from "./execution_filters.ts";
import { createMonotonicClock } from "./time.ts";
import { dns1123LabelErrors, goStringList, validateLabels } from "./labels.ts";
import { invalidArgument as invalid } from "./shared_validation.ts";

/** The domains FlyteAdmin's default configuration has, returned with every project. */
export const SANDBOX_DOMAINS = [
  { id: "development", name: "development" },
  { id: "staging", name: "staging" },
  { id: "production", name: "production" },
] as const;

/**
 * The projects a fresh demo cluster's FlyteAdmin has: its chart's `seedProjectsWithDetails`, created ACTIVE at start.
 */
const SEED_PROJECTS = [{
  id: "flytesnacks",
  name: "flytesnacks",
  description: "Default project setup.",
}] as const;

/** A stored project, its row id and its registration time. */
interface StoredProject {
  project: Project;
  seq: number;
  createdNs: bigint;
}

/** `projects`, as ListProjects' filters and sort keys read it; labels (bytes) are NULL to filters. */
const PROJECT_TABLE: FilterTable<StoredProject> = {
  entity: "p",
  prefix: "project",
  columns: PROJECT_COLUMNS,
  read({ project, seq, createdNs }, column) {
    switch (column) {
      case "id":
        return seq;
      case "created_at":
      case "updated_at":
        return createdNs;
      case "identifier":
        return project.id;
      case "name":
      case "description":
      case "state":
        return project[column];
      default:
        return null;
    }
  },
};

/** ListProjects' order when the request names none. */
const BY_IDENTIFIER = create(SortSchema, { key: "identifier", direction: Sort_Direction.ASCENDING });

/**
 * FlyteAdmin's ValidateProject: id present, labels as FlyteAdmin takes them, the id a DNS-1123 label (refused with
 * Kubernetes' words), name and description within their lengths, no domains.
 */
function validateProject(project: Project): void {
  if (project.id === "") throw invalid("missing project_id");
  validateLabels(project.labels?.values ?? {});
  const idErrors = dns1123LabelErrors(project.id);
  if (idErrors.length > 0) throw invalid(`invalid project id [${project.id}]: ${goStringList(idErrors)}`);
  // Go's len: bytes of UTF-8, not characters.
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  if (bytes(project.name) > 64) throw invalid("project_name cannot exceed 64 characters");
  if (bytes(project.description) > 300) throw invalid("project_description cannot exceed 300 characters");
  if (project.domains.length > 0) {
    throw invalid("Domains are currently only set system wide. Please retry without domains included in your request.");
  }
}

/**
 * The registered projects, in registration order (their creation order): a fresh table holds the demo cluster's
 * seed, `flytesnacks`. A sandbox's is its store's `projects`; RegisterProject, GetProject, UpdateProject and
 * ListProjects serve it, and every create checks its project and domain with
 * {@link ProjectTable.requireProjectAndDomain}.
 *
 * ```ts
 * import { startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * sandbox.store.addProject({ id: "ml", name: "ml" });
 * sandbox.store.projects.requireProjectAndDomain("ml", "staging"); // passes
 * try {
 *   sandbox.store.projects.requireProjectAndDomain("ml", "qa");
 * } catch (err) {
 *   console.log((err as Error).message); // [invalid_argument] domain [qa] is unrecognized by system
 * }
 * await sandbox.close();
 * ```
 */
export class ProjectTable {
  readonly #projects = new Map<string, StoredProject>();
  readonly #clock: () => bigint;
  readonly #nowNs: () => bigint;

  /**
   * A table holding the seed projects, ACTIVE. `clock` dates each creation; `nowNs` is the moment a filter's time
   * words (`now`, `today`, …) mean: both the sandbox's clock (the machine's by default).
   */
  constructor(
    clock: () => bigint = createMonotonicClock(() => new Date()),
    nowNs: () => bigint = () => BigInt(Date.now()) * 1_000_000n,
  ) {
    this.#clock = clock;
    this.#nowNs = nowNs;
    // The seeds are a deploy's, made before anything the sandbox is asked for: dated at the epoch, they read no
    // clock, so a test's clock that steps on each reading still starts at the first creation it asks for.
    for (const seed of SEED_PROJECTS) this.register(create(ProjectSchema, seed), 0n);
  }

  /**
   * FlyteAdmin's ValidateProjectAndDomain, which creates of tasks, workflows, launch plans and executions call:
   * the project must exist and be ACTIVE (anything else, ARCHIVED included, is "not active", with an
   * InactiveProject detail), and the domain must be one of the system's.
   */
  requireProjectAndDomain(projectId: string, domainId: string): void {
    const found = this.#projects.get(projectId);
    if (!found) {
      throw invalid(
        `failed to validate that project [${projectId}] and domain [${domainId}] are registered, ` +
          `err: [project [${projectId}] not found]`,
      );
    }
    if (found.project.state !== Project_ProjectState.ACTIVE) {
      throw new ConnectError(`project [${projectId}] is not active`, Code.InvalidArgument, undefined, [
        { desc: InactiveProjectSchema, value: { id: projectId } },
      ]);
    }
    if (!SANDBOX_DOMAINS.some((domain) => domain.id === domainId)) {
      throw invalid(`domain [${domainId}] is unrecognized by system`);
    }
  }

  /** RegisterProject: a new project (state as given, ACTIVE by default), created now unless `createdNs` says when. */
  register(project: Project | undefined, createdNs?: bigint): void {
    if (!project) throw invalid("missing project");
    if (project.name === "") throw invalid("missing project_name");
    validateProject(project);
    if (this.#projects.has(project.id)) {
      // FlyteAdmin's words for Postgres refusing a second row of the primary key.
      throw new ConnectError(
        'value with matching already exists (duplicate key value violates unique constraint "projects_pkey")',
        Code.AlreadyExists,
      );
    }
    const seq = this.#projects.size + 1;
    this.#projects.set(project.id, { project: this.#stored(project), seq, createdNs: createdNs ?? this.#clock() });
  }

  /** GetProject: NOT_FOUND naming the id. */
  get(id: string): Project {
    if (id === "") throw invalid("missing project_id");
    return this.#answer(this.#find(id).project);
  }

  /**
   * UpdateProject: the project must exist (checked first, as FlyteAdmin does; an empty id finds one, then is refused
   * as missing), then is written as FlyteAdmin's
   * repository writes it, with gorm's Updates, which skips a struct's empty fields: a name or description sent
   * empty stays as it was, and so do the labels unless a labels message is sent (an empty one clears them); the
   * state is always written.
   */
  update(project: Project): void {
    // FlyteAdmin's lookup is gorm's Where on a struct, which drops an empty id: it finds a project (the first), and
    // the validation after it refuses the missing id.
    const existing = project.id === ""
      ? this.#projects.values().next().value ?? this.#find("")
      : this.#find(project.id);
    validateProject(project);
    const next = this.#stored(project);
    if (next.name === "") next.name = existing.project.name;
    if (next.description === "") next.description = existing.project.description;
    if (!project.labels) next.labels = existing.project.labels;
    existing.project = next;
  }

  /** ListProjects: filters, sort key and token checked in FlyteAdmin's order; a limit of 0 lists everything. */
  list(request: ProjectListRequest): { projects: Project[]; token: string } {
    const filters = parseRequestFilters(request.filters, { primary: PROJECT_TABLE, joins: [] }, this.#nowNs());
    const order = sortComparator(request.sortBy ?? BY_IDENTIFIER, PROJECT_TABLE)!;
    const offset = parseOffsetToken(request.token, "ListProjects");
    const rows = [...this.#projects.values()];
    // As FlyteAdmin's project repository: "If no filter provided, default to filtering out archived projects".
    const visible = filters.length === 0
      ? rows.filter((row) => row.project.state !== Project_ProjectState.ARCHIVED)
      : rows.filter((row) => matchesFilters(row, filters));
    const page = pageAt(visible.sort(order), offset, request.limit);
    return { projects: page.items.map((row) => this.#answer(row.project)), token: page.token };
  }

  #find(id: string): StoredProject {
    const found = this.#projects.get(id);
    if (!found) throw new ConnectError(`project [${id}] not found`, Code.NotFound);
    return found;
  }

  #stored(project: Project): Project {
    const copy = clone(ProjectSchema, project);
    copy.domains = [];
    return copy;
  }

  #answer(project: Project): Project {
    const copy = clone(ProjectSchema, project);
    copy.domains = SANDBOX_DOMAINS.map((domain) => create(DomainSchema, domain));
    return copy;
  }
}

/** The project methods of the sandbox's AdminService. */
export function projectMethods(projects: ProjectTable): AdminServiceImpl {
  return {
    registerProject: (request) => (projects.register(request.project), {}),
    getProject: (request) => projects.get(request.id),
    updateProject: (request) => (projects.update(request), {}),
    listProjects: (request) => projects.list(request),
  };
}

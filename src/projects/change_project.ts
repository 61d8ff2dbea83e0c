/**
 * `createProject` (RegisterProject) and `updateProject` (UpdateProject): a project's id, name, description,
 * labels and state; an update sends the whole project, so what the caller did not name is sent as it is now.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { AdminError, NotFoundError } from "../admin/errors.ts";
import { quote } from "../errors.ts";
import { type Project, Project_ProjectState } from "../../proto/gen/flyteidl/admin/project_pb.ts";
import { getProject } from "./get_project.ts";

/**
 * A project to register, or the fields of one to change (absent: unchanged).
 *
 * ```ts
 * import type { ProjectChange } from "@fctl/fctl";
 *
 * const change: ProjectChange = { id: "ml", name: "Machine learning", labels: { team: "ml" } };
 * console.log(change.id);
 * ```
 */
export interface ProjectChange {
  /** The project id (lowercase letters, digits and dashes). */
  id: string;
  /** Display name (required to create); an empty one changes nothing, as FlyteAdmin skips empty fields. */
  name?: string;
  /** Description; an empty one changes nothing, as FlyteAdmin skips empty fields. */
  description?: string;
  /** Labels, replacing all the current ones (`{}` clears them). */
  labels?: Record<string, string>;
  /** ACTIVE or ARCHIVED. */
  state?: Project_ProjectState;
}

/**
 * Registers a project (RegisterProject).
 *
 * ```ts
 * import { connect, createProject } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * await createProject(flyte.client, { id: "ml", name: "Machine learning", description: "models" });
 * ```
 *
 * @throws {AdminError} `AlreadyExists` when the id is taken (the message names it), `InvalidArgument` for a bad id
 */
export async function createProject(client: AdminClient, project: ProjectChange, signal?: AbortSignal): Promise<void> {
  try {
    await client.admin.registerProject({
      project: {
        id: project.id,
        name: project.name ?? "",
        description: project.description ?? "",
        labels: { values: project.labels ?? {} },
      },
    }, { signal });
  } catch (err) {
    if (err instanceof AdminError && err.status === "AlreadyExists") {
      // An archived project is hidden from `get project`: say it is there, and how to have it back.
      const archived = await isArchived(client, project.id, signal);
      const message = `project ${quote(project.id)} already exists` +
        (archived ? `, archived: activate it with: fctl update project ${project.id} --activate` : "");
      throw new AdminError(err.status, err.rpc, err.serverMessage, message, { cause: err });
    }
    throw err;
  }
}

/** Whether the project is archived; false when it cannot be read (only a hint rests on it). */
async function isArchived(client: AdminClient, id: string, signal?: AbortSignal): Promise<boolean> {
  try {
    return (await client.admin.getProject({ id }, { signal })).state === Project_ProjectState.ARCHIVED;
  } catch {
    return false;
  }
}

/** The project `change` makes of `current`: the named fields replaced, the others as they are. */
export function changedProject(current: Project, change: ProjectChange) {
  return {
    id: current.id,
    name: change.name ?? current.name,
    description: change.description ?? current.description,
    labels: { values: change.labels ?? { ...current.labels?.values } },
    state: change.state ?? current.state,
  };
}

/**
 * Changes the named fields of a project (GetProject, then UpdateProject with the others as they are); returns
 * the project as it was.
 *
 * ```ts
 * import { connect, updateProject } from "@fctl/fctl";
 * import { Project_ProjectState } from "@fctl/fctl/types";
 *
 * await using flyte = await connect();
 * const before = await updateProject(flyte.client, { id: "ml", state: Project_ProjectState.ARCHIVED });
 * console.log(before.state);
 * ```
 *
 * @throws {NotFoundError} no project has that id
 * @throws {AdminError} any other refusal
 */
export async function updateProject(
  client: AdminClient,
  change: ProjectChange,
  signal?: AbortSignal,
): Promise<Project> {
  const current = await getProject(client, change.id, signal);
  await sendProjectUpdate(client, changedProject(current, change), signal);
  return current;
}

/** UpdateProject with the whole project. */
export async function sendProjectUpdate(
  client: AdminClient,
  project: ReturnType<typeof changedProject>,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await client.admin.updateProject(project, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new NotFoundError(err.rpc, err.serverMessage, `project ${quote(project.id)} not found`, { cause: err });
    }
    throw err;
  }
}

/** A project state as its name (`ACTIVE`, `ARCHIVED`). */
export function projectStateName(state: Project_ProjectState | undefined): string {
  return Project_ProjectState[state ?? Project_ProjectState.ACTIVE] ?? String(state);
}

/** Labels as sorted `k=v` pairs joined by commas (for showing a change). */
export function labelsText(labels: Record<string, string> | undefined): string {
  return Object.entries(labels ?? {}).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([k, v]) => `${k}=${v}`)
    .join(",");
}

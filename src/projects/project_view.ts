/**
 * How projects look: flytectl's columns, STATE when an archived project is shown, and
 * canonical proto3 JSON.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Project, Project_ProjectState, ProjectSchema } from "../../proto/gen/flyteidl/admin/project_pb.ts";
import type { Column } from "../output/table.ts";

const ID: Column<Project> = { header: "ID", cell: (p) => p.id, keep: true };
const NAME: Column<Project> = { header: "NAME", cell: (p) => p.name, wrap: true };
const DESCRIPTION: Column<Project> = { header: "DESCRIPTION", cell: (p) => p.description, wrap: true };
const STATE: Column<Project> = { header: "STATE", cell: (p) => Project_ProjectState[p.state] ?? String(p.state) };

/**
 * The project table's columns: ID, NAME, DESCRIPTION, and STATE when any project shown is not active (an
 * archived one is listed only when asked for, and then says so).
 */
export function projectColumns(projects: readonly Project[], showState = false): readonly Column<Project>[] {
  const state = showState || projects.some((p) => p.state !== Project_ProjectState.ACTIVE);
  return state ? [ID, NAME, DESCRIPTION, STATE] : [ID, NAME, DESCRIPTION];
}

/**
 * Canonical proto3 JSON of a project, as `fctl get project -o json` prints it.
 *
 * ```ts
 * import { connect, getProject, projectJson } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * console.log(JSON.stringify(projectJson(await getProject(flyte.client, "flytesnacks"))));
 * ```
 */
export function projectJson(project: Project): JsonValue {
  return toJson(ProjectSchema, project);
}

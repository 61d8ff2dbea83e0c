/**
 * `fctl update project [ID] --archive|--activate [--name --description --labels] [--force --dryRun]`: changes
 * the fields named, and only those (GetProject, then UpdateProject with the rest as they are now).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { UPDATE_FLAGS } from "../update_flow.ts";
import { PROJECT_FIELD_FLAGS } from "./create_project.ts";
import { printText } from "../../output/print.ts";
import { checkProjectFields, parseLabels } from "../../projects/project_fields.ts";

/** The local flags of `update project`. */
export const UPDATE_PROJECT_FLAGS = [
  { long: "archive", help: "archive the project" },
  { long: "activate", help: "activate an archived project" },
  { long: "archiveProject", help: "deprecated: use --archive", hidden: true },
  { long: "activateProject", help: "deprecated: use --activate", hidden: true },
  ...PROJECT_FIELD_FLAGS,
  ...UPDATE_FLAGS,
] as const satisfies readonly FlagSpec[];

/** What `update project` does to one project: the fields named, and only those, asking first unless forced. */
export interface UpdateProjectCommandOptions {
  id: string;
  /** `--archive` or `--activate` (or their deprecated spellings); absent: the state stays. */
  state?: "archive" | "activate";
  /** The fields the flags name (`--labels` parsed, replacing all); an absent one stays. */
  fields: { name?: string; description?: string; labels?: Record<string, string> };
  dryRun: boolean;
  force: boolean;
}

/** `update project`. */
export const UPDATE_PROJECT_COMMAND: CommandSpec = leafCommand({
  name: "project",
  aliases: ["projects"],
  description: "archive or activate a project, or change its name, description or labels",
  arguments: [{ name: "id", help: "the project (default: -p)", required: false, variadic: false }],
  flags: UPDATE_PROJECT_FLAGS,
  globals: ["config", "project", "admin.endpoint"],
  examples: [
    "fctl update project ml --archive",
    'fctl update project ml --description "models and features" --force',
  ],
  options({ args: [idArg], flags, globals: { config } }): UpdateProjectCommandOptions {
    const id = idArg || config.project;
    if (!id) throw new UsageError("project id wasn't passed: name the project, or add -p <id>");
    const archive = flags.archive === true || flags.archiveProject === true;
    const activate = flags.activate === true || flags.activateProject === true;
    if (archive && activate) throw new UsageError("invalid state passed. Specify either activate or archive");
    if (!archive && !activate && [flags.name, flags.description, flags.labels].every((v) => v === undefined)) {
      throw new UsageError("nothing to update: add --archive, --activate, --name, --description or --labels");
    }
    // What FlyteAdmin would refuse is refused before the project is read, a dry run included.
    checkProjectFields({ name: flags.name, description: flags.description });
    return {
      id,
      state: archive ? "archive" : activate ? "activate" : undefined,
      fields: {
        name: flags.name,
        description: flags.description,
        labels: flags.labels === undefined ? undefined : parseLabels(flags.labels),
      },
      dryRun: flags.dryRun === true,
      force: flags.force === true,
    };
  },
  async run(ctx, { id, state: wantedState, fields, dryRun, force }) {
    const [change, { Project_ProjectState }, { runUpdate }, { getProject }] = await Promise.all([
      import("../../projects/change_project.ts"),
      import("../../../proto/gen/flyteidl/admin/project_pb.ts"),
      import("../update_flow.ts"),
      import("../../projects/get_project.ts"),
    ]);
    const admin = await ctx.admin({ connectNow: true });
    const current = await getProject(admin, id, ctx.signal);
    const state = wantedState === "archive"
      ? Project_ProjectState.ARCHIVED
      : wantedState === "activate"
      ? Project_ProjectState.ACTIVE
      : undefined;
    const wanted = change.changedProject(current, { id, ...fields, state });
    const applied = await runUpdate(ctx, {
      what: `update of project ${JSON.stringify(id)}`,
      rpc: "UpdateProject",
      fields: [
        { field: "name", before: current.name, after: wanted.name },
        { field: "description", before: current.description, after: wanted.description },
        {
          field: "labels",
          before: change.labelsText(current.labels?.values),
          after: change.labelsText(wanted.labels.values),
        },
        {
          field: "state",
          before: change.projectStateName(current.state),
          after: change.projectStateName(wanted.state),
        },
      ],
      dryRun,
      force,
      apply: () => change.sendProjectUpdate(admin, wanted, ctx.signal),
    });
    if (applied) printText(ctx.io, `project ${id} updated\n`);
  },
});

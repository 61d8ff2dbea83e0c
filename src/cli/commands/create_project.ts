/**
 * `fctl create project --id ID --name NAME [--description D] [--labels k=v,…] [--file F] [--dryRun]`: registers
 * a project (RegisterProject). The id comes from `--id`, the file, or `-p`; flags win over the file.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { refuseEmpty } from "../flag_values.ts";
import { printText } from "../../output/print.ts";
import { checkNewProject, parseLabels, type ProjectFields, readProjectFile } from "../../projects/project_fields.ts";

/** The fields a project command takes as flags. */
export const PROJECT_FIELD_FLAGS = [
  { long: "name", value: "<name>", help: "display name of the project" },
  { long: "description", value: "<text>", help: "description of the project" },
  { long: "labels", value: "<k=v,…>", help: "labels of the project, e.g. team=ml,cost=low (replacing all)" },
] as const satisfies readonly FlagSpec[];

/** The local flags of `create project`. */
export const CREATE_PROJECT_FLAGS = [
  { long: "id", value: "<id>", help: "id of the project (default: -p)" },
  ...PROJECT_FIELD_FLAGS,
  {
    long: "file",
    value: "<file>",
    help: "YAML with id, name, description and labels: {values: {k: v}} (flags win over it)",
  },
  { long: "dryRun", help: "check the project and send nothing" },
] as const satisfies readonly FlagSpec[];

/** What `create project` does: the fields the flags give, over the file's, over `-p` for the id. */
export interface CreateProjectCommandOptions {
  /** The fields the flags name (`--labels` parsed). */
  fields: Pick<ProjectFields, "id" | "name" | "description" | "labels">;
  /** `--file`: a project file, read by the run, its fields under the flags'. */
  file?: string;
  /** `-p` (or its config file or environment value): the id when neither `--id` nor the file names one. */
  project: string;
  dryRun: boolean;
}

/** `create project`. */
export const CREATE_PROJECT_COMMAND: CommandSpec = leafCommand({
  name: "project",
  aliases: ["projects"],
  description: "register a project",
  arguments: [],
  flags: CREATE_PROJECT_FLAGS,
  globals: ["config", "project", "admin.endpoint"],
  examples: [
    'fctl create project --id ml --name "Machine learning" --description "models" --labels team=ml',
    "fctl create project --file project.yaml",
  ],
  options({ flags, globals: { config, sources } }): CreateProjectCommandOptions {
    refuseEmpty(flags, { id: "a project id", name: "a project name", file: "a file path" });
    // Only a -p typed beside --id is a conflict: a default project from the config file or environment is not.
    const typedProject = sources.project === "flag" ? config.project : undefined;
    if (flags.id !== undefined && typedProject && flags.id !== typedProject) {
      throw new UsageError("both project and id are passed: give the project's id with --id or -p, not both");
    }
    return {
      fields: {
        id: flags.id,
        name: flags.name,
        description: flags.description,
        labels: flags.labels === undefined ? undefined : parseLabels(flags.labels),
      },
      file: flags.file,
      project: config.project,
      dryRun: flags.dryRun === true,
    };
  },
  async run(ctx, { fields, file: fileName, project: defaultId, dryRun }) {
    const file = fileName === undefined ? {} : await readProjectFile(fileName, ctx.io.readTextFile);
    const id = fields.id || file.id || defaultId;
    if (!id) throw new UsageError("project id wasn't passed: add --id <id> (or -p, or id in --file)");
    const name = fields.name ?? file.name;
    if (!name) throw new UsageError("project name is a required flag: add --name <name> (or name in --file)");
    const labels = fields.labels ?? file.labels;
    const project = { id, name, description: fields.description ?? file.description, labels };
    // What the admin would refuse is refused here, a dry run included.
    checkNewProject(project);
    if (dryRun) {
      printText(ctx.io, `skipping RegisterProject request (dryRun): project ${id} not created\n`);
      return;
    }
    const admin = await ctx.admin({ connectNow: true });
    const { createProject } = await import("../../projects/change_project.ts");
    await createProject(admin, project, ctx.signal);
    printText(ctx.io, `project ${id} created successfully.\n`);
  },
});

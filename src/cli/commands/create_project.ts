/**
 * `fctl create project --id ID --name NAME [--description D] [--labels k=v,…] [--file F] [--dryRun]`: registers
 * a project (RegisterProject). The id comes from `--id`, the file, or `-p`; flags win over the file.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { printText } from "../../output/print.ts";

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
  async run(ctx, _args, flags) {
    const { parseLabels, readProjectFile } = await import("../../projects/project_fields.ts");
    const file = flags.file === undefined ? {} : await readProjectFile(flags.file, ctx.io.readTextFile);
    // Only a -p typed beside --id is a conflict: a default project from the config file or environment is not.
    const typedProject = ctx.loaded.sources.project === "flag" ? ctx.config.project : undefined;
    if (flags.id !== undefined && typedProject && flags.id !== typedProject) {
      throw new UsageError("both project and id are passed: give the project's id with --id or -p, not both");
    }
    const id = flags.id || file.id || ctx.config.project;
    if (!id) throw new UsageError("project id wasn't passed: add --id <id> (or -p, or id in --file)");
    const name = flags.name ?? file.name;
    if (!name) throw new UsageError("project name is a required flag: add --name <name> (or name in --file)");
    const labels = flags.labels === undefined ? file.labels : parseLabels(flags.labels);
    const project = { id, name, description: flags.description ?? file.description, labels };
    if (flags.dryRun) {
      printText(ctx.io, `skipping RegisterProject request (dryRun): project ${id} not created\n`);
      return;
    }
    const admin = await ctx.admin({ connectNow: true });
    const { createProject } = await import("../../projects/change_project.ts");
    await createProject(admin, project, ctx.signal);
    printText(ctx.io, `project ${id} created successfully.\n`);
  },
});

/**
 * `fctl update project [ID|--id ID] --archive|--activate [--name --description --labels --file F] [--force --dryRun]`:
 * changes the fields named, and only those (GetProject, then UpdateProject with the rest as they are now).
 *
 * @module
 */
import { quote, UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { refuseEmpty } from "../flag_values.ts";
import { UPDATE_FLAGS } from "../update_flow.ts";
import { PROJECT_FIELD_FLAGS } from "./create_project.ts";
import { printText } from "../../output/print.ts";
import { checkProjectFields, parseLabels, readProjectFile } from "../../projects/project_fields.ts";

/** The local flags of `update project`. */
export const UPDATE_PROJECT_FLAGS = [
  { long: "archive", help: "archive the project" },
  { long: "activate", help: "activate an archived project" },
  { long: "archiveProject", help: "deprecated: use --archive", hidden: true },
  { long: "activateProject", help: "deprecated: use --activate", hidden: true },
  { long: "id", value: "<id>", help: "the project (as the argument; default: -p)" },
  ...PROJECT_FIELD_FLAGS,
  {
    long: "file",
    value: "<file>",
    help: "YAML with id, name, description, labels: {values: {k: v}} and state (0 active, 1 archived); flags win " +
      "over it, and an empty field in it stays as it is",
  },
  ...UPDATE_FLAGS,
] as const satisfies readonly FlagSpec[];

/** What `update project` does to one project: the fields named, and only those, asking first unless forced. */
export interface UpdateProjectCommandOptions {
  /** The argument or `--id`; absent: the file's id, else `-p`. */
  id?: string;
  /** `-p` (or its config file or environment value): the id when neither the argument, `--id` nor the file names one. */
  project: string;
  /** `--file`: a project file, read by the run, its fields under the flags'. */
  file?: string;
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
  options({ args: [idArg], flags, globals: { config }, warn }): UpdateProjectCommandOptions {
    refuseEmpty(flags, { id: "a project id", file: "a file path" });
    if (idArg && flags.id !== undefined && idArg !== flags.id) {
      throw new UsageError(`both ${quote(idArg)} and --id ${quote(flags.id)} are passed: name one project`);
    }
    const id = idArg || flags.id || undefined;
    if (!id && !config.project && flags.file === undefined) {
      throw new UsageError("project id wasn't passed: name the project, or add -p <id> (or id in --file)");
    }
    // Warned as update launchplan's --archive is (flytectl warns only there; these are deprecated the same way).
    if (flags.archiveProject) warn("--archiveProject is deprecated: use --archive");
    if (flags.activateProject) warn("--activateProject is deprecated: use --activate");
    const archive = flags.archive === true || flags.archiveProject === true;
    const activate = flags.activate === true || flags.activateProject === true;
    if (archive && activate) throw new UsageError("invalid state passed. Specify either activate or archive");
    const named = archive || activate || [flags.name, flags.description, flags.labels].some((v) => v !== undefined);
    if (!named && flags.file === undefined) {
      throw new UsageError("nothing to update: add --archive, --activate, --name, --description, --labels or --file");
    }
    // FlyteAdmin writes a project skipping its empty fields: an empty one would be reported updated, and stay.
    for (const field of ["name", "description"] as const) {
      if (flags[field] === "") {
        throw new UsageError(
          `invalid value "" for --${field}: FlyteAdmin keeps a project's ${field} when sent an empty one, so it ` +
            `cannot be cleared; give a new ${field}`,
        );
      }
    }
    // What FlyteAdmin would refuse is refused before the project is read, a dry run included.
    checkProjectFields({ name: flags.name, description: flags.description });
    return {
      id,
      project: config.project,
      file: flags.file,
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
  async run(ctx, options) {
    const { dryRun, force } = options;
    const { id, state: wantedState, fields } = await withFile(ctx.io.readTextFile, options);
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

/**
 * The project and the change the options and the project file (when given) name: the flags' fields over the
 * file's, an empty field in the file left as it is (as flytectl has it), the file's `state` counting when no state
 * flag is given (flytectl ignores it then). Refuses, before any call, a file that names nothing to change.
 */
async function withFile(
  readTextFile: (path: string) => Promise<string>,
  options: UpdateProjectCommandOptions,
): Promise<Pick<UpdateProjectCommandOptions, "state" | "fields"> & { id: string }> {
  if (options.file === undefined) return { ...options, id: options.id || options.project };
  const file = await readProjectFile(options.file, readTextFile);
  const id = options.id || file.id || options.project;
  if (!id) throw new UsageError("project id wasn't passed: name the project, or add -p <id> (or id in --file)");
  const fileLabels = file.labels && Object.keys(file.labels).length > 0 ? file.labels : undefined;
  const fields = {
    name: options.fields.name ?? (file.name || undefined),
    description: options.fields.description ?? (file.description || undefined),
    labels: options.fields.labels ?? fileLabels,
  };
  const fileState = file.state === 1 ? "archive" : file.state === 0 ? "activate" : undefined;
  const state = options.state ?? fileState;
  if (state === undefined && Object.values(fields).every((v) => v === undefined)) {
    throw new UsageError(
      `nothing to update: project file ${quote(options.file)} names no name, description, labels or ` +
        "state, and no flag does",
    );
  }
  checkProjectFields(fields);
  return { id, state, fields };
}

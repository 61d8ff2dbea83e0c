/**
 * `fctl update task-meta|workflow-meta|launchplan-meta NAME --archive|--activate|--description D`: a name's
 * description and state (GetNamedEntity, then UpdateNamedEntity with what was not named as it is now, so a
 * description alone never un-archives, unlike flytectl).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { UPDATE_FLAGS } from "../update_flow.ts";
import { printText } from "../../output/print.ts";
import { type ProjectDomain, projectDomain } from "../project_domain.ts";

/** The local flags of the `update *-meta` commands. */
export const UPDATE_META_FLAGS = [
  { long: "archive", help: "archive the name (hidden from default listings)" },
  { long: "activate", help: "activate an archived name" },
  { long: "description", value: "<text>", help: "set the description (the state stays unless a state flag is given)" },
  ...UPDATE_FLAGS,
] as const satisfies readonly FlagSpec[];

/** The longest description FlyteAdmin keeps (its named_entity_metadata column is a varchar(300)). */
const DESCRIPTION_MAX = 300;

/** The three kinds: command name, resource type (flyteidl's ResourceType number) and the noun shown. */
const KINDS = [
  { command: "task-meta", resourceType: 1, noun: "task" },
  { command: "workflow-meta", resourceType: 2, noun: "workflow" },
  { command: "launchplan-meta", resourceType: 3, noun: "launch plan" },
] as const;

/** What `update task-meta|workflow-meta|launchplan-meta` does to one name, asking first unless forced. */
export interface UpdateMetaCommandOptions {
  id: ProjectDomain & { name: string };
  /** `--archive` or `--activate`; absent: the state stays. */
  state?: "archive" | "activate";
  /** `--description`; absent: it stays. */
  description?: string;
  dryRun: boolean;
  force: boolean;
}

function metaCommand(kind: typeof KINDS[number]): CommandSpec {
  return leafCommand({
    name: kind.command,
    aliases: [],
    description: `archive or activate a ${kind.noun} name, or set its description`,
    arguments: [{ name: "name", help: `the ${kind.noun}`, required: true, variadic: false }],
    flags: UPDATE_META_FLAGS,
    globals: ["config", "project", "domain", "admin.endpoint"],
    examples: [
      `fctl update ${kind.command} core.basic.hello -p flytesnacks -d development --archive`,
      `fctl update ${kind.command} core.basic.hello -p flytesnacks -d development --description "says hello" --force`,
    ],
    options({ args: [name], flags, globals: { config } }): UpdateMetaCommandOptions {
      const { project, domain } = projectDomain(config);
      if (flags.archive && flags.activate) {
        throw new UsageError("invalid state passed. Specify either --archive or --activate");
      }
      if (!flags.archive && !flags.activate && flags.description === undefined) {
        throw new UsageError("nothing to update: add --archive, --activate or --description");
      }
      // FlyteAdmin writes the metadata skipping its empty fields: an empty one would be reported updated, and stay.
      if (flags.description === "") {
        throw new UsageError(
          `invalid value "" for --description: FlyteAdmin keeps a ${kind.noun}'s description when sent an empty ` +
            "one, so it cannot be cleared; give a new description",
        );
      }
      // FlyteAdmin keeps a description in a column of 300 characters, and fails the update on a longer one.
      const length = [...flags.description ?? ""].length;
      if (length > DESCRIPTION_MAX) {
        throw new UsageError(
          `description of ${length} characters: at most ${DESCRIPTION_MAX} (FlyteAdmin keeps no more)`,
        );
      }
      return {
        id: { project, domain, name },
        state: flags.archive ? "archive" : flags.activate ? "activate" : undefined,
        description: flags.description,
        dryRun: flags.dryRun === true,
        force: flags.force === true,
      };
    },
    async run(ctx, options) {
      const { project, domain, name } = options.id;
      const admin = await ctx.admin({ connectNow: true });
      const [meta, { NamedEntityState }, { runUpdate }] = await Promise.all([
        import("../../workflows/entity_metadata.ts"),
        import("../../../proto/gen/flyteidl/admin/common_pb.ts"),
        import("../update_flow.ts"),
      ]);
      const id = { resourceType: kind.resourceType, project, domain, name };
      const current = await meta.readNamedEntity(admin, id, ctx.signal);
      const state = options.state === "archive"
        ? NamedEntityState.NAMED_ENTITY_ARCHIVED
        : options.state === "activate"
        ? NamedEntityState.NAMED_ENTITY_ACTIVE
        : undefined;
      const wanted = meta.changedMetadata(current, { description: options.description, state });
      const applied = await runUpdate(ctx, {
        what: `update of ${kind.noun} ${JSON.stringify(name)}`,
        rpc: "UpdateNamedEntity",
        fields: [
          { field: "description", before: current.metadata?.description ?? "", after: wanted.description },
          {
            field: "state",
            before: meta.entityStateName(current.metadata?.state),
            after: meta.entityStateName(wanted.state),
          },
        ],
        dryRun: options.dryRun,
        force: options.force,
        apply: () => meta.sendEntityMetadata(admin, id, wanted, ctx.signal),
      });
      if (applied) printText(ctx.io, `updated ${kind.noun} ${name}\n`);
    },
  });
}

/** `update task-meta`, `update workflow-meta`, `update launchplan-meta`. */
export const UPDATE_META_COMMANDS: readonly CommandSpec[] = KINDS.map(metaCommand);

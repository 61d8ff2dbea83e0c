/**
 * `fctl update launchplan NAME --version V --activate|--deactivate`: sets one launch plan version's state
 * (GetLaunchPlan, then UpdateLaunchPlan), showing the change and asking first (see `update_flow.ts`).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import { refuseEmpty } from "../flag_values.ts";
import { UPDATE_FLAGS } from "../update_flow.ts";
import { printText } from "../../output/print.ts";
import { type ProjectDomain, projectDomain } from "../project_domain.ts";

/** The local flags of `update launchplan`. */
export const UPDATE_LAUNCH_PLAN_FLAGS = [
  { long: "version", value: "<version>", help: "the launch plan version to update (required)" },
  { long: "activate", help: "activate the version (the launch plan's other versions are deactivated)" },
  { long: "deactivate", help: "deactivate the version" },
  { long: "archive", help: "deprecated: use --deactivate", hidden: true },
  ...UPDATE_FLAGS,
] as const satisfies readonly FlagSpec[];

/** What `update launchplan` does: activate or deactivate one launch plan version, asking first unless forced. */
export interface UpdateLaunchPlanCommandOptions {
  id: ProjectDomain & { name: string; version: string };
  /** True: deactivate it (`--deactivate`, or the deprecated `--archive`); false: activate it. */
  deactivate: boolean;
  dryRun: boolean;
  force: boolean;
}

/** `update launchplan`. */
export const UPDATE_LAUNCH_PLAN_COMMAND: CommandSpec = leafCommand({
  name: "launchplan",
  aliases: ["launchplans"],
  description: "activate or deactivate a launch plan version",
  arguments: [{ name: "name", help: "the launch plan", required: true, variadic: false }],
  flags: UPDATE_LAUNCH_PLAN_FLAGS,
  globals: ["config", "project", "domain", "admin.endpoint"],
  examples: [
    "fctl update launchplan core.basic.wf -p flytesnacks -d development --version v2 --activate",
    "fctl update launchplan core.basic.wf -p flytesnacks -d development --version v1 --deactivate --force",
  ],
  options({ args: [name], flags, globals: { config }, warn }): UpdateLaunchPlanCommandOptions {
    const { project, domain } = projectDomain(config);
    refuseEmpty(flags, { version: "a launch plan version" });
    if (!flags.version) throw new UsageError("launch plan version wasn't passed: add --version <version>");
    if (flags.archive) warn("--archive is deprecated: use --deactivate");
    const deactivate = flags.deactivate === true || flags.archive === true;
    if ((flags.activate === true) === deactivate) {
      throw new UsageError("invalid state passed. Specify either activate or deactivate");
    }
    return {
      id: { project, domain, name, version: flags.version },
      deactivate,
      dryRun: flags.dryRun === true,
      force: flags.force === true,
    };
  },
  async run(ctx, { id, deactivate, dryRun, force }) {
    const { name, version } = id;
    const admin = await ctx.admin({ connectNow: true });
    const [launchPlans, { LaunchPlanState }, { runUpdate }] = await Promise.all([
      import("../../launchplans/update_launch_plan.ts"),
      import("../../../proto/gen/flyteidl/admin/launch_plan_pb.ts"),
      import("../update_flow.ts"),
    ]);
    const { launchPlanStateName } = launchPlans;
    const current = await launchPlans.readLaunchPlanVersion(admin, id, ctx.signal);
    const state = deactivate ? LaunchPlanState.INACTIVE : LaunchPlanState.ACTIVE;
    const fields = [{
      field: "state",
      before: launchPlanStateName(current.closure?.state),
      after: launchPlanStateName(state),
    }];
    // Activating a version deactivates the one active now (and moves its schedule): the change shows it too.
    if (state === LaunchPlanState.ACTIVE && current.closure?.state !== LaunchPlanState.ACTIVE) {
      const active = await launchPlans.activeLaunchPlanVersion(admin, id, ctx.signal);
      if (active !== undefined && active !== version) {
        fields.push({ field: "active version", before: active, after: version });
      }
    }
    const applied = await runUpdate(ctx, {
      what: `update of launch plan ${JSON.stringify(name)} version ${JSON.stringify(version)}`,
      rpc: "UpdateLaunchPlan",
      fields,
      dryRun,
      force,
      apply: () => launchPlans.updateLaunchPlanState(admin, id, state, ctx.signal),
    });
    if (applied) {
      printText(ctx.io, `updated launch plan ${name} version ${version} to ${launchPlanStateName(state)}\n`);
    }
  },
});

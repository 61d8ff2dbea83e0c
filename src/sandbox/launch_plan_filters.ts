/**
 * The terms of a launch plan listing's filters that the launch plan table's columns cannot answer: FlyteAdmin joins
 * a launch plan to its workflow, so `eq(workflow.name,W)` (what `get launchplan --workflow W` sends) selects the
 * launch plans of workflow W, and `eq(state,1)` the active versions. The sandbox applies them to each launch plan's
 * `spec.workflowId` and `closure.state`, and leaves the rest to the launch plan table.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";

const TERM = /^([A-Za-z_]+)\(workflow\.(name|version|project|domain),(.*)\)$/s;
/** A launch plan's state column (ACTIVE is 1): `state=1` lists the active versions. */
const STATE_TERM = /^(eq|ne)\((?:launch_plan\.)?state,(\d+)\)$/;
const SEPARATOR = /\)\+(?=[A-Za-z_]+\()/;

/** The filters without their `workflow.*` terms, and the test those terms make of a launch plan. */
export function splitWorkflowTerms(filters: string): { rest: string; matches: (launchPlan: LaunchPlan) => boolean } {
  const trimmed = filters.trim();
  if (trimmed === "") return { rest: "", matches: () => true };
  const terms = trimmed.split(SEPARATOR).map((t, i, all) => (i < all.length - 1 ? `${t})` : t));
  const tests: ((launchPlan: LaunchPlan) => boolean)[] = [];
  const rest = terms.filter((term) => {
    const state = STATE_TERM.exec(term.trim());
    if (state) {
      const wanted = Number(state[2]);
      tests.push((lp) => ((lp.closure?.state ?? 0) === wanted) === (state[1] === "eq"));
      return false;
    }
    const match = TERM.exec(term.trim());
    if (!match) return true;
    const [, fn, field, value] = match;
    const actual = (lp: LaunchPlan) => lp.spec?.workflowId?.[field as "name" | "version" | "project" | "domain"] ?? "";
    switch (fn) {
      case "eq":
        tests.push((lp) => actual(lp) === value);
        break;
      case "ne":
        tests.push((lp) => actual(lp) !== value);
        break;
      case "contains":
        tests.push((lp) => actual(lp).includes(value));
        break;
      case "value_in":
        tests.push((lp) => value.split(";").includes(actual(lp)));
        break;
      default:
        throw new ConnectError(`unrecognized filter function "${fn}" in "${term}"`, Code.InvalidArgument);
    }
    return false;
  });
  return { rest: rest.join("+"), matches: (lp) => tests.every((test) => test(lp)) };
}

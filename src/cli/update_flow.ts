/**
 * The steps every `update` command takes once it knows the current and the wanted values: show what changes as
 * a small before/after, stop when nothing does or on `--dryRun`, ask before applying (unless `--force`), apply.
 *
 * @module
 */
import type { FlagSpec } from "./command.ts";
import type { CliContext } from "./context.ts";
import { printText } from "../output/print.ts";
import { printable } from "../output/printable.ts";

/** The flags every update takes. */
export const UPDATE_FLAGS = [
  { long: "dryRun", help: "show what would change, and send nothing" },
  { long: "force", help: "apply without asking (needed when stdin is not a terminal)" },
] as const satisfies readonly FlagSpec[];

/** One field an update changes: its name and its text before and after. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** What {@link runUpdate} needs. */
export interface UpdatePlan {
  /** What is updated, for the refusal and the abort (`update of launch plan "lp" version "v1"`). */
  what: string;
  /** The RPC that applies it, for `--dryRun`'s line. */
  rpc: string;
  /** Every field compared; those equal before and after are left out of the diff. */
  fields: readonly FieldChange[];
  dryRun: boolean;
  force: boolean;
  /** Sends the update. */
  apply(): Promise<void>;
}

/** Shows the changes and applies them; returns false when nothing was sent (no change, or `--dryRun`). */
export async function runUpdate(ctx: CliContext, plan: UpdatePlan): Promise<boolean> {
  const changed = plan.fields.filter((f) => f.before !== f.after);
  if (changed.length === 0) {
    printText(ctx.io, "No changes detected. Skipping the update.\n");
    return false;
  }
  const lines = ["The following changes are to be applied.", "--- before", "+++ after"];
  // A value is the admin's or the user's text: a line break in it would forge a line, an escape drive the terminal.
  // An empty value ends its line at the colon, with no space after it.
  const line = (sign: string, field: string, value: string) =>
    `${sign}${field}:${value === "" ? "" : ` ${printable(value)}`}`;
  for (const f of changed) lines.push(line("-", f.field, f.before), line("+", f.field, f.after));
  printText(ctx.io, lines.join("\n") + "\n");
  if (plan.dryRun) {
    printText(ctx.io, `skipping ${plan.rpc} request (dryRun)\n`);
    return false;
  }
  const { confirmOrAbort } = await import("../output/prompt.ts");
  await confirmOrAbort(ctx.io, plan.what, plan.force);
  await plan.apply();
  return true;
}

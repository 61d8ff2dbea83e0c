/**
 * The runF seam (`parseToOptions`) reaches every leaf of the tree: each has an options step, which needs nothing
 * but the command line (no context, no file, no server), and whose only failure is a usage error.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { COMMAND_TREE, loadCommandTree, type LoadedCommand } from "./command_tree.ts";
import { parseToOptions } from "./run.ts";

/** Every leaf of the tree with the names leading to it from the root. */
function leaves(command: LoadedCommand, names: string[] = []): { names: string[]; leaf: LoadedCommand }[] {
  if (command.subcommands.length === 0) return [{ names, leaf: command }];
  return command.subcommands.flatMap((c) => leaves(c, [...names, c.name]));
}

Deno.test("every leaf stops at the seam with its options, or a usage error, and nothing else", async () => {
  const all = leaves(await loadCommandTree(COMMAND_TREE));
  assert(all.length >= 20, `the walk finds the leaves (${all.length})`);
  const reached: string[] = [];
  for (const { names, leaf } of all) {
    assert(leaf.options && leaf.run, `${names.join(" ")} has both steps`);
    const args = leaf.arguments.filter((a) => a.required).map((a) => a.choices?.[0] ?? "x");
    try {
      const parsed = await parseToOptions([...names, ...args, "-p", "flytesnacks", "-d", "development"]);
      deepEqual(parsed.command, names);
      equal(typeof parsed.options, "object", names.join(" "));
      reached.push(names.join(" "));
    } catch (err) {
      assert(err instanceof UsageError, `${names.join(" ")}: ${err}`);
    }
  }
  // Those that need no more than a project and domain give their options.
  for (const name of ["get task", "get workflow", "register files", "version", "completion", "config init"]) {
    assert(reached.includes(name), name);
  }
});

import { deepEqual, equal, ok as assert } from "node:assert/strict";
import {
  acceptedFlags,
  COMMAND_TREE,
  flagTerm,
  GLOBAL_FLAGS,
  helpGlobalFlags,
  loadCommandTree,
  type LoadedCommand,
  ownFlags,
} from "./command_tree.ts";
import { globalOptionGroups, OPTIONS_POINTER, renderHelp, renderOptionsHelp } from "./help.ts";
import { runFctl } from "../../tests/helpers.ts";

/** The whole tree, every group loaded. */
const TREE = await loadCommandTree(COMMAND_TREE);

/** Every command of the tree with its path from the root, the root included. */
function allPaths(path: LoadedCommand[] = [TREE]): LoadedCommand[][] {
  return [path, ...path[path.length - 1].subcommands.flatMap((c) => allPaths([...path, c]))];
}

Deno.test("every way of asking for a command's help prints the tree's rendering of it", async () => {
  for (const path of allPaths()) {
    const names = path.slice(1).map((c) => c.name);
    const asked = [[...names, "--help"], [...names, "-h"], ["help", ...names]];
    if (path[path.length - 1].subcommands.length > 0) asked.push(names);
    for (const args of asked) {
      const { code, stdout, stderr } = await runFctl(args, { stdoutIsTerminal: true, columns: 90 });
      deepEqual([code, stderr], [0, ""], args.join(" "));
      equal(stdout, renderHelp(path, 90), args.join(" "));
    }
  }
});

Deno.test("help lists its own visible flags and the globals it uses, every command and argument, no hidden flag", () => {
  for (const path of allPaths()) {
    const text = renderHelp(path);
    const spec = path[path.length - 1];
    const shown = new Set([...ownFlags(path).filter((f) => !f.hidden), ...helpGlobalFlags(path)]);
    for (const flag of acceptedFlags(path)) {
      const listed = text.split("\n").some((line) => line.startsWith(`  ${flagTerm(flag)} `));
      equal(listed, shown.has(flag), `${flagTerm(flag)} in help of ${spec.name}`);
    }
    if (helpGlobalFlags(path).length > 0) assert(text.includes(`\n  ${OPTIONS_POINTER}\n`), spec.name);
    for (const sub of spec.subcommands) assert(text.includes(`\n  ${[sub.name, ...sub.aliases].join("|")}`));
    for (const argument of spec.arguments) assert(text.includes(`\n  ${argument.name}  `));
  }
  assert(GLOBAL_FLAGS.some((f) => f.hidden), "some flags are hidden, so the check above can fail");
  assert(renderHelp([COMMAND_TREE]).split("\n").length < 60, "the program's help is a screen, not 200 lines");
});

Deno.test("fctl help options lists every visible global option once, and no hidden one", () => {
  const text = renderOptionsHelp();
  for (const flag of GLOBAL_FLAGS) {
    const lines = text.split("\n").filter((line) => line.startsWith(`  ${flagTerm(flag)} `));
    equal(lines.length, flag.hidden ? 0 : 1, flagTerm(flag));
  }
  deepEqual(globalOptionGroups().map(([title]) => title), [
    "General",
    "console",
    "logger",
    "admin",
    "storage",
    "http",
    "files",
    "otel",
  ]);
});

Deno.test("every command has 2 to 4 examples, each a command line of the command it documents", () => {
  for (const path of allPaths()) {
    const examples = path[path.length - 1].examples ?? [];
    const where = path.map((c) => c.name).join(" ");
    assert(examples.length >= 2 && examples.length <= 4, `${where}: ${examples.length} examples`);
    for (const example of examples) assert(/(^|[\s(])fctl /.test(example), `${where}: ${example}`);
  }
});

Deno.test("wrapping at 40, 80 and 120 columns never breaks inside a token", () => {
  // A wrapped example gains ` \` continuations and its comment's `#` on each line: neither is a broken token.
  // Compared as sorted lists: a wrapped example's comment moves before its command, and a broken token would
  // show up as two that are not in the unwrapped text.
  const tokens = (text: string) => text.split(/\s+/).filter((t) => t && t !== "\\" && t !== "#").sort();
  for (const path of allPaths()) {
    const whole = tokens(renderHelp(path));
    for (const columns of [40, 80, 120]) {
      deepEqual(tokens(renderHelp(path, columns)), whole, `${path.length} ${columns}`);
    }
  }
  const whole = tokens(renderOptionsHelp());
  for (const columns of [40, 80, 120]) deepEqual(tokens(renderOptionsHelp(columns)), whole);
});

Deno.test("on a terminal help fits its width; piped, every description stays on its term's line", () => {
  const longest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));
  for (const path of allPaths()) {
    for (const columns of [40, 60, 80, 120]) {
      const text = renderHelp(path, columns);
      // Only an unbreakable word (a long example) may stick out.
      for (const line of text.split("\n")) assert(line.length <= columns || !/ \S+ /.test(line.trim()), line);
    }
    const piped = renderHelp(path).split("\n");
    for (const line of piped.filter((l) => l.startsWith("  -"))) assert(/\S {2,}\S/.test(line), line);
  }
  assert(longest(renderOptionsHelp()) > 120, "piped help is not wrapped");
  for (const columns of [40, 80, 120]) {
    for (const line of renderOptionsHelp(columns).split("\n")) {
      assert(line.length <= columns || !/ \S+ /.test(line.trim()), line);
    }
  }
});

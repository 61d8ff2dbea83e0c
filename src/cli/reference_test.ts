import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { COMMAND_TREE, GLOBAL_FLAGS, loadCommandTree, type LoadedCommand } from "./command_tree.ts";
import { OPTIONS_PAGE, pageName, referencePages } from "./reference.ts";

const TREE = await loadCommandTree(COMMAND_TREE);

function allPaths(path: LoadedCommand[] = [TREE]): LoadedCommand[][] {
  return [path, ...path[path.length - 1].subcommands.flatMap((c) => allPaths([...path, c]))];
}

Deno.test("one page per command and one for the global options; every link points at a page", async () => {
  const pages = await referencePages();
  deepEqual([...pages.keys()].sort(), [...allPaths().map(pageName), OPTIONS_PAGE].sort());
  for (const [name, text] of pages) {
    for (const [, target] of text.matchAll(/\]\(([^)]+)\)/g)) assert(pages.has(target), `${name} links ${target}`);
    for (const line of text.split("\n").filter((l) => l.startsWith("| "))) {
      // Two columns, whatever a cell holds: every `|` inside a cell is escaped.
      equal(line.split(/(?<!\\)\|/).length, 4, line);
    }
  }
  const options = pages.get(OPTIONS_PAGE)!;
  for (const flag of GLOBAL_FLAGS.filter((f) => !f.hidden)) assert(options.includes(`--${flag.long}`), flag.long);
});

Deno.test("the freshness check passes on the generated pages and names a stale or extra one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-reference-" });
  const script = new URL("../../scripts/gen_reference.ts", import.meta.url).pathname;
  const run = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--allow-read", "--allow-write", script, "--dir", dir, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  try {
    equal((await run("--check")).code, 1, "an empty folder is stale");
    equal((await run()).code, 0);
    equal((await run("--check")).code, 0);
    await Deno.writeTextFile(join(dir, "fctl_get_task.md"), "edited by hand\n");
    await Deno.writeTextFile(join(dir, "fctl_gone.md"), "a command that no longer exists\n");
    const stale = await run("--check");
    equal(stale.code, 1);
    match(stale.stderr, /is stale \(fctl_get_task\.md, fctl_gone\.md\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

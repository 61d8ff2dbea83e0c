/**
 * Writes the command reference (`docs/reference/*.md`) from the command tree (see `src/cli/reference.ts`).
 *
 *   deno task reference           rewrite docs/reference
 *   deno task reference --check   fail, naming the stale pages, if docs/reference differs
 *   --dir <path>                  another folder instead of docs/reference (tests)
 *
 * @module
 */
import { join } from "node:path";
import { referencePages } from "../src/cli/reference.ts";

const dirFlag = Deno.args.indexOf("--dir");
const dir = dirFlag >= 0 ? Deno.args[dirFlag + 1] : new URL("../docs/reference/", import.meta.url).pathname;

async function committed(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".md")) {
        files.set(entry.name, await Deno.readTextFile(join(dir, entry.name)));
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return files;
}

const pages = await referencePages();
const current = await committed();
const stale = [...new Set([...pages.keys(), ...current.keys()])].filter((name) => pages.get(name) !== current.get(name))
  .sort();
if (Deno.args.includes("--check")) {
  if (stale.length > 0) {
    console.error(
      `${dirFlag >= 0 ? dir : "docs/reference"} is stale (${stale.join(", ")}): run \`deno task reference\``,
    );
    Deno.exit(1);
  }
} else {
  await Deno.mkdir(dir, { recursive: true });
  for (const name of stale) {
    const text = pages.get(name);
    if (text === undefined) await Deno.remove(join(dir, name));
    else await Deno.writeTextFile(join(dir, name), text);
  }
  console.log(`docs/reference: ${stale.length} of ${pages.size} pages written`);
}

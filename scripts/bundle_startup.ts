/**
 * Merges the chunks that a bundle's `main.js` imports statically into one module, {@link STARTUP_MODULE}.
 *
 * Why: code splitting makes a chunk of every set of modules that the same entry points share, so what `main.js`
 * loads before anything runs was a dozen small files (the errors, the option schema, the flags, the command
 * helpers, …), each shared with a different set of lazily loaded commands. Deno loads a module for about 0.13 ms
 * beyond its code (resolving, reading, two cache look-ups, compiling from the code cache): the dozen cost about
 * 1.4 ms of every start, `fctl --help`'s included. The merged module is built by the bundler itself (`export *` of
 * the chunks, not split), which keeps their names apart; every file that imported one of the chunks imports it
 * instead, and the chunks are removed. What loads later is unchanged: the lazily loaded chunks find the merged
 * module evaluated already.
 *
 * Nothing is merged, and the bundle stays as built, unless every chunk to merge imports nothing but the others,
 * imports nothing lazily, does not read `import.meta` (its URL would change), and no two export the same name.
 *
 * @module
 */

/** The module the chunks loaded at start-up become. */
export const STARTUP_MODULE = "startup.js";

/** A static import of a file of the bundle, as the bundler writes them: `import { a, b } from "./x.js";`, `import "./x.js";`. */
const RELATIVE_IMPORT = /^import (?:\{[^}]*\} from )?"\.\/([\w.-]+\.js)";$/gm;

/** Any static import statement (the bundler starts each at the beginning of a line). */
const ANY_IMPORT = /^import[\s{"*]/gm;

/** An export list, `export {\n  a,\n  b as c\n};`. */
const EXPORT_LIST = /^export \{([^}]*)\};$/gm;

/** The files `text` imports statically, relative to its directory. */
export function relativeImports(text: string): string[] {
  return [...text.matchAll(RELATIVE_IMPORT)].map((match) => match[1]);
}

/** The names a chunk exports (the name after `as`, where there is one). */
export function exportedNames(text: string): string[] {
  return [...text.matchAll(EXPORT_LIST)].flatMap((match) =>
    match[1].split(",").map((item) => item.trim()).filter(Boolean).map((item) => item.split(/\s+as\s+/).at(-1)!)
  );
}

/** The files of `files` that `main.js` loads statically, every one after those it imports (evaluation order). */
export function startupChunks(files: ReadonlyMap<string, string>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = files.get(name);
    if (text === undefined) throw new Error(`${name} is imported but is not in the bundle`);
    for (const dependency of relativeImports(text)) visit(dependency);
    order.push(name);
  };
  visit("main.js");
  return order.filter((name) => name !== "main.js");
}

/** Why the chunks cannot be merged, or undefined when they can. */
export function mergeRefusal(files: ReadonlyMap<string, string>, chunks: readonly string[]): string | undefined {
  const merged = new Set(chunks);
  const exported = new Map<string, string>();
  for (const name of chunks) {
    const text = files.get(name)!;
    const imports = relativeImports(text);
    if (imports.length !== [...text.matchAll(ANY_IMPORT)].length) return `${name} imports a package`;
    if (imports.some((file) => !merged.has(file))) return `${name} imports a file loaded later`;
    if (text.includes("import(")) return `${name} imports a module lazily`;
    if (text.includes("import.meta")) return `${name} reads import.meta`;
    for (const exportName of exportedNames(text)) {
      const other = exported.get(exportName);
      if (other) return `${name} and ${other} both export ${exportName}`;
      exported.set(exportName, name);
    }
  }
  for (const [name, text] of files) {
    if (merged.has(name)) continue;
    // A merged chunk loaded lazily would load the merged module instead: never expected, so never done.
    if (chunks.some((chunk) => text.includes(`import("./${chunk}")`))) return `${name} loads a chunk to merge lazily`;
  }
  return undefined;
}

/** `text` with its imports of `chunks` made imports of the merged module. */
export function redirectImports(text: string, chunks: ReadonlySet<string>): string {
  return text.replace(
    RELATIVE_IMPORT,
    (statement, file: string) =>
      chunks.has(file) ? statement.replace(`"./${file}"`, `"./${STARTUP_MODULE}"`) : statement,
  );
}

/** How {@link mergeStartupChunks} runs the bundler. */
export interface MergeOptions {
  /** The `deno.json` the bundle was built with. */
  config: string;
}

/**
 * Merges the start-up chunks of the bundle in `dir` (see the module's documentation). Returns the chunks merged,
 * or the reason nothing was.
 *
 * @throws {Error} the bundler failed, or a merged chunk is still named somewhere (the bundle must not be used)
 */
export async function mergeStartupChunks(
  dir: string,
  options: MergeOptions,
): Promise<{ merged: string[] } | { refused: string }> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) {
      files.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
    }
  }
  if (files.has(STARTUP_MODULE)) return { refused: `the bundle already has a ${STARTUP_MODULE}` };
  const chunks = startupChunks(files);
  if (chunks.length < 2) return { refused: "main.js loads fewer than two chunks" };
  const refusal = mergeRefusal(files, chunks);
  if (refusal) return { refused: refusal };
  // Outside the bundle's directory: only what the bundle ships goes in it.
  const entry = await Deno.makeTempFile({ dir: `${dir}/..`, prefix: ".startup_entry_", suffix: ".js" });
  try {
    await Deno.writeTextFile(
      entry,
      chunks.map((chunk) => `export * from "./${dir.split("/").at(-1)}/${chunk}";\n`).join(""),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--config",
        options.config,
        "--platform",
        "deno",
        "--format",
        "esm",
        "--output",
        `${dir}/${STARTUP_MODULE}`,
        entry,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`deno bundle of the start-up chunks failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
  } finally {
    await Deno.remove(entry).catch(() => {});
  }
  const merged = new Set(chunks);
  for (const [name, text] of files) {
    if (merged.has(name)) continue;
    const redirected = redirectImports(text, merged);
    if (redirected !== text) await Deno.writeTextFile(`${dir}/${name}`, redirected);
    for (const chunk of chunks) {
      if (redirected.includes(chunk)) {
        throw new Error(`${name} still names ${chunk} after the start-up chunks were merged`);
      }
    }
  }
  for (const chunk of chunks) await Deno.remove(`${dir}/${chunk}`);
  return { merged: chunks };
}

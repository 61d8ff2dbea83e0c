/**
 * Merges the small chunks that code splitting makes of what every run loads into the module that loads them:
 * the chunks `main.js` imports statically become one module, {@link STARTUP_MODULE}; the chunks the run's context
 * (`src/cli/context.ts`, which every command that runs loads first) imports statically become part of it.
 *
 * Why: code splitting makes a chunk of every set of modules that the same entry points share, so what `main.js`
 * loads before anything runs was a dozen small files (the errors, the option schema, the flags, the command
 * helpers, …), each shared with a different set of lazily loaded commands, and the context came with four more
 * (the configuration loader, the redaction, durations). Deno loads a module for about 0.13 ms beyond its code
 * (resolving, reading, two cache look-ups, compiling from the code cache): the dozen cost about 1.4 ms of every
 * start, `fctl --help`'s included. The merged module is built by the bundler itself (`export *` of the chunks, not
 * split), which keeps their names apart; what they import from other files, and every lazy import, stays an
 * import of that file. Every file that imported one of the chunks imports the merged module instead, and the
 * chunks are removed: what loads later finds the merged module evaluated already (a command's modules load after
 * `main.js`, and a run's after its context).
 *
 * Nothing is merged, and the bundle stays as built, unless every chunk to merge imports no package, does not read
 * `import.meta` (its URL would change), is loaded lazily by nothing, and no two of the modules merged export the
 * same name.
 *
 * @module
 */

/** The module the chunks loaded at start-up become. */
export const STARTUP_MODULE = "startup.js";

/** A static import of a file of the bundle, as the bundler writes them: `import { a, b } from "./x.js";`, `import "./x.js";`. */
const RELATIVE_IMPORT = /^import (?:\{[^}]*\} from )?"\.\/([\w.-]+\.js)";$/gm;

/** Any static import statement (the bundler starts each at the beginning of a line). */
const ANY_IMPORT = /^import[\s{"*]/gm;

/** A lazy import of a file of the bundle: `import("./x.js")`. */
const LAZY_IMPORT = /\bimport\("\.\/([\w.-]+\.js)"\)/g;

/** An export list, `export {\n  a,\n  b as c\n};`. */
const EXPORT_LIST = /^export \{([^}]*)\};$/gm;

/** The files `text` imports statically, relative to its directory. */
export function relativeImports(text: string): string[] {
  return [...text.matchAll(RELATIVE_IMPORT)].map((match) => match[1]);
}

/** The files `text` imports lazily, relative to its directory. */
export function lazyImports(text: string): string[] {
  return [...text.matchAll(LAZY_IMPORT)].map((match) => match[1]);
}

/** The names a chunk exports (the name after `as`, where there is one). */
export function exportedNames(text: string): string[] {
  return [...text.matchAll(EXPORT_LIST)].flatMap((match) =>
    match[1].split(",").map((item) => item.trim()).filter(Boolean).map((item) => item.split(/\s+as\s+/).at(-1)!)
  );
}

/** The files `from` loads statically, every one after those it imports (evaluation order), without `from`. */
export function staticImportsOf(files: ReadonlyMap<string, string>, from: string): string[] {
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
  visit(from);
  return order.filter((name) => name !== from);
}

/** The files of `files` that `main.js` loads statically, every one after those it imports (evaluation order). */
export function startupChunks(files: ReadonlyMap<string, string>): string[] {
  return staticImportsOf(files, "main.js");
}

/**
 * Why `modules` (chunks, and the module they are merged into, if it is one of them) cannot be merged, or
 * undefined when they can.
 */
export function mergeRefusal(
  files: ReadonlyMap<string, string>,
  modules: readonly string[],
  into?: string,
): string | undefined {
  const exported = new Map<string, string>();
  for (const name of modules) {
    const text = files.get(name)!;
    if (relativeImports(text).length !== [...text.matchAll(ANY_IMPORT)].length) return `${name} imports a package`;
    if (text.includes("import.meta")) return `${name} reads import.meta`;
    for (const exportName of exportedNames(text)) {
      const other = exported.get(exportName);
      if (other) return `${name} and ${other} both export ${exportName}`;
      exported.set(exportName, name);
    }
  }
  const chunks = modules.filter((name) => name !== into);
  for (const [name, text] of files) {
    // A chunk loaded lazily would load the merged module instead: never expected, so never done.
    const loaded = lazyImports(text).find((file) => chunks.includes(file));
    if (loaded) return `${name} loads ${loaded} lazily`;
  }
  return undefined;
}

/** `text` with its imports of `chunks` made imports of `into`. */
export function redirectImports(text: string, chunks: ReadonlySet<string>, into: string = STARTUP_MODULE): string {
  return text.replace(
    RELATIVE_IMPORT,
    (statement, file: string) => chunks.has(file) ? statement.replace(`"./${file}"`, `"./${into}"`) : statement,
  );
}

/** How the merges run the bundler. */
export interface MergeOptions {
  /** The `deno.json` the bundle was built with. */
  config: string;
}

/** What a merge did: the chunks merged, or why nothing was. */
export type MergeResult = { merged: string[] } | { refused: string };

/** The `.js` files of the bundle in `dir`, by name. */
async function readBundle(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) {
      files.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
    }
  }
  return files;
}

/**
 * Bundles `modules` (in evaluation order) into `dir/into`, every other file they import left an import; then
 * points every other import of them at `into` and removes them (but `into`).
 *
 * @throws {Error} the bundler failed, or a merged chunk is still named somewhere (the bundle must not be used)
 */
async function mergeModules(
  dir: string,
  files: ReadonlyMap<string, string>,
  modules: readonly string[],
  into: string,
  options: MergeOptions,
): Promise<void> {
  const merged = new Set(modules);
  const external = new Set<string>();
  for (const name of modules) {
    for (const file of [...relativeImports(files.get(name)!), ...lazyImports(files.get(name)!)]) {
      if (!merged.has(file)) external.add(file);
    }
  }
  // Outside the bundle's directory: only what the bundle ships goes in it. The output goes beside the files it
  // imports, under a name of its own, and replaces `into` only once it is whole.
  const parent = `${dir}/..`;
  const entry = await Deno.makeTempFile({ dir: parent, prefix: ".merge_entry_", suffix: ".js" });
  const output = `${dir}/.merged_${crypto.randomUUID()}.js`;
  try {
    const base = dir.split("/").at(-1);
    await Deno.writeTextFile(entry, modules.map((name) => `export * from "./${base}/${name}";\n`).join(""));
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
        ...[...external].flatMap((file) => ["--external", `./${file}`]),
        "--output",
        output,
        entry,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`deno bundle of ${into}'s chunks failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    // The bundler names each merged file in a comment by its path from the build's root, which holds the random
    // name of the build's directory: by its name alone, so that the same inputs make the same bundle.
    const text = await Deno.readTextFile(output);
    await Deno.writeTextFile(output, text.replace(/^\/\/ [^\n]*\/([\w.-]+\.js)$/gm, "// $1"));
    await Deno.rename(output, `${dir}/${into}`);
  } finally {
    await Deno.remove(entry).catch(() => {});
    await Deno.remove(output).catch(() => {});
  }
  const chunks = modules.filter((name) => name !== into);
  const redirectedFrom = new Set(chunks);
  for (const [name, text] of files) {
    if (merged.has(name)) continue;
    const redirected = redirectImports(text, redirectedFrom, into);
    if (redirected !== text) await Deno.writeTextFile(`${dir}/${name}`, redirected);
    for (const chunk of chunks) {
      if (redirected.includes(chunk)) throw new Error(`${name} still names ${chunk} after it was merged into ${into}`);
    }
  }
  for (const chunk of chunks) await Deno.remove(`${dir}/${chunk}`);
}

/**
 * Merges the start-up chunks of the bundle in `dir` into {@link STARTUP_MODULE} (see the module's documentation).
 *
 * @throws {Error} the bundler failed, or a merged chunk is still named somewhere (the bundle must not be used)
 */
export async function mergeStartupChunks(dir: string, options: MergeOptions): Promise<MergeResult> {
  const files = await readBundle(dir);
  if (files.has(STARTUP_MODULE)) return { refused: `the bundle already has a ${STARTUP_MODULE}` };
  const chunks = startupChunks(files);
  if (chunks.length < 2) return { refused: "main.js loads fewer than two chunks" };
  const refusal = mergeRefusal(files, chunks);
  if (refusal) return { refused: refusal };
  await mergeModules(dir, files, chunks, STARTUP_MODULE, options);
  return { merged: chunks };
}

/**
 * Merges the chunks the run's context imports statically into it (see the module's documentation); after
 * {@link mergeStartupChunks}, whose module stays an import.
 *
 * @throws {Error} the bundler failed, or a merged chunk is still named somewhere (the bundle must not be used)
 */
export async function mergeRunContext(dir: string, options: MergeOptions): Promise<MergeResult> {
  const files = await readBundle(dir);
  // `runCli` imports the context (src/cli/context.ts) before a command runs, with this literal specifier.
  const context = lazyImports(files.get("main.js") ?? "").find((file) => /^context-[\w]+\.js$/.test(file));
  if (!context) return { refused: "main.js loads no context module" };
  const chunks = staticImportsOf(files, context).filter((name) => name !== STARTUP_MODULE);
  if (chunks.some((name) => relativeImports(files.get(name)!).includes(context))) {
    return { refused: `a chunk of ${context} imports it` };
  }
  if (chunks.length === 0) return { refused: `${context} loads no chunk` };
  const modules = [...chunks, context];
  const refusal = mergeRefusal(files, modules, context);
  if (refusal) return { refused: refusal };
  await mergeModules(dir, files, modules, context, options);
  return { merged: chunks };
}

/**
 * Builds what fctl ships: `dist/bundle/`, one ES module per lazily loaded part of `main.ts` (`deno bundle
 * --code-splitting`), npm packages included. The installed command (`deno task install`), the executable
 * (`deno task compile`), `deno task fctl` and the tests that run fctl as a process all run `dist/bundle/main.js`.
 *
 * Why a bundle: a cold start of the source graph spends its time resolving and loading about 300 modules of fctl's
 * and its packages' own (protobuf-es's package index alone evaluates every well-known type); the bundle loads a few
 * dozen files for a command and only the code it reaches. Each command still loads only what it imports (a chunk per
 * dynamic import), so `fctl --help` loads no npm package.
 *
 * fctl's own modules and every npm package that is ES modules are bundled ({@link BUNDLED_PACKAGES}; `yaml` and
 * MessagePack from their ES-module builds, {@link BUNDLED_ES_BUILDS}); the cloud SDKs stay imports that Deno resolves
 * through `deno.json` at run time, so the bundle runs with `--config deno.json` and the installed `node_modules`, as
 * the source does. The chunks loaded before anything runs are merged into one module (`bundle_startup.ts`), and
 * every module is rewritten so that V8 compiles its functions with it and Deno's code cache keeps them
 * (`eager_compile.ts`).
 *
 * The build is written beside the old one and renamed into place, so a reader never sees half a bundle. A stamp
 * (`dist/bundle/.inputs`) records a hash of the inputs (`main.ts`, `src/`, `proto/gen/`, `deno.json`, `deno.lock`, the
 * build's scripts);
 * `--if-stale` builds only when it differs.
 *
 * Usage: `deno run --allow-read --allow-write --allow-run scripts/bundle.ts [--if-stale] [--quiet]`
 * Exit status: 0 built or current; 1 the bundler failed (its output is shown), or a bundled package is CommonJS.
 *
 * @module
 */
import { mergeRunContext, mergeStartupChunks } from "./bundle_startup.ts";
import { eagerCompileDir } from "./eager_compile.ts";

const ROOT = new URL("../", import.meta.url);

/** The bundle's directory, relative to the repository root. */
export const BUNDLE_DIR = "dist/bundle";

/** The bundle's entry point, relative to the repository root. */
export const BUNDLE_MAIN = `${BUNDLE_DIR}/main.js`;

/** The stamp file of a build: the hash of its inputs. */
const STAMP = ".inputs";

/** The files a build reads, as paths relative to the root: sources, generated protos, config and lock. */
async function inputFiles(root: URL): Promise<string[]> {
  // The build's own scripts too: a bundle built by an older one is rebuilt.
  const files = [
    "main.ts",
    "deno.json",
    "deno.lock",
    "scripts/bundle.ts",
    "scripts/bundle_startup.ts",
    "scripts/eager_compile.ts",
    "scripts/module_graph.ts",
  ];
  for (const dir of ["src", "proto/gen"]) {
    for await (const path of walk(new URL(`${dir}/`, root), `${dir}/`)) {
      // Test code is never reached from main.ts; leaving it out keeps a test edit from rebuilding.
      if (/_test\.ts$|(^|\/)_test_[^/]*\.ts$/.test(path)) continue;
      files.push(path);
    }
  }
  return files.sort();
}

async function* walk(dir: URL, prefix: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
    else if (entry.isFile) yield `${prefix}${entry.name}`;
  }
}

/** SHA-256 over every input's path and content: what a build of `root` would be made from. */
export async function bundleInputsHash(root: URL = ROOT): Promise<string> {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const path of await inputFiles(root)) {
    const content = await Deno.readFile(new URL(path, root));
    parts.push(encoder.encode(`${path}\0${content.length}\0`), content);
  }
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The hash recorded by the build in `root`'s bundle directory, or undefined without one. */
export async function builtInputsHash(root: URL = ROOT): Promise<string | undefined> {
  try {
    return (await Deno.readTextFile(new URL(`${BUNDLE_DIR}/${STAMP}`, root))).trim();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/**
 * The npm packages bundled with fctl's code: the ones every admin command runs (protobuf-es, Connect) and the other
 * ES-module packages. The others stay npm packages that Deno loads from `node_modules` when a command needs them:
 * they are CommonJS for Deno (the cloud SDKs), and a code-split bundle of a CommonJS package exports only its
 * `default` (a named export such as the AWS SDK's clients would be undefined); and the bundler's CommonJS shim imports
 * `node:module`, which starts Deno's Node layer on every run, `--help` included.
 */
export const BUNDLED_PACKAGES: readonly string[] = [
  "@bufbuild/protobuf",
  "@connectrpc/connect",
  "@connectrpc/connect-node",
  // Also ES modules, each loaded by some commands only: sign-in (OAuth 2), package archives, graph drawings.
  "oauth4webapi",
  "modern-tar",
  "@viz-js/viz",
];

/**
 * Packages bundled from their ES-module build, which Deno's resolution does not pick, with the file (relative to the
 * root) the build maps them to. `yaml` resolves for Deno (its `node` condition) to a CommonJS build whose warnings
 * `require("process")`: loading it starts Deno's Node layer, which every command with a config file paid (about 30
 * ms of a cold `create execution`). Its `default` condition is the same library as ES modules, with `console.warn`
 * for warnings.
 */
export const BUNDLED_ES_BUILDS: Readonly<Record<string, string>> = {
  yaml: "node_modules/yaml/browser/index.js",
  // Its `main` is CommonJS too (`module` names the ES build); `src/executions/struct_value.ts` imports that build
  // by path already.
  "@msgpack/msgpack": "node_modules/@msgpack/msgpack/dist.esm/index.mjs",
};

/** `--external` arguments for every package of `deno.json`'s imports that is not bundled. */
export function externalArgs(imports: Record<string, string>): string[] {
  return Object.keys(imports)
    .filter((name) => !BUNDLED_PACKAGES.includes(name) && !(name in BUNDLED_ES_BUILDS))
    .flatMap((name) => ["--external", name, "--external", `${name}/*`]);
}

/** The import map of a build: `deno.json`'s imports, with {@link BUNDLED_ES_BUILDS} mapped to their files. */
export function buildImportMap(imports: Record<string, string>, root: URL): { imports: Record<string, string> } {
  const mapped = { ...imports };
  for (const [name, file] of Object.entries(BUNDLED_ES_BUILDS)) mapped[name] = new URL(file, root).href;
  return { imports: mapped };
}

/** How to build. */
export interface BuildOptions {
  /** Where the bundle goes, replaced whole; default `BUNDLE_DIR` in the root. Its parent must exist. */
  outDir?: string;
  /** Leave out the bundler's list of files. */
  quiet?: boolean;
}

/** Builds `root`'s bundle, replacing the old one whole. Returns the inputs' hash. */
export async function buildBundle(root: URL = ROOT, options: BuildOptions = {}): Promise<string> {
  const hash = await bundleInputsHash(root);
  const outDir = options.outDir ?? new URL(BUNDLE_DIR, root).pathname;
  const parent = outDir.replace(/\/[^/]+\/?$/, "");
  await Deno.mkdir(parent, { recursive: true });
  // Staged beside the target, on its file system, so that the final rename is one step.
  const staging = await Deno.makeTempDir({ dir: parent, prefix: ".bundle_" });
  try {
    const imports = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).imports ?? {};
    // Outside the staging directory, which becomes the bundle.
    const importMap = `${staging}.imports.json`;
    await Deno.writeTextFile(importMap, JSON.stringify(buildImportMap(imports, root)));
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        ...externalArgs(imports),
        "--quiet",
        "--config",
        new URL("deno.json", root).pathname,
        "--import-map",
        importMap,
        "--code-splitting",
        "--platform",
        "deno",
        "--format",
        "esm",
        "--outdir",
        staging,
        new URL("main.ts", root).pathname,
      ],
      cwd: root.pathname,
      stdout: options.quiet ? "piped" : "inherit",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`deno bundle failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    for await (const entry of Deno.readDir(staging)) {
      if (!entry.isFile || !entry.name.endsWith(".js")) continue;
      const text = await Deno.readTextFile(`${staging}/${entry.name}`);
      if (text.includes("__deno_internal_createRequire")) {
        throw new Error(`${entry.name}: a bundled package is CommonJS; leave it out of BUNDLED_PACKAGES`);
      }
    }
    // The dozen chunks main.js loads before anything runs, as one module, and those the run's context loads first
    // merged into it (see bundle_startup.ts).
    const merge = { config: new URL("deno.json", root).pathname };
    await mergeStartupChunks(staging, merge);
    await mergeRunContext(staging, merge);
    // Every function in parentheses, so that Deno's code cache holds their bytecode (see eager_compile.ts).
    await eagerCompileDir(staging);
    await Deno.writeTextFile(`${staging}/${STAMP}`, `${hash}\n`);
    await replaceDir(staging, outDir);
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    await Deno.remove(`${staging}.imports.json`).catch(() => {});
  }
  return hash;
}

/** Moves `from` to `to`, the old `to` out of the way first and then removed: `to` is always a whole build. */
async function replaceDir(from: string, to: string): Promise<void> {
  const old = `${to}.old_${crypto.randomUUID()}`;
  try {
    await Deno.rename(to, old);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  await Deno.rename(from, to);
  await Deno.remove(old, { recursive: true }).catch(() => {});
}

/** Copies the bundle of `root` (built) to `toDir`, replacing what is there whole: an installed copy of what ships. */
export async function copyBundle(root: URL, toDir: string): Promise<void> {
  const from = new URL(`${BUNDLE_DIR}/`, root);
  const parent = toDir.replace(/\/[^/]+\/?$/, "");
  const staging = await Deno.makeTempDir({ dir: parent, prefix: ".bundle_" });
  try {
    for await (const entry of Deno.readDir(from)) {
      if (entry.isFile) await Deno.copyFile(new URL(entry.name, from), `${staging}/${entry.name}`);
    }
    await replaceDir(staging, toDir);
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}

/** Builds unless the bundle in `root` was built from the same inputs. Returns whether it built. */
export async function ensureBundle(root: URL = ROOT, options: { quiet?: boolean } = {}): Promise<boolean> {
  if ((await builtInputsHash(root)) === (await bundleInputsHash(root))) return false;
  await buildBundle(root, options);
  return true;
}

if (import.meta.main) {
  const ifStale = Deno.args.includes("--if-stale");
  const quiet = Deno.args.includes("--quiet");
  const unknown = Deno.args.filter((arg) => arg !== "--if-stale" && arg !== "--quiet");
  if (unknown.length > 0) {
    console.error(`unknown argument ${JSON.stringify(unknown[0])}: expected --if-stale or --quiet`);
    Deno.exit(2);
  }
  try {
    const built = ifStale ? await ensureBundle(ROOT, { quiet }) : (await buildBundle(ROOT, { quiet }), true);
    if (!quiet) console.error(built ? `built ${BUNDLE_MAIN}` : `${BUNDLE_MAIN} is current`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    Deno.exit(1);
  }
}

/**
 * `deno task compile`: builds the `fctl` executable with `deno compile` for every release target, with the
 * declared permission set (`src/permissions.ts`) and every module fctl loads on demand. What it compiles is what
 * the tests run: the bundle of `main.ts` (`scripts/bundle.ts`, built first when the tree changed since).
 *
 * fctl's commands load their modules lazily (`"unstable": ["lazy-dynamic-imports"]`), and `deno compile` embeds
 * only the modules a static import reaches, so every module reachable through a dynamic import is passed with
 * `--include`. They are found with `deno info`, which resolves literal specifiers only: a computed one is
 * refused here (and by a test) because it would be missing from the binary.
 *
 * `deno compile` also embeds the whole `node_modules` directory, test-only packages included. Only the npm packages
 * the same graph reaches, with everything they depend on, are kept: the rest is passed with `--exclude` (see
 * `scripts/runtime_packages.ts`).
 *
 * Usage: `deno task compile [--target T]... [--out DIR] [--run=PROGRAM,...] [--unchecked-base]`
 * - `--target`: one of {@link TARGETS} (repeatable; default: all of them).
 * - `--out`: the output directory (default `dist/`); the binaries are `fctl-<target>` (`.exe` on Windows).
 * - `--run=a,b`: the only programs the binary may run (`--run=` for none); default any (see `src/permissions.ts`).
 * - `--unchecked-base`: build on whatever `DENORT_BIN` names, unchecked. The output embeds the same inputs but need
 *   not run; `scripts/compile_test.ts` builds on the `deno` executable this way to read what a build embeds
 *   without Deno's runtime base. Never for a binary anyone runs.
 *
 * `DENORT_BIN` (read by `deno compile`) may name a local `denort` to build offline. `deno compile` takes any file
 * it names, for every target, so it is checked first (`scripts/runtime_base.ts`): an executable for the target's
 * platform that is denort, not the `deno` CLI or another program; with it, build that one target.
 *
 * Exit status: 0 built; 1 `deno compile` failed (its own output is shown) or a computed dynamic import was
 * found; 2 usage error, or `DENORT_BIN` is no runtime base for the targets (one line, before anything is built);
 * 3 Deno's runtime base (`denort`) for a target cannot be downloaded, which `deno compile` needs once per target
 * and version: one line says so.
 *
 * @module
 */
import { permissionFlags, type PermissionScope } from "../src/permissions.ts";
import { type ModuleGraph, moduleGraph } from "./module_graph.ts";
import { runtimePackages } from "./runtime_packages.ts";
import { runtimeBaseProblem } from "./runtime_base.ts";
import { BUNDLE_MAIN, ensureBundle } from "./bundle.ts";

/** The release targets (Deno's names). */
export const TARGETS: readonly string[] = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/** Exit status when the runtime base cannot be downloaded. */
export const EXIT_NO_RUNTIME_BASE = 3;

const ROOT = new URL("../", import.meta.url);
const MAIN = new URL(BUNDLE_MAIN, ROOT);

/** What fctl loads on demand, as `deno info` resolves it. */
export interface LazyModules {
  /** Project files (relative to the repository root) reachable only through dynamic imports. */
  includes: string[];
  /** Dynamic imports `deno info` could not resolve to a module (each `file: import(specifier)`). */
  unresolved: string[];
}

/**
 * The module graph of what ships, the bundle of `main.ts` (`scripts/bundle.ts`, built first if the tree changed
 * since): every module it imports, statically or through a literal dynamic import.
 */
export async function mainGraph(): Promise<ModuleGraph> {
  await ensureBundle(ROOT, { quiet: true });
  return moduleGraph(MAIN, ROOT);
}

/** The modules the bundle may load that its static imports do not reach: its chunks of lazily loaded code. */
export async function lazyModules(graph?: ModuleGraph): Promise<LazyModules> {
  const info = graph ?? await mainGraph();
  const unresolved: string[] = [];
  const loadedAtStart = info.reachable();
  const includes = [...info.reachable({ dynamic: true, onUnresolved: (where) => unresolved.push(where) })]
    .filter((specifier) => specifier.startsWith(ROOT.href) && !loadedAtStart.has(specifier))
    .filter((specifier) => !specifier.slice(ROOT.href.length).startsWith("node_modules/"))
    .map((specifier) => decodeURIComponent(specifier.slice(ROOT.href.length)))
    .sort();
  return { includes, unresolved };
}

/**
 * The `node_modules` paths to leave out of the binary: every installed package the graph's npm modules do not
 * reach through their dependencies (see `scripts/runtime_packages.ts`).
 */
export async function unusedPackagePaths(graph?: ModuleGraph): Promise<string[]> {
  const info = graph ?? await mainGraph();
  const files = info.all
    .filter((specifier) => specifier.startsWith("file:"))
    .map((specifier) => decodeURIComponent(new URL(specifier).pathname));
  return runtimePackages(decodeURIComponent(ROOT.pathname), files).excludes;
}

/** The binary's file name for `target`. */
export function outputName(target: string): string {
  return `fctl-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** The `deno compile` arguments for one target (run in the repository root). */
export function compileArgs(
  options:
    & { target: string; output: string; includes: readonly string[]; excludes: readonly string[] }
    & PermissionScope,
): string[] {
  return [
    "compile",
    "--quiet",
    ...permissionFlags(options),
    // A permission the set lacks is an error, never a question on the user's terminal.
    "--no-prompt",
    "--target",
    options.target,
    "--output",
    options.output,
    ...options.includes.flatMap((path) => ["--include", path]),
    ...options.excludes.flatMap((path) => ["--exclude", path]),
    BUNDLE_MAIN,
  ];
}

/**
 * Whether `deno compile` failed only because the runtime base could not be downloaded. That step comes after
 * module resolution and type checking (so those passed) but before the modules are embedded: the embedding is
 * proven by a build with `DENORT_BIN` (`scripts/compile_test.ts`).
 */
export function isRuntimeBaseUnavailable(stderr: string): boolean {
  return /Setting up base binary/.test(stderr) && /error sending request for url/.test(stderr);
}

interface Options extends PermissionScope {
  targets: string[];
  out: string;
  /** `--unchecked-base`: DENORT_BIN is used as it is. */
  uncheckedBase: boolean;
}

function parseArgs(args: readonly string[]): Options | string {
  const targets: string[] = [];
  let out = "dist";
  let run: string[] | undefined;
  let uncheckedBase = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    const value = () => inline ?? args[++i];
    if (flag === "--target") {
      const target = value();
      if (!TARGETS.includes(target)) return `unknown target "${target}" (one of ${TARGETS.join(", ")})`;
      targets.push(target);
    } else if (flag === "--out") {
      const dir = value();
      if (!dir) return "--out needs a directory";
      out = dir;
    } else if (flag === "--run" && inline !== undefined) {
      run = inline.split(",").filter((program) => program !== "");
    } else if (arg === "--unchecked-base") {
      uncheckedBase = true;
    } else {
      return `unknown argument "${arg}" (usage: --target T... --out DIR --run=PROGRAM,... --unchecked-base)`;
    }
  }
  return { targets: targets.length > 0 ? targets : [...TARGETS], out, run, uncheckedBase };
}

async function main(args: readonly string[]): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === "string") {
    console.error(`compile: ${options}`);
    return 2;
  }
  const base = Deno.env.get("DENORT_BIN");
  if (options.uncheckedBase && base === undefined) {
    console.error("compile: --unchecked-base applies to DENORT_BIN, which is not set");
    return 2;
  }
  const baseProblem = base === undefined || options.uncheckedBase
    ? undefined
    : await runtimeBaseProblem(base, options.targets);
  if (baseProblem !== undefined) {
    console.error(`compile: ${baseProblem}`);
    return 2;
  }
  const graph = await mainGraph();
  const { includes, unresolved } = await lazyModules(graph);
  if (unresolved.length > 0) {
    console.error(
      `compile: dynamic imports with computed specifiers would be missing from the binary: ${unresolved.join("; ")}`,
    );
    return 1;
  }
  const excludes = await unusedPackagePaths(graph);
  for (const target of options.targets) {
    const output = `${options.out.replace(/\/+$/, "")}/${outputName(target)}`;
    const child = new Deno.Command(Deno.execPath(), {
      args: compileArgs({ target, output, includes, excludes, run: options.run }),
      cwd: ROOT,
      stdout: "inherit",
      stderr: "piped",
    }).spawn();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    if (status.success) {
      console.log(`compile: ${output}${options.uncheckedBase ? " (on an unchecked DENORT_BIN: it need not run)" : ""}`);
      continue;
    }
    if (isRuntimeBaseUnavailable(stderr)) {
      console.error(
        `compile: cannot download Deno's runtime base (denort) for ${target}; every compile input checked out (set DENORT_BIN to a local denort to build offline)`,
      );
      return EXIT_NO_RUNTIME_BASE;
    }
    await Deno.stderr.write(new TextEncoder().encode(stderr));
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));

/**
 * Shared helpers of the CLI-level tests: an in-memory IO and a runner for the real command graph.
 *
 * @module
 */
import { equal } from "node:assert/strict";
import { runCli } from "../src/cli/run.ts";
import type { Io } from "../src/output/io.ts";
import { readBoundedTextFile } from "../src/fs/read_bounded.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { buildBundle, builtInputsHash, BUNDLE_MAIN, bundleInputsHash } from "../scripts/bundle.ts";

/** What a command run printed and returned. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runFctl}. */
export interface RunOptions {
  env?: Record<string, string>;
  stdoutIsTerminal?: boolean;
  /** Whether stderr is a terminal (progress and hints are drawn only then); default false. */
  stderrIsTerminal?: boolean;
  columns?: number;
  signal?: AbortSignal;
}

/** An {@link Io} that records what is written. */
export function captureIo(options: RunOptions = {}): Io & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: (text) => void (err += text) },
    stdoutIsTerminal: options.stdoutIsTerminal ?? false,
    stderrIsTerminal: options.stderrIsTerminal ?? false,
    stdinIsTerminal: false,
    columns: options.columns,
    // HOME points nowhere so a developer's own ~/.flyte/config.yaml never leaks into tests.
    env: { HOME: "/nonexistent-fctl-test-home", ...options.env },
    readTextFile: (path) => readBoundedTextFile(path),
    out: () => out,
    err: () => err,
  };
}

/** Runs `fctl <args>` in-process through the real command graph. */
export async function runFctl(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const io = captureIo(options);
  const code = await runCli(args, io, options.signal);
  return { code, stdout: io.out(), stderr: io.err() };
}

/** Repository-relative path of a shared Flyte fixture. */
export function fixture(name: string): string {
  return new URL(`../../shared/fixtures/flytectl/${name}`, import.meta.url).pathname;
}

/** The HOME of subprocess runs: it exists only for Deno's cache, so no developer's config is read. */
export const SUBPROCESS_HOME = "/nonexistent-fctl-test-home";

let bundledMain: Promise<string> | undefined;

/**
 * The program fresh-process tests run: what ships, the bundle of `main.ts` (`scripts/bundle.ts`). `deno task test`
 * builds `dist/bundle/` first; when it is not built from the tree as it is now (a test run on its own after an edit),
 * this process builds a private copy in a temporary directory of `dist/`, removed when it exits, so that tests running side by
 * side never replace a bundle another one is loading.
 */
export function fctlMain(): Promise<string> {
  return bundledMain ??= (async () => {
    const root = new URL("../", import.meta.url);
    if ((await builtInputsHash(root)) === (await bundleInputsHash(root))) return new URL(BUNDLE_MAIN, root).pathname;
    // Inside the clone, as dist/bundle is: Deno resolves the bundle's npm imports through deno.json only for modules
    // of its workspace (a bundle under /tmp fails with `Import "@msgpack/msgpack" not a dependency`).
    const dist = new URL("dist/", root).pathname;
    await Deno.mkdir(dist, { recursive: true });
    const dir = await Deno.makeTempDir({ dir: dist, prefix: ".test_bundle_" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    await buildBundle(root, { outDir: `${dir}/bundle`, quiet: true });
    return `${dir}/bundle/main.js`;
  })();
}

/** The arguments of `deno` that run `fctl <args>` as a fresh process of the bundle under the declared permissions. */
export async function fctlProcessArgs(args: string[]): Promise<string[]> {
  return ["run", "--quiet", ...FCTL_RUN_FLAGS, await fctlMain(), ...args];
}

/**
 * `fctl <args>` as a fresh process of the bundle ({@link fctlMain}) under the declared permissions (never -A), with
 * `env` as its whole environment besides HOME and NO_COLOR, no stdin, stdout and stderr piped: to spawn or run.
 */
export async function fctlProcess(args: string[], env: Record<string, string> = {}): Promise<Deno.Command> {
  return new Deno.Command(Deno.execPath(), {
    args: await fctlProcessArgs(args),
    env: { HOME: SUBPROCESS_HOME, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs {@link fctlProcess} to its end. */
export async function runFctlProcess(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const out = await (await fctlProcess(args, env)).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/**
 * The one `Error:` line of a run's stderr (a debug log around it aside); fails, showing `context` (by default the
 * start of stderr), unless there is exactly one.
 */
export function errorLine(result: { stderr: string }, context: string = result.stderr.slice(0, 4000)): string {
  const lines = result.stderr.split("\n").filter((line) => line.startsWith("Error: "));
  equal(lines.length, 1, context);
  return lines[0];
}

/**
 * `deno task install`: puts an `fctl` command into `<root>/bin` that runs what ships of this clone (the bundle of
 * its `main.ts`, `scripts/bundle.ts`, copied to `<root>/lib/fctl/bundle`) from any directory, with exactly fctl's declared permissions (`src/permissions.ts`), and needs no `deno` on `PATH`.
 *
 * `<root>` is `--root DIR`, else `$DENO_INSTALL_ROOT`, else `$HOME/.deno` (`%USERPROFILE%\.deno` on Windows), as for
 * `deno install -g`. The command is a shell script (`fctl.cmd` on Windows, `scripts/install_shim.ts`) that runs the
 * Deno executable running this script, placed at `<root>/lib/fctl/deno-<version>`: a hard link where `<root>` is on
 * the same filesystem (no extra space), else a copy. Not the running executable's own path: run as `npx deno`, that
 * is in npm's cache, which npm may prune or replace; a link or copy stays while the cache goes. The clone stays
 * where it is: the command runs the bundle with its `deno.json` and `node_modules`. The bundle is a copy, so the
 * command runs what was installed until the next install, whatever the clone's working tree becomes.
 *
 * Each file is written beside its place and renamed into it, so no half-written command or Deno is ever there. An
 * existing `<root>/bin/fctl` not written by this script (its mark, `SHIM_MARK`) is replaced only with `--force`.
 * `--uninstall` removes the command and `<root>/lib/fctl`.
 *
 * Usage: `deno task install [--root DIR] [--force] [--uninstall]`
 *
 * Exit status: 0 installed (or removed); 1 the install failed, or `<root>/bin/fctl` exists and is not fctl's
 * (without `--force`), as `fctl config init` refuses an existing file; 2 usage error (nothing was attempted).
 *
 * @module
 */
import { basename, delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { permissionFlags } from "../src/permissions.ts";
import { posixShim, SHIM_MARK, type ShimTarget, windowsShim } from "./install_shim.ts";
import { copyBundle, ensureBundle } from "./bundle.ts";

const CLONE = fileURLToPath(new URL("../", import.meta.url)).replace(/[\\/]$/, "");
const WINDOWS = Deno.build.os === "windows";
const USAGE = "usage: deno task install [--root DIR] [--force] [--uninstall]";

interface Options {
  root?: string;
  force: boolean;
  uninstall: boolean;
}

function parseArgs(args: readonly string[]): Options | string {
  const options: Options = { force: false, uninstall: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--force" || arg === "-f") options.force = true;
    else if (arg === "--uninstall") options.uninstall = true;
    else if (arg === "--root" || arg.startsWith("--root=")) {
      const dir = arg === "--root" ? args[++i] : arg.slice("--root=".length);
      if (!dir) return `--root needs a directory (${USAGE})`;
      options.root = dir;
    } else return `unknown argument ${JSON.stringify(arg)} (${USAGE})`;
  }
  return options;
}

/** The install root, absolute; a string saying why there is none. */
function installRoot(options: Options): { root: string } | string {
  const home = Deno.env.get(WINDOWS ? "USERPROFILE" : "HOME");
  const chosen = options.root ?? (Deno.env.get("DENO_INSTALL_ROOT") || (home ? join(home, ".deno") : undefined));
  if (chosen === undefined) {
    return `no install root: pass --root DIR, or set DENO_INSTALL_ROOT or ${WINDOWS ? "USERPROFILE" : "HOME"}`;
  }
  // A relative root is the user's: relative to where they started `deno task` (INIT_CWD), not to the clone.
  return { root: isAbsolute(chosen) ? chosen : resolve(Deno.env.get("INIT_CWD") ?? Deno.cwd(), chosen) };
}

/** Whether `path` is a command file this script wrote (undefined: there is nothing at `path`). */
async function isOurs(path: string): Promise<boolean | undefined> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) return false;
    // The mark is in the first lines; a large file is not a command file of ours.
    return info.size < 64 * 1024 && (await Deno.readTextFile(path)).includes(SHIM_MARK);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${crypto.randomUUID()}.tmp`);
}

/**
 * Puts the executable `source` (the running Deno) at `path`: a hard link, or a copy where linking fails (another
 * filesystem, a file the system does not let us link). A file already there of the same size is kept: its name
 * carries the Deno version, and on Windows it may be running.
 */
export async function placeExecutable(
  source: string,
  path: string,
  link: (from: string, to: string) => Promise<void> = Deno.link,
): Promise<"linked" | "copied" | "kept"> {
  const existing = await Deno.stat(path).catch(() => undefined);
  if (existing?.isFile && existing.size === (await Deno.stat(source)).size) return "kept";
  const temp = tempBeside(path);
  try {
    let how: "linked" | "copied" = "linked";
    try {
      await link(source, temp);
    } catch {
      how = "copied";
      await Deno.copyFile(source, temp);
      if (!WINDOWS) await Deno.chmod(temp, 0o755);
    }
    await Deno.rename(temp, path);
    return how;
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
}

/** Writes the command file whole or not at all; `replace`: a file at `path` may be replaced. */
async function writeShim(path: string, text: string, replace: boolean): Promise<void> {
  const temp = tempBeside(path);
  try {
    await Deno.writeTextFile(temp, text, { createNew: true, mode: 0o755 });
    if (!WINDOWS) await Deno.chmod(temp, 0o755); // whatever the umask: the user's shell runs it
    if (replace) {
      await Deno.rename(temp, path);
    } else {
      // A hard link fails if a file appeared at `path` meanwhile, where a rename would replace it.
      await Deno.link(temp, path);
      await Deno.remove(temp);
    }
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
}

/** Older Deno copies of earlier installs (best effort: on Windows one may be running). */
async function removeOtherDenos(dir: string, keep: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name !== keep && entry.name.startsWith("deno-")) await Deno.remove(join(dir, entry.name)).catch(() => {});
  }
}

function onPath(dir: string): boolean {
  const same = (a: string) => {
    const path = resolve(a).replace(/[\\/]+$/, "");
    return WINDOWS ? path.toLowerCase() === dir.toLowerCase() : path === dir;
  };
  return (Deno.env.get("PATH") ?? "").split(delimiter).some((entry) => entry !== "" && same(entry));
}

function pathAdvice(bin: string): string {
  return WINDOWS
    ? `install: ${bin} is not on PATH; add it to your user PATH (Settings, Environment Variables)`
    : `install: ${bin} is not on PATH; add it, e.g. in ~/.profile: export PATH="${bin}:$PATH"`;
}

async function install(root: string, force: boolean): Promise<number> {
  const bin = join(root, "bin");
  const shim = join(bin, WINDOWS ? "fctl.cmd" : "fctl");
  const ours = await isOurs(shim);
  if (ours === false && !force) {
    console.error(
      `install: ${shim} already exists and is not an fctl command of deno task install: add --force to replace it`,
    );
    return 1;
  }
  const lib = join(root, "lib", "fctl");
  const denoName = `deno-${Deno.version.deno}${WINDOWS ? ".exe" : ""}`;
  const deno = join(lib, denoName);
  await Deno.mkdir(bin, { recursive: true });
  await Deno.mkdir(lib, { recursive: true });
  const placed = await placeExecutable(Deno.execPath(), deno);
  const clone = new URL("../", import.meta.url);
  await ensureBundle(clone, { quiet: true });
  const bundle = join(lib, "bundle");
  await copyBundle(clone, bundle);
  const target: ShimTarget = {
    deno,
    config: join(CLONE, "deno.json"),
    main: join(bundle, "main.js"),
    permissions: permissionFlags(),
  };
  await writeShim(shim, WINDOWS ? windowsShim(target, CLONE) : posixShim(target, CLONE), ours !== undefined);
  await removeOtherDenos(lib, denoName);
  const how =
    { linked: "linked to the running deno", copied: "a copy of the running deno", kept: "already there" }[placed];
  console.log(
    `install: ${shim} runs fctl from ${CLONE} (keep the clone there) with Deno ${Deno.version.deno} at ${deno} (${how})`,
  );
  if (!onPath(bin)) console.log(pathAdvice(bin));
  return 0;
}

async function uninstall(root: string, force: boolean): Promise<number> {
  const shim = join(root, "bin", WINDOWS ? "fctl.cmd" : "fctl");
  const lib = join(root, "lib", "fctl");
  const ours = await isOurs(shim);
  if (ours === false && !force) {
    console.error(`install: ${shim} is not an fctl command of deno task install: add --force to remove it`);
    return 1;
  }
  const removed: string[] = [];
  if (ours !== undefined) {
    await Deno.remove(shim);
    removed.push(shim);
  }
  try {
    await Deno.remove(lib, { recursive: true });
    removed.push(lib);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  console.log(removed.length > 0 ? `install: removed ${removed.join(" and ")}` : `install: no fctl in ${root}`);
  return 0;
}

async function main(args: readonly string[]): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === "string") {
    console.error(`install: ${options}`);
    return 2;
  }
  const found = installRoot(options);
  if (typeof found === "string") {
    console.error(`install: ${found}`);
    return 2;
  }
  try {
    return options.uninstall ? await uninstall(found.root, options.force) : await install(found.root, options.force);
  } catch (err) {
    const verb = options.uninstall ? "uninstall from" : "install into";
    console.error(`install: cannot ${verb} ${found.root}: ${err instanceof Error ? err.message : err}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));

/**
 * The command file `deno task install` writes (`scripts/install.ts`): a POSIX shell script `fctl`, or `fctl.cmd` on
 * Windows, that runs fctl (the installed copy of the clone's bundle) with a Deno executable of its own under exactly fctl's declared
 * permissions (`src/permissions.ts`), from whatever directory it is started in.
 *
 * @module
 */

/** The text that marks a command file as written by `deno task install`: only such a file is replaced unasked. */
export const SHIM_MARK = "fctl: written by deno task install";

/** What the command runs. */
export interface ShimTarget {
  /** The Deno executable (the install's own copy or link). */
  deno: string;
  /** The clone's `deno.json` (its import map, `node_modules` and unstable features). */
  config: string;
  /** The program: the installed copy of the bundle's `main.js` (`scripts/bundle.ts`). */
  main: string;
  /** Deno's permission flags: `permissionFlags()`, nothing else. */
  permissions: readonly string[];
}

/**
 * The arguments the command passes to Deno before the user's. `--quiet`: Deno's own diagnostics are not fctl's
 * output (as `deno install -g` does); `--no-prompt`: a permission outside the set is an error, as in the compiled
 * binary, never a question.
 */
export function denoArgs(target: ShimTarget): string[] {
  return ["run", "--quiet", "--no-prompt", "--config", target.config, ...target.permissions, target.main];
}

/**
 * The comment lines both command files carry (paths JSON-quoted, so that no name can end a comment). The update
 * check is off because this Deno is the install's fixed copy: a notice to upgrade would not apply to it, and the
 * check is a call to Deno's release host that fctl's permissions do not govern.
 */
function about(target: ShimTarget, clone: string): string[] {
  return [
    `${SHIM_MARK}: runs fctl from the clone ${JSON.stringify(clone)} (which must stay there)`,
    `with Deno ${JSON.stringify(target.deno)}, under fctl's declared permissions (src/permissions.ts).`,
    "Run `deno task install` in the clone again to update this file, `deno task install --uninstall` to remove it.",
  ];
}

/** A word for a POSIX shell: as it is when it needs no quoting, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,=:+@%-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The POSIX shell command file (`<root>/bin/fctl`). */
export function posixShim(target: ShimTarget, clone: string): string {
  return [
    "#!/bin/sh",
    ...about(target, clone).map((line) => `# ${line}`),
    "DENO_NO_UPDATE_CHECK=1",
    "export DENO_NO_UPDATE_CHECK",
    `exec ${[target.deno, ...denoArgs(target)].map(shellQuote).join(" ")} "$@"`,
    "",
  ].join("\n");
}

/** A word for a `.cmd` file: double-quoted when it holds anything but plain characters; `%` doubled. */
export function cmdQuote(word: string): string {
  const escaped = word.replaceAll("%", "%%");
  return /^[A-Za-z0-9_\\\/.,=:+@-]+$/.test(word) ? escaped : `"${escaped}"`;
}

/** The Windows command file (`<root>\bin\fctl.cmd`), with CRLF line ends. */
export function windowsShim(target: ShimTarget, clone: string): string {
  return [
    "@echo off",
    ...about(target, clone).map((line) => `rem ${line.replaceAll("%", "%%")}`),
    "setlocal",
    "set DENO_NO_UPDATE_CHECK=1",
    `${[target.deno, ...denoArgs(target)].map(cmdQuote).join(" ")} %*`,
    "exit /b %ERRORLEVEL%",
    "",
  ].join("\r\n");
}

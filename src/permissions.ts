/**
 * The permission set fctl runs with, declared once. `scripts/compile.ts` (the binary), `scripts/install.ts` (the
 * command `deno task install` writes), the `deno.json` tasks (checked by a test), the subprocess CLI tests and the
 * README all use it, so a missing permission fails a test rather than a user. Never `-A`.
 *
 * Each permission and why it cannot be narrower in general:
 * - net: the admin endpoint, signed upload URLs, proxies and release downloads are hosts the user configures;
 *   Pkce listens on the loopback port of the admin's redirect URI.
 * - read: config files, `.pb` files, archives and CA files are paths the user chooses.
 * - write: `--execFile` specs are paths the user chooses; archive extraction writes a private dir under
 *   `TMPDIR`; the token cache lives under `$HOME/.flyte` (where it cannot be written, tokens stay in memory).
 * - env: the config file location, `FCTL_*` options, proxies, `TMPDIR`, `NO_COLOR`, and variables the user names
 *   (`admin.clientSecretEnvVar`).
 * - run: `admin.command` (ExternalCommand auth) and `admin.proxyCommand` run a program the user configures, and
 *   Pkce opens a browser (`xdg-open`, `open` or `rundll32`). A build for one known deployment can narrow it with
 *   {@link permissionFlags}' `run` (e.g. only the token helper), or refuse it entirely with `run: []`.
 * - sys, `osRelease` only: the Azure SDK's pipeline (`@azure/core-rest-pipeline`, userAgentPlatform.js) puts
 *   `os.release()` into every request's User-Agent, computed when a client is built; no option turns it off,
 *   and without it every stow azure call fails. Nothing else needs sys: Connect's HTTP/2 and TLS, as Deno
 *   implements them, read no system information (the subprocess tests of TLS and every auth flow show it).
 * - ffi: none. import: denied (`--deny-import`): fctl loads no code from the network; without it Deno would
 *   allow imports from a few well-known hosts.
 *
 * @module
 */

/** How a build narrows the permission set. */
export interface PermissionScope {
  /**
   * The only programs fctl may run (`--allow-run=a,b`); `[]` allows none (`--deny-run`): ExternalCommand,
   * `admin.proxyCommand` and opening a browser then fail with Deno's permission error. Omitted: any program.
   */
  run?: readonly string[];
}

/** Deno permission flags of the fctl executable, narrowed by `scope`. */
export function permissionFlags(scope: PermissionScope = {}): string[] {
  const run = scope.run === undefined
    ? "--allow-run"
    : scope.run.length === 0
    ? "--deny-run"
    : `--allow-run=${scope.run.join(",")}`;
  return ["--allow-net", "--allow-read", "--allow-write", "--allow-env", run, "--allow-sys=osRelease", "--deny-import"];
}

/** Deno permission flags of the fctl executable (any program may be run: see the module doc). */
export const FCTL_PERMISSIONS: readonly string[] = permissionFlags();

/**
 * Everything `deno run` needs besides the script: the permissions (fctl runs with V8's default flags). The
 * compiled binary is built with exactly these (`scripts/compile.ts`).
 */
export const FCTL_RUN_FLAGS: readonly string[] = [...FCTL_PERMISSIONS];

/**
 * The permission set fctl runs with, declared once. The compile script, the `deno.json`
 * tasks (checked by a test) and the subprocess CLI tests all use it, so a missing permission
 * fails a test rather than a user. Never `-A`.
 *
 * - net: the admin endpoint, signed upload URLs and release downloads are user-configured hosts; Pkce listens on
 *   the loopback port of the admin's redirect URI.
 * - read: config files, `.pb` files, archives and CA files chosen by the user.
 * - write: exec spec files chosen by the user and the private temp dir of archive extraction.
 * - env: the config file location, `FCTL_*` options and `NO_COLOR`.
 * - run: `admin.command`, the program ExternalCommand auth runs for a token (chosen by the user), and Pkce's
 *   browser opener (`xdg-open`, `open` or `rundll32`).
 * - sys, `osRelease` only: the Azure SDK's pipeline (`@azure/core-rest-pipeline`, userAgentPlatform.js) puts
 *   `os.release()` into every request's User-Agent, computed when a client is built; no option turns it off,
 *   and without the permission every stow azure call fails.
 *
 * @module
 */

/** Deno permission flags of the fctl executable. */
export const FCTL_PERMISSIONS: readonly string[] = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys=osRelease",
];

/** Everything `deno run` needs besides the script: the permissions (fctl runs with V8's default flags). */
export const FCTL_RUN_FLAGS: readonly string[] = [...FCTL_PERMISSIONS];

/**
 * The permission set fctl runs with, declared once. The compile script, the `deno.json`
 * tasks (checked by a test) and the subprocess CLI tests all use it, so a missing permission
 * fails a test rather than a user. Never `-A`.
 *
 * - net: the admin endpoint, signed upload URLs and release downloads are user-configured hosts.
 * - read: config files, `.pb` files, archives and CA files chosen by the user.
 * - write: exec spec files chosen by the user and the private temp dir of archive extraction.
 * - env: the config file location, `FCTL_*` options and `NO_COLOR`.
 *
 * @module
 */

/** Deno permission flags of the fctl executable. */
export const FCTL_PERMISSIONS: readonly string[] = ["--allow-net", "--allow-read", "--allow-write", "--allow-env"];

/**
 * V8 flags of the fctl executable.
 *
 * - `--max-semi-space-size=16`: a 16 MB young generation. A registration allocates a few MB, so it is
 *   collected a few times instead of a few dozen, and what is still live (the decoded package, calls
 *   in flight) is copied that much less: about 0.25x more concurrency speed-up in
 *   scripts/bench_register.ts than with 2 MB.
 * - `--expose-gc`: lets code that streams a large file ask for a young-generation collection every few
 *   MB (src/streamed_memory.ts), so the dead chunks a 16 MB young generation would otherwise hold do
 *   not add up: a package with a 300 MB source peaks at about 96 MB RSS instead of about 152 MB, and
 *   registers faster than with 2 MB (scripts/bench_register_memory.ts).
 */
export const FCTL_V8_FLAGS: readonly string[] = ["--v8-flags=--max-semi-space-size=16,--expose-gc"];

/** Everything `deno run` needs besides the script: permissions and V8 flags. */
export const FCTL_RUN_FLAGS: readonly string[] = [...FCTL_PERMISSIONS, ...FCTL_V8_FLAGS];

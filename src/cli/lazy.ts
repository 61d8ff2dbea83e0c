/**
 * Lazy loading of command implementations.
 *
 * Deno resolves and parses every statically analyzable `import("./x.ts")` when the program
 * starts, even if it never runs, which cost `fctl --help` ~200 ms of parsing the RPC stack and
 * generated protos. A specifier computed at run time is loaded only when it is imported.
 * `deno compile` must be given these modules with `--include`.
 *
 * @module
 */

/** Modules loaded on demand, relative to this directory. */
export const LAZY_MODULES = {
  program: "./program.ts",
  getTask: "./get_task_action.ts",
  registerFiles: "./register_files_action.ts",
  registerExamples: "./register_examples_action.ts",
} as const;

/** Imports a lazily loaded command module. */
export function loadLazy<T>(name: keyof typeof LAZY_MODULES): Promise<T> {
  return import(new URL(LAZY_MODULES[name], import.meta.url).href);
}

/**
 * Which npm packages fctl can load at run time, and which `node_modules` paths a compile must leave out.
 *
 * `deno compile` embeds the whole `node_modules` directory, which also holds the test-only packages (azurite,
 * s3rver, fast-check, @types/node) and the build-only ones (`@flyteorg/flyteidl`). With `"nodeModulesDir":
 * "manual"`, `deno install` lays packages out as `node_modules/.deno/<name>@<version>/node_modules/<name>`, beside
 * links to each declared dependency (`node_modules/.deno/<name>@<version>/node_modules/<dep>` pointing at the
 * dependency's own directory). The packages fctl's module graph imports are the roots; everything their links reach
 * is kept, because an SDK may `require()` any dependency at run time (the AWS SDK's credential providers, Google's
 * auth, Azure's core) though no static import shows it. Everything else is excluded, with every link into it:
 * `deno compile` follows a link and would embed its target again.
 *
 * Packages of the `@types` scope are excluded even where a run-time package declares them: they hold only
 * declarations (`.d.ts`), which nothing loads at run time.
 *
 * @module
 */

/** The packages under a `node_modules` directory, split by whether fctl can load them at run time. */
export interface RuntimePackages {
  /** Package directories in `node_modules/.deno` (`yaml@2.9.1`, `@aws-sdk+client-s3@3.1169.0`) that are kept. */
  kept: string[];
  /** Package directories in `node_modules/.deno` that nothing fctl runs can load. */
  unused: string[];
  /** Paths relative to the repository root for `deno compile --exclude`: the unused packages and every link into them. */
  excludes: string[];
}

const TYPES_ONLY = /^@types\+/;

/**
 * Splits the packages installed under `root`'s `node_modules` into those the given modules can reach and the rest.
 * `modules` are the absolute file paths of the modules in fctl's graph (static and dynamic imports alike); the
 * ones inside `node_modules` name the root packages.
 */
export function runtimePackages(root: string, modules: Iterable<string>): RuntimePackages {
  // Real paths throughout, so that a root reached through a link (macOS's /tmp) compares equal.
  const base = Deno.realPathSync(root);
  const nodeModules = `${base}/node_modules`;
  const store = `${nodeModules}/.deno/`;
  const packageOf = (path: string): string | undefined => {
    const real = Deno.realPathSync(path);
    return real.startsWith(store) ? real.slice(store.length).split("/")[0] : undefined;
  };
  const installed = [...Deno.readDirSync(store)]
    .filter((entry) => entry.isDirectory && entry.name !== "node_modules")
    .map((entry) => entry.name);

  const roots = new Set<string>();
  for (const module of modules) {
    const name = module.startsWith(`${nodeModules}/`) ? packageOf(module) : undefined;
    if (name) roots.add(name);
  }
  if (roots.size === 0) throw new Error(`no module of the graph is in ${nodeModules} (run deno install)`);

  const kept = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (kept.has(name) || TYPES_ONLY.test(name)) continue;
    kept.add(name);
    for (const link of links(`${store}${name}/node_modules`)) {
      const target = packageOf(link);
      if (target === undefined) throw new Error(`${link} points outside ${store}`);
      pending.push(target);
    }
  }

  const unused = installed.filter((name) => !kept.has(name)).sort();
  const excludedLinks = [
    ...links(nodeModules, [".deno"]),
    ...links(`${store}node_modules`),
    ...[...kept].flatMap((name) => links(`${store}${name}/node_modules`)),
  ].filter((link) => {
    let target: string | undefined;
    try {
      target = packageOf(link);
    } catch {
      return true; // A dangling link: nothing to embed behind it.
    }
    return target !== undefined && !kept.has(target);
  });
  const relative = (path: string) => path.slice(base.length + 1);
  return {
    kept: [...kept].sort(),
    unused,
    excludes: [...unused.map((name) => `${store}${name}`), ...excludedLinks].map(relative).sort(),
  };
}

/**
 * The links in a `node_modules` directory: its entries that are symbolic links, also inside `@scope` and `.bin`
 * directories; real directories (a package's own files) are not entered. `skip` names entries to pass over.
 */
function links(dir: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return found;
    throw error;
  }
  for (const entry of entries) {
    if (skip.includes(entry.name)) continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isSymlink) found.push(path);
    else if (entry.isDirectory && (entry.name.startsWith("@") || entry.name === ".bin")) {
      for (const inner of Deno.readDirSync(path)) if (inner.isSymlink) found.push(`${path}/${inner.name}`);
    }
  }
  return found;
}

/**
 * The module graph of an entry point as `deno info --json` resolves it: for the compile script (which modules
 * only dynamic imports reach, which npm packages fctl can load) and for tests that pin what a command loads
 * before it runs (start-up cost) and what it loads only on demand; and the import cycles of a graph (the
 * architecture test's, and the bundle's, whose modules in a cycle keep their declarations: `eager_compile.ts`).
 *
 * @module
 */

/** One module of the graph, as `deno info --json` lists it. */
export interface ModuleInfo {
  specifier: string;
  dependencies?: { specifier: string; isDynamic?: boolean; code?: { specifier: string } }[];
}

/** An entry point's modules. */
export interface ModuleGraph {
  /** Every module `deno info` lists, loaded or not (type-only and dynamic imports included). */
  all: string[];
  /**
   * The modules loaded before `entry` runs: its static imports, transitively; with `dynamic`, every one it may
   * load. `onUnresolved` hears of each dynamic import on the way that `deno info` could not resolve (a computed
   * specifier), as `file: import(specifier)`.
   */
  reachable(options?: { dynamic?: boolean; onUnresolved?: (where: string) => void }): Set<string>;
}

/** Resolves `entry`'s module graph with `deno info --json`, run in `cwd` (default: this process's). */
export async function moduleGraph(entry: string | URL, cwd?: string | URL): Promise<ModuleGraph> {
  const href = entry instanceof URL ? entry.href : entry;
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", href], cwd, stderr: "inherit" })
    .output();
  if (!out.success) throw new Error(`deno info ${href} failed`);
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: ModuleInfo[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  return {
    all: info.modules.map((m) => m.specifier),
    reachable({ dynamic = false, onUnresolved } = {}) {
      const seen = new Set<string>();
      const visit = (specifier: string) => {
        const resolved = info.redirects[specifier] ?? specifier;
        if (seen.has(resolved)) return;
        seen.add(resolved);
        for (const dep of bySpecifier.get(resolved)?.dependencies ?? []) {
          if (dynamic && dep.isDynamic && !dep.code) onUnresolved?.(`${resolved}: import(${dep.specifier})`);
          if ((dynamic || !dep.isDynamic) && dep.code) visit(dep.code.specifier);
        }
      };
      info.roots.forEach(visit);
      return seen;
    },
  };
}

/** Each import cycle among `graph`'s modules (strongly connected components of two or more, or self-imports). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative over the modules in order so the result is stable.
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>(), found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

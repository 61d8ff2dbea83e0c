/**
 * `fctl --help` must stay light: the modules main.ts loads statically (before any command
 * runs) must not include the RPC stack, generated protos or other heavy libraries.
 */
import { deepEqual, ok as assert } from "node:assert/strict";

interface Dependency {
  isDynamic?: boolean;
  code?: { specifier: string };
  type?: { specifier: string };
}
interface ModuleInfo {
  specifier: string;
  dependencies?: Dependency[];
}

async function staticGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", entry], stderr: "inherit" }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: ModuleInfo[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    const resolved = info.redirects[specifier] ?? specifier;
    if (seen.has(resolved)) return;
    seen.add(resolved);
    for (const dep of bySpecifier.get(resolved)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code) visit(dep.code.specifier);
    }
  };
  info.roots.forEach(visit);
  return seen;
}

Deno.test("main.ts statically loads no RPC stack, generated protos or heavy libraries", async () => {
  const graph = await staticGraph(new URL("../main.ts", import.meta.url).href);
  const heavy = [...graph].filter((s) =>
    // npm packages appear as `npm:/name@version` or, with a node_modules dir, `…/node_modules/.deno/name@version/…`.
    /proto\/gen|@connectrpc|@bufbuild|[/.]yaml@|modern-tar|fast-check|src\/sandbox|src\/register/.test(s)
  );
  deepEqual(heavy, []);
  assert([...graph].some((s) => /[/.]commander@/.test(s)), "the walk sees npm modules, so the check can fail");
});

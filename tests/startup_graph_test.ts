/**
 * `fctl --help` must stay light: the modules main.ts loads statically (before any command
 * runs) must not include commander, the RPC stack, generated protos or any other npm package.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };

interface Dependency {
  isDynamic?: boolean;
  code?: { specifier: string };
  type?: { specifier: string };
}
interface ModuleInfo {
  specifier: string;
  dependencies?: Dependency[];
}

async function staticGraph(entry: string, followDynamic = false): Promise<Set<string>> {
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
      if ((followDynamic || !dep.isDynamic) && dep.code) visit(dep.code.specifier);
    }
  };
  info.roots.forEach(visit);
  return seen;
}

Deno.test("main.ts statically loads only fctl's own light modules: no npm package, no Node built-in", async () => {
  const graph = [...await staticGraph(new URL("../main.ts", import.meta.url).href)];
  // Any npm package or `node:` module starts Deno's Node compatibility layer (~20 ms, most of `fctl --help`);
  // commander, the RPC stack and the generated protos load only when a command runs.
  const foreign = graph.filter((s) =>
    !s.startsWith("file:") || /node_modules|proto\/gen|src\/(sandbox|register)\//.test(s)
  );
  deepEqual(foreign, []);
  const local = graph.map((s) => s.replace(/^.*?\/(src\/|main\.ts)/, "$1"));
  assert(local.includes("src/cli/help.ts"), "the walk follows main.ts's imports, so the check can fail");
  assert(!local.includes("src/cli/program.ts"), "the commander graph is loaded on demand");
});

Deno.test("what commands load on demand is visible to deno compile and publish, and loaded only when run", async () => {
  // Literal specifiers: the whole program is in main.ts's graph through its dynamic imports.
  const all = [...await staticGraph(new URL("../main.ts", import.meta.url).href, true)];
  for (const module of ["src/cli/program.ts", "src/tasks/get_task.ts", "src/register/register_files.ts"]) {
    assert(all.some((s) => s.endsWith(module)), module);
  }
  assert(all.some((s) => s.includes("proto/gen/")), "the generated protos");
  // Without this, `deno run` reads and parses every one of them before `fctl --help` starts.
  assert((denoJson as { unstable?: string[] }).unstable?.includes("lazy-dynamic-imports"));
});

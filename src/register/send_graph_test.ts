/**
 * A dry run loads nothing that sends: the execute step (Connect's errors, the HTTP client, the upload) is
 * imported by `registerFiles` only for a registration that creates something, and `node:http(s)` never (every
 * PUT goes through fetch). Each costs a cold process about 10 ms it does not need.
 */
import { deepEqual, ok as assert } from "node:assert/strict";

interface ModuleInfo {
  specifier: string;
  dependencies?: { isDynamic?: boolean; code?: { specifier: string } }[];
}

/** The modules `entry` loads before it runs (its static imports, transitively; with `dynamic`, every module it may load), as `deno info` resolves them. */
async function staticGraph(entry: URL, options: { dynamic?: boolean } = {}): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", entry.href], stderr: "inherit" })
    .output();
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
      if ((options.dynamic || !dep.isDynamic) && dep.code) visit(dep.code.specifier);
    }
  };
  info.roots.forEach(visit);
  return [...seen];
}

Deno.test("registerFiles loads the execute step, Connect and the HTTP client only when it sends something", async () => {
  const graph = await staticGraph(new URL("./register_files.ts", import.meta.url));
  assert(graph.some((s) => s.endsWith("src/register/check.ts")), "the walk follows static imports");
  assert(graph.some((s) => s.includes("@bufbuild")), "and into npm packages");
  const sending = graph.filter((s) =>
    /@connectrpc|src\/register\/(execute|upload|create_entity)\.ts$|src\/http\/|^node:https?$/.test(s)
  );
  deepEqual(sending, []);
});

Deno.test("the HTTP client never loads node:http(s), not even for a PUT from disk", async () => {
  const graph = await staticGraph(new URL("../http/http_client.ts", import.meta.url), { dynamic: true });
  assert(graph.some((s) => s.endsWith("src/http/put.ts")), "the walk follows static imports");
  deepEqual(graph.filter((s) => /^node:https?$/.test(s)), []);
});

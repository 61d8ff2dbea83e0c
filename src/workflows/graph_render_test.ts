import { deepEqual, equal, ok as assert, rejects } from "node:assert/strict";
import { moduleGraph } from "../../scripts/module_graph.ts";
import { OperationError } from "../errors.ts";
import { everyNodeKind } from "./_test_constructed.ts";
import { compiledFixtureWorkflows } from "./_test_helpers.ts";
import { workflowDot } from "./graph_dot.ts";
import { renderDot } from "./graph_render.ts";

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const unescapeXml = (text: string) =>
  text.replace(
    /&(#x?[0-9a-fA-F]+|\w+);/g,
    (_, name: string) =>
      name.startsWith("#x")
        ? String.fromCodePoint(parseInt(name.slice(2), 16))
        : name.startsWith("#")
        ? String.fromCodePoint(Number(name.slice(1)))
        : ENTITIES[name] ?? `&${name};`,
  );

/** The titles of an SVG's `<g class="…">` groups of one class: node names, or `from->to` for edges. */
function titles(svg: string, kind: "node" | "edge"): string[] {
  return [...svg.matchAll(new RegExp(`<g id="[^"]*" class="${kind}">\\s*<title>([^<]*)</title>`, "g"))]
    .map((m) => unescapeXml(m[1])).sort();
}

/** What the DOT text declares: node names with their labels, and `from->to` of each edge. */
function declared(dot: string) {
  const nodes = new Map<string, string>();
  for (const m of dot.matchAll(/^\t+(\w+) \[ (.*) \];$/gm)) {
    nodes.set(m[1], m[2].match(/label="?((?:[^"\\,]|\\.)*)/)?.[1] ?? m[1]);
  }
  const edges = [...dot.matchAll(/^\t(\w+)->(\w+)/gm)].map((m) => `${m[1]}->${m[2]}`).sort();
  return { nodes, edges };
}

const core = await compiledFixtureWorkflows("flytesnacks-core.tgz");

for (
  const [name, closure] of [
    ["nested_parent_wf (sub-workflows in sub-workflows)", core.get("core.control_flow.subworkflows.nested_parent_wf")],
    ["merge_sort (a branch)", core.get("core.control_flow.run_merge_sort.merge_sort")],
    ["every node kind", everyNodeKind()],
  ] as const
) {
  Deno.test(`SVG of ${name}: a node per DOT node with its label, an edge per connection`, async () => {
    const dot = workflowDot(closure);
    const svg = await renderDot(dot);
    assert(svg.includes("<svg"), "an SVG document");
    const { nodes, edges } = declared(dot);
    assert(nodes.size >= 5 && edges.length >= 4, "the DOT parse found the graph, so the check can fail");
    deepEqual(titles(svg, "node"), [...nodes.keys()].sort());
    deepEqual(titles(svg, "edge"), edges);
    const texts = new Set([...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescapeXml(m[1])));
    for (const [node, label] of nodes) {
      assert(texts.has(label.replaceAll('\\"', '"')), `${node}'s label ${label} is drawn`);
    }
  });
}

Deno.test("every compiled connection is an edge of the picture", async () => {
  const closure = everyNodeKind();
  const edges = new Set(titles(await renderDot(workflowDot(closure)), "edge"));
  const name = (id: string) => id.replaceAll("-", "_");
  const connections = closure.primary!.connections!;
  let checked = 0;
  for (const [from, list] of Object.entries(connections.downstream)) {
    for (const to of list.ids) assert(edges.has(`${name(from)}->${name(to)}`), `${from} -> ${to}`), checked++;
  }
  for (const [to, list] of Object.entries(connections.upstream)) {
    for (const from of list.ids) assert(edges.has(`${name(from)}->${name(to)}`), `${from} -> ${to}`), checked++;
  }
  assert(checked >= 10);
});

Deno.test("text Graphviz cannot read fails with its reason, not a stack trace or an empty picture", async () => {
  await rejects(renderDot("strict digraph { a -> }"), (err: unknown) => {
    assert(err instanceof OperationError);
    assert(/^cannot draw the workflow graph: .*syntax error/i.test(err.message), err.message);
    return true;
  });
});

Deno.test("drawing runs with no permission at all: no network, system information, FFI, files or environment", async () => {
  const scenario = new URL("./_test_render_scenario.ts", import.meta.url).pathname;
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--config", config, "--no-prompt", "--deny-import", scenario],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(workflowDot(everyNodeKind())));
  await writer.close();
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  equal(out.code, 0, stderr);
  equal(stderr, "");
  const svg = new TextDecoder().decode(out.stdout);
  assert(svg.includes("<title>n0_n0&#45;&gt;n0_n0_error</title>"), "the picture is drawn");
});

Deno.test("the drawing library loads only when a picture is drawn: importing the graph modules does not load it", async () => {
  for (const module of ["graph_render.ts", "graph_dot.ts", "graph_url.ts"]) {
    const graph = await moduleGraph(new URL(`./${module}`, import.meta.url));
    deepEqual([...graph.reachable()].filter((s) => s.includes("@viz-js")), [], module);
  }
  // graph_render.ts itself imports nothing from node_modules: a command may import it statically.
  const render = await moduleGraph(new URL("./graph_render.ts", import.meta.url));
  deepEqual([...render.reachable()].filter((s) => !s.startsWith("file:") || s.includes("node_modules")), []);
  const onDemand = [...render.reachable({ dynamic: true })];
  assert(onDemand.some((s) => s.includes("@viz-js/viz")), "the walk sees the dynamic import, so the check can fail");
});

Deno.test("a graph too large for Graphviz's stack fails in one line pointing to -o dot, and the next drawing works", async () => {
  // A tree of 20,000 nodes, three children each: Graphviz's layout recursion runs out of stack.
  const edges = Array.from({ length: 19_999 }, (_, i) => `\tn${Math.floor(i / 3)}->n${i + 1};\n`).join("");
  await rejects(renderDot(`strict digraph  {\n${edges}}\n`), (err: unknown) => {
    assert(err instanceof OperationError);
    assert(
      err.message.startsWith("cannot draw the workflow graph: it is too large for Graphviz's stack ("),
      err.message,
    );
    assert(err.message.endsWith("); -o dot writes it for a Graphviz of your own"), err.message);
    return true;
  });
  assert((await renderDot("strict digraph  {\n\ta->b;\n}\n")).includes("<svg"));
});

/**
 * A workflow graph drawn as SVG (`get workflow -o svg`) by Graphviz compiled to WebAssembly (`@viz-js/viz`): no
 * system Graphviz, no network, no permission beyond fctl's own, and `deno compile` embeds it (the WebAssembly
 * is inside the package's JavaScript). The package is loaded on the first call only: nothing else pays its
 * start-up. SVG is the one picture format: this build of Graphviz has no PNG renderer.
 *
 * @module
 */
import { OperationError } from "../errors.ts";

/** The picture formats {@link renderDot} draws. */
export const PICTURE_FORMATS = ["svg"] as const;

/** One of {@link PICTURE_FORMATS}. */
export type PictureFormat = typeof PICTURE_FORMATS[number];

type Graphviz = Awaited<ReturnType<typeof import("@viz-js/viz").instance>>;
let graphviz: Promise<Graphviz> | undefined;

async function loadGraphviz(): Promise<Graphviz> {
  // A literal specifier, so that deno compile and publish see the package; loaded only when a picture is asked for.
  const { instance } = await import("@viz-js/viz");
  return await instance();
}

/**
 * Lays out and draws `dot` (the text `workflowDot` makes) as an SVG document.
 *
 * @throws {OperationError} when Graphviz cannot draw the text, with its first message, or runs out of stack
 *
 * ```ts
 * import { renderDot } from "./graph_render.ts";
 *
 * const svg = await renderDot("strict digraph  {\n\ta->b;\n}\n");
 * console.log(svg.startsWith("<?xml")); // true
 * ```
 */
export async function renderDot(dot: string, format: PictureFormat = "svg"): Promise<string> {
  const viz = await (graphviz ??= loadGraphviz());
  let result: ReturnType<Graphviz["render"]>;
  try {
    result = viz.render(dot, { format, engine: "dot" });
  } catch (err) {
    // Graphviz's layout recurses; a large graph exhausts its stack (a tree of 20,000 nodes does) and the instance
    // is not to be used again.
    if (!(err instanceof RangeError)) throw err;
    graphviz = undefined;
    throw new OperationError(
      `cannot draw the workflow graph: it is too large for Graphviz's stack (${err.message}); ` +
        `-o dot writes it for a Graphviz of your own`,
    );
  }
  if (result.status === "success") return result.output;
  const reason = result.errors.find((e) => e.level !== "warning")?.message ?? result.errors[0]?.message;
  throw new OperationError(`cannot draw the workflow graph: ${(reason ?? "Graphviz failed").trim()}`);
}

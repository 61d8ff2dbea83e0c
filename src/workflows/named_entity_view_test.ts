/**
 * Listing workflow names (`fctl get workflow` without a name) loads the named entities' view, the listing and the
 * named-entity calls: none of them reaches a workflow's, task's or compiler's descriptors, which only a named
 * workflow needs.
 */
import { deepEqual, ok } from "node:assert/strict";
import { moduleGraph } from "../../scripts/module_graph.ts";

Deno.test("listing workflow names loads no workflow, task or compiler descriptors", async () => {
  const loaded = new Set<string>();
  for (
    const module of [
      "src/workflows/get_workflow.ts",
      "src/workflows/named_entity_view.ts",
      "proto/gen/fctl/named_entity_calls_pb.ts",
    ]
  ) {
    for (const specifier of (await moduleGraph(new URL(`../../${module}`, import.meta.url))).reachable()) {
      loaded.add(specifier);
    }
  }
  ok([...loaded].some((s) => s.endsWith("/proto/gen/flyteidl/admin/common_pb.ts")), "the walk follows the imports");
  const workflowDescriptors =
    /\/proto\/gen\/flyteidl\/(admin\/(workflow|task)|core\/(workflow|tasks|compiler))_pb\.ts$/;
  deepEqual([...loaded].filter((s) => workflowDescriptors.test(s)), []);
});

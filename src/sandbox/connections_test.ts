import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { clone, create, type MessageInitShape } from "@bufbuild/protobuf";
import type { BindingSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type NodeSchema, WorkflowTemplateSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { compileTemplate } from "./connections.ts";
import { caseIds } from "./_test_compile.ts";

type BindingInit = MessageInitShape<typeof BindingSchema>;
type NodeInit = MessageInitShape<typeof NodeSchema>;

const promise = (variable: string, nodeId: string): BindingInit => ({
  var: variable,
  binding: { value: { case: "promise", value: { nodeId, var: "o0" } } },
});
const collection = (variable: string, nodeIds: string[]): BindingInit => ({
  var: variable,
  binding: {
    value: {
      case: "collection",
      value: { bindings: nodeIds.map((nodeId) => ({ value: { case: "promise", value: { nodeId, var: "o0" } } })) },
    },
  },
});
const node = (id: string, inputs: BindingInit[] = [], upstreamNodeIds: string[] = []): NodeInit => ({
  id,
  inputs,
  upstreamNodeIds,
});
const branch = (id: string, thenNode: NodeInit, elseNode: NodeInit): NodeInit => ({
  id,
  target: {
    case: "branchNode",
    value: { ifElse: { case: { thenNode }, default: { case: "elseNode", value: elseNode } } },
  },
});

Deno.test("compileTemplate adds the start and end nodes and Flyte's compiler's connections", () => {
  const template = create(WorkflowTemplateSchema, {
    nodes: [
      // An empty promise node is the workflow's inputs (older flytekit).
      node("n0", [promise("a", "")]),
      node("n1", [collection("xs", ["n0", "start-node"])], ["n3", "n0"]),
      // Nothing upstream, nothing downstream: hangs between start and end.
      node("n2"),
      node("n3", [promise("b", "start-node")]),
      // A branch's inner nodes get upstream entries from their promises only, not their explicit dependencies.
      branch("n4", node("n0", [promise("x", "n1")], ["n2"]), node("n1", [promise("y", "")])),
    ],
    outputs: [promise("o", "n1"), promise("p", "")],
  });
  const before = clone(WorkflowTemplateSchema, template);
  const compiled = compileTemplate(template);
  const compiledTemplate = compiled.template!;
  assertEquals(template, before, "the template given is left as it is");
  const nodes = compiledTemplate.nodes;
  assertEquals(nodes.map((n) => n.id), ["start-node", "end-node", "n0", "n1", "n2", "n3", "n4"]);
  assertEquals(
    nodes[1].inputs.map((b) => [b.var, b.binding?.value.value]),
    compiledTemplate.outputs.map((b) => [
      b.var,
      b.binding?.value.value,
    ]),
  );
  const promised = (b: { binding?: { value: { case?: string; value?: unknown } } }) =>
    (b.binding?.value.value as { nodeId: string }).nodeId;
  assertEquals(compiledTemplate.outputs.map(promised), ["n1", "start-node"], "empty promises name the start node");
  assertEquals(nodes[2].inputs.map(promised), ["start-node"]);
  assertEquals(nodes[3].upstreamNodeIds, ["n0", "n3"], "explicit dependencies sorted");
  const ids = (map: Record<string, { ids: string[] }> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([id, list]) => [id, list.ids]).sort());
  assertEquals(ids(compiled.connections?.upstream), {
    "end-node": ["n1", "n2", "n4", "start-node"],
    n0: ["start-node"],
    n1: ["n0", "n3", "start-node"],
    n2: ["start-node"],
    n3: ["start-node"],
    n4: ["start-node"],
    "n4-n0": ["n1"],
    "n4-n1": ["start-node"],
  });
  assertEquals(ids(compiled.connections?.downstream), {
    "start-node": ["end-node", "n0", "n1", "n2", "n3", "n4"],
    n0: ["n1"],
    n1: ["end-node"],
    n2: ["end-node"],
    n3: ["n1"],
    n4: ["end-node"],
  });
});

Deno.test("compileTemplate gives the failure node upstream entries from its promises, and no edge to or from it", () => {
  const template = create(WorkflowTemplateSchema, {
    nodes: [node("n0")],
    failureNode: node("fn", [promise("a", ""), promise("b", "n0")], ["n0"]),
  });
  const compiled = compileTemplate(template);
  const ids = (map: Record<string, { ids: string[] }> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([id, list]) => [id, list.ids]).sort());
  assertEquals(ids(compiled.connections?.upstream), {
    "end-node": ["n0"],
    fn: ["n0", "start-node"],
    n0: ["start-node"],
  });
  assertEquals(ids(compiled.connections?.downstream), { n0: ["end-node"], "start-node": ["n0"] });
  assertEquals(compiled.template?.nodes.map((n) => n.id), ["start-node", "end-node", "n0"]);
  assertEquals(
    compiled.template?.failureNode?.inputs.map((b) => (b.binding?.value.value as { nodeId: string }).nodeId),
    ["start-node", "n0"],
    "an empty promise names the start node",
  );
});

Deno.test("compileTemplate renames a branch's case nodes <branch>-<node>, nested ones after their renamed branch", () => {
  const inner = branch("ib", node("t0", [promise("x", "n0")]), node("t1"));
  const outer = branch("b", inner, node("e0", [promise("y", "")]));
  const blocks = outer.target!.value as { ifElse: { other?: unknown[] } };
  blocks.ifElse.other = [{ thenNode: node("t2", [promise("z", "n0")]) }];
  const mapped: NodeInit = {
    id: "a0",
    target: { case: "arrayNode", value: { node: branch("s", node("t0"), node("t1")) } },
  };
  const template = create(WorkflowTemplateSchema, {
    nodes: [node("n0"), outer, mapped],
    failureNode: branch("fn", node("t0"), node("t1", [promise("w", "n0")])),
  });
  const before = clone(WorkflowTemplateSchema, template);
  const compiled = compileTemplate(template);
  assertEquals(template, before, "the template given keeps its ids");
  const nodes = compiled.template!.nodes;
  assertEquals(nodes.map(caseIds), [
    ["start-node"],
    ["end-node"],
    ["n0"],
    ["b", [["b-ib", [["b-ib-t0"], ["b-ib-t1"]]], ["b-t2"], ["b-e0"]]],
    // An array node's branch names its cases after itself, as the compiler makes the sub-node's interface.
    ["a0", ["s", [["s-t0"], ["s-t1"]]]],
  ]);
  assertEquals(caseIds(compiled.template!.failureNode), ["fn", [["fn-t0"], ["fn-t1"]]]);
  const ids = (map: Record<string, { ids: string[] }> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([id, list]) => [id, list.ids]).sort());
  assertEquals(ids(compiled.connections?.upstream), {
    a0: ["start-node"],
    b: ["start-node"],
    "b-e0": ["start-node"],
    "b-ib-t0": ["n0"],
    "b-t2": ["n0"],
    "end-node": ["a0", "b", "n0"],
    "fn-t1": ["n0"],
    n0: ["start-node"],
  });
});

Deno.test("compileTemplate gives an array node's approval gate, and a gate case of its branch, upstream entries", () => {
  const gate = (id: string, inputs: BindingInit[]): NodeInit => ({
    id,
    inputs,
    target: { case: "gateNode", value: { condition: { case: "approve", value: { signalId: "ok" } } } },
  });
  const template = create(WorkflowTemplateSchema, {
    nodes: [
      node("n0"),
      {
        id: "a0",
        inputs: [promise("x", "n0")],
        target: { case: "arrayNode", value: { node: gate("g", [promise("x", "n0")]) } },
      },
      // A branch sub-node: none of its own (its interface is its cases'), but its gate case has them.
      {
        id: "a1",
        target: {
          case: "arrayNode",
          value: { node: branch("s", gate("t0", [promise("y", "n0")]), node("t1", [promise("z", "n0")])) },
        },
      },
    ],
  });
  const upstream = compileTemplate(template).connections?.upstream ?? {};
  assertEquals(
    Object.fromEntries(Object.entries(upstream).map(([id, list]) => [id, list.ids])),
    {
      "end-node": ["a0", "a1"],
      a0: ["n0"],
      a1: ["start-node"],
      g: ["n0"],
      "s-t0": ["n0"],
      n0: ["start-node"],
    },
  );
});

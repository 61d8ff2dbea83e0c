import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { BooleanExpressionSchema, OperandSchema } from "../../proto/gen/flyteidl/core/condition_pb.ts";
import type { IfElseBlockSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { id, withSandbox, workflowInit } from "./_test_helpers.ts";
import {
  answer,
  type BindingInit,
  caseIds,
  failed,
  INT,
  intValue,
  node,
  type NodeInit,
  promise,
  register,
  seeded,
  STR,
  type TypeInit,
  vars,
  withTask,
} from "./_test_compile.ts";
import type { SandboxStore } from "./store.ts";

type ExprInit = MessageInitShape<typeof BooleanExpressionSchema>;
type OperandInit = MessageInitShape<typeof OperandSchema>;

const variable = (name: string): OperandInit => ({ val: { case: "var", value: name } });
const integer = (value: bigint): OperandInit => ({
  val: { case: "primitive", value: { value: { case: "integer", value } } },
});
const text = (value: string): OperandInit => ({
  val: { case: "primitive", value: { value: { case: "stringValue", value } } },
});
/** `left == right`. */
const equal = (left: OperandInit, right: OperandInit): ExprInit => ({
  expr: { case: "comparison", value: { leftValue: left, rightValue: right } },
});

/** A branch node of `ifElse`, its condition inputs bound as given (flytekit names them `.<node>.<output>`). */
function branch(
  nodeId: string,
  ifElse: MessageInitShape<typeof IfElseBlockSchema>,
  inputs: Record<string, BindingInit> = {},
): NodeInit {
  return {
    id: nodeId,
    inputs: Object.entries(inputs).map(([name, binding]) => ({ var: name, binding })),
    target: { case: "branchNode", value: { ifElse } },
  };
}

/** if `.n0.o == 1` then `thenNode` else `elseNode`, the condition bound to n0's output o. */
const ifOne = (thenNode: NodeInit, elseNode: NodeInit): NodeInit =>
  branch("b", {
    case: { condition: equal(variable(".n0.o"), integer(1n)), thenNode },
    default: { case: "elseNode", value: elseNode },
  }, { ".n0.o": promise("n0", "o") });

const first: NodeInit = node("n0", "make", { a: intValue(1n) });

/** What CreateWorkflow answers for workflow `wf` of `nodes` with outputs bound as given. */
function registerWithOutputs(
  store: SandboxStore,
  nodes: NodeInit[],
  outputs: Record<string, [TypeInit, BindingInit]>,
  failureNode?: NodeInit,
): string {
  const init = workflowInit("wf", "v1", nodes);
  const template = init.spec!.template!;
  template.interface = { outputs: vars(Object.fromEntries(Object.entries(outputs).map(([k, [t]]) => [k, t]))) };
  template.outputs = Object.entries(outputs).map(([name, [, binding]]) => ({ var: name, binding }));
  template.failureNode = failureNode;
  return answer(store, init);
}

Deno.test("CreateWorkflow checks a branch's cases as nodes of their own, named <branch>-<node>", () => {
  const store = seeded();
  const makes = (nodeId: string, more: Record<string, BindingInit> = {}) =>
    node(nodeId, "make", { a: promise("n0", "o"), ...more });
  // Valid: each case binds what its task needs; the branch's output is both cases' output, of their type.
  assertEquals(
    registerWithOutputs(store, [first, ifOne(makes("t0"), makes("t1"))], { out: [INT, promise("b", "o")] }),
    "OK",
  );
  assertEquals(
    register(store, [first, ifOne(makes("t0", { zz: intValue(2n) }), makes("t1"))]),
    failed("Code: VariableNameNotFound, Node Id: b-t0, Description: Variable [zz] not found on node [b-t0]."),
  );
  // A branch inside a branch: its cases are named after it, as it is named after its own branch.
  const inner = { ...ifOne(makes("t0", { zz: intValue(2n) }), makes("t1")), id: "ib" };
  assertEquals(
    register(store, [first, ifOne(inner, makes("t2"))]),
    failed("Code: VariableNameNotFound, Node Id: b-ib-t0, Description: Variable [zz] not found on node [b-ib-t0]."),
  );
  assertEquals(
    register(store, [first, ifOne(makes("t0"), node("t1", "make"))]),
    failed("Code: ParameterNotBound, Node Id: b-t1, Description: Parameter not bound [a]."),
  );
  // A promise of a node of the workflow that comes after the branch: the compiler has not added it yet.
  assertEquals(
    register(store, [ifOne(node("t0", "make", { a: promise("n0", "o") }), makes("t1")), first]),
    failed(
      "Code: NodeReferenceNotFound, Node Id: n0, Description: Referenced node [n0] not found.",
      "Code: ParameterNotBound, Node Id: b, Description: Parameter not bound [.n0.o].",
      "Code: ValueRequired, Node Id: b, Description: Value required [.n0.o].",
    ),
  );
});

Deno.test("CreateWorkflow refuses a branch whose condition promises an output that is not there", () => {
  const store = seeded();
  const cases = {
    case: { condition: equal(variable(".n0.nope"), integer(1n)), thenNode: node("t0", "make", { a: intValue(1n) }) },
    default: { case: "error" as const, value: { failedNodeId: "b", message: "none" } },
  };
  assertEquals(
    register(store, [first, branch("b", cases, { ".n0.nope": promise("n0", "nope") })]),
    failed(
      "Code: ParameterNotBound, Node Id: b, Description: Parameter not bound [.n0.nope].",
      "Code: ValueRequired, Node Id: b, Description: Value required [.n0.nope].",
      "Code: VariableNameNotFound, Node Id: n0, Description: Variable [nope] not found on node [n0].",
    ),
  );
  // A condition's variable that no binding of the branch provides.
  assertEquals(
    register(store, [first, branch("b", cases, { ".n0.o": promise("n0", "o") })]),
    failed("Code: VariableNameNotFound, Node Id: b, Description: Variable [.n0.nope] not found on node [b]."),
  );
});

Deno.test("CreateWorkflow refuses a branch's conditions and cases the compiler refuses", () => {
  const store = seeded();
  const thenNode = node("t0", "make", { a: intValue(1n) });
  const bound = { ".n0.o": promise("n0", "o") };
  // Operands of different types: the right one is named.
  assertEquals(
    register(store, [
      first,
      branch("b", {
        case: { condition: equal(variable(".n0.o"), text("1")), thenNode },
        default: { case: "error", value: {} },
      }, bound),
    ]),
    failed(
      "Code: MismatchingTypes, Node Id: b, Description: Variable [RightValue] (type [simple:STRING]) doesn't match " +
        "expected type [simple:INTEGER].",
    ),
  );
  // A scalar operand is none the compiler reads (it reads a primitive or a variable).
  assertEquals(
    register(store, [
      first,
      branch("b", {
        case: { condition: equal(variable(".n0.o"), { val: { case: "scalar", value: {} } }), thenNode },
        default: { case: "error", value: {} },
      }, bound),
    ]),
    failed("Code: ValueRequired, Node Id: b, Description: Value required [RightValue.Val]."),
  );
  // Neither an else node nor an error; a case without a condition; a case without a node.
  assertEquals(
    register(store, [
      first,
      branch("b", {
        case: { condition: equal(variable(".n0.o"), integer(1n)), thenNode },
        other: [{ thenNode }, { condition: equal(variable(".n0.o"), integer(2n)) }],
      }, bound),
    ]),
    failed(
      "Code: BranchNodeHasNoCondition, Node Id: b, Description: One of the branches on the node doesn't have a " +
        "condition.",
      "Code: BranchNodeHasNoDefault, Node Id: b, Description: Branch Node must have either the else case set or a " +
        "default error.",
      "Code: BranchNodeIdNotFound, Node Id: b, Description: BranchNode not assigned",
      // Its bindings gave the branch upstream entries, but no interface no edges: nothing reaches it.
      "Code: UnreachableNodes, Node Id: start-node, Description: The Workflow contain unreachable nodes [b].",
      // The branch has no interface: no variable of a condition is found.
      "Code: ValueRequired, Node Id: b, Description: Value required [.n0.o].",
      "Code: ValueRequired, Node Id: b, Description: Value required [IfElse.Case.ThenNode].",
    ),
  );
  // No if at all.
  assertEquals(
    register(store, [first, branch("b", { default: { case: "elseNode", value: thenNode } })]),
    failed(
      "Code: BranchNodeHasNoCondition, Node Id: b, Description: One of the branches on the node doesn't have a " +
        "condition.",
      "Code: ValueRequired, Node Id: b, Description: Value required [Branch.IfElse.Case].",
    ),
  );
});

Deno.test("CreateWorkflow gives a branch the outputs every case has, and refuses cases that type one differently", () => {
  const store = seeded();
  const makes = node("t0", "make", { a: intValue(1n) });
  const shouts = node("t1", "shout", { s: promise("", "s") });
  const init = (elseNode: NodeInit) => {
    const wf = workflowInit("wf", "v1", [first, ifOne(makes, elseNode)]);
    wf.spec!.template!.interface = { inputs: vars({ s: STR }) };
    return wf;
  };
  assertEquals(
    answer(store, init(shouts)),
    failed(
      "Code: MismatchingTypes, Node Id: b-t1, Description: Variable [o] (type [simple:INTEGER]) doesn't match " +
        "expected type [simple:STRING].",
      "Code: UnreachableNodes, Node Id: start-node, Description: The Workflow contain unreachable nodes [b].",
      "Code: ValueRequired, Node Id: b, Description: Value required [.n0.o].",
    ),
  );
  // A case without the output: the branch has none of that name.
  assertEquals(
    registerWithOutputs(store, [
      first,
      ifOne(makes, node("t1", "sum", { xs: { value: { case: "collection", value: {} } } })),
    ], {
      out: [INT, promise("b", "o")],
    }),
    failed(
      "Code: ParameterNotBound, Node Id: end-node, Description: Parameter not bound [out].",
      "Code: VariableNameNotFound, Node Id: b, Description: Variable [o] not found on node [b].",
    ),
  );
});

Deno.test("CreateWorkflow gives an array node its sub-node's interface and checks the array node's bindings", () => {
  const store = seeded();
  const array = (inputs: Record<string, BindingInit>): NodeInit => ({
    id: "a",
    inputs: Object.entries(inputs).map(([name, binding]) => ({ var: name, binding })),
    target: { case: "arrayNode", value: { node: node("a-sub", "make", inputs) } },
  });
  assertEquals(
    registerWithOutputs(store, [first, array({ a: promise("n0", "o") })], { out: [INT, promise("a", "o")] }),
    "OK",
  );
  assertEquals(
    register(store, [first, array({ b: promise("n0", "o") })]),
    failed(
      "Code: ParameterNotBound, Node Id: a, Description: Parameter not bound [a].",
      "Code: VariableNameNotFound, Node Id: a, Description: Variable [b] not found on node [a].",
    ),
  );
  assertEquals(
    registerWithOutputs(store, [first, array({ a: promise("n0", "o") })], { out: [INT, promise("a", "total")] }),
    failed(
      "Code: ParameterNotBound, Node Id: end-node, Description: Parameter not bound [out].",
      "Code: VariableNameNotFound, Node Id: a, Description: Variable [total] not found on node [a].",
    ),
  );
});

Deno.test("CreateWorkflow checks the failure node's bindings against its task, promising the workflow's nodes", () => {
  const store = seeded();
  const outputs = { out: [INT, promise("n0", "o")] as [TypeInit, BindingInit] };
  assertEquals(registerWithOutputs(store, [first], outputs, node("fn", "make", { a: promise("n0", "o") })), "OK");
  assertEquals(
    registerWithOutputs(store, [first], outputs, node("fn", "make", { b: intValue(1n) })),
    failed(
      "Code: ParameterNotBound, Node Id: fn, Description: Parameter not bound [a].",
      "Code: VariableNameNotFound, Node Id: fn, Description: Variable [b] not found on node [fn].",
    ),
  );
  assertEquals(
    registerWithOutputs(store, [first], outputs, node("fn", "shout", { s: promise("n0", "o") })),
    failed(
      "Code: MismatchingTypes, Node Id: fn, Description: The output variable 't.make.o' has type [simple:INTEGER], " +
        "but it's assigned to the input variable 't.shout.s' which has type type [simple:STRING].",
    ),
  );
});

Deno.test("CreateWorkflow gives an approval gate the outputs its bindings promise", () => {
  const store = seeded();
  const gate: NodeInit = {
    id: "g",
    inputs: [{ var: "x", binding: promise("n0", "o") }],
    target: { case: "gateNode", value: { condition: { case: "approve", value: { signalId: "ok" } } } },
  };
  assertEquals(registerWithOutputs(store, [first, gate], { out: [INT, promise("g", "x")] }), "OK");
  assertEquals(
    registerWithOutputs(store, [first, gate], { out: [STR, promise("g", "x")] }),
    failed(
      "Code: MismatchingTypes, Node Id: end-node, Description: The output variable 'x' has type [simple:INTEGER], " +
        "but it's assigned to the input variable 'out' which has type type [simple:STRING].",
    ),
  );
  assertEquals(
    registerWithOutputs(store, [first, gate], { out: [INT, promise("g", "y")] }),
    failed(
      "Code: ParameterNotBound, Node Id: end-node, Description: Parameter not bound [out].",
      "Code: VariableNameNotFound, Node Id: g, Description: Variable [y] not found on node [g].",
    ),
  );
});

Deno.test("GetWorkflow answers a branch's case nodes under the compiler's ids, <branch>-<node>, nested ones and connections too", async () => {
  await withSandbox(async (sandbox, client) => {
    withTask(sandbox.store, "make", { a: INT }, { o: INT });
    const makes = (nodeId: string) => node(nodeId, "make", { a: promise("n0", "o") });
    const bound = { ".n0.o": promise("n0", "o") };
    const inner = branch("ib", {
      case: { condition: equal(variable(".n0.o"), integer(2n)), thenNode: makes("t0") },
      default: { case: "elseNode", value: makes("t1") },
    }, bound);
    const outer = branch("b", {
      case: { condition: equal(variable(".n0.o"), integer(1n)), thenNode: inner },
      other: [{ condition: equal(variable(".n0.o"), integer(3n)), thenNode: makes("t2") }],
      default: { case: "elseNode", value: makes("e0") },
    }, bound);
    await client.admin.createWorkflow(workflowInit("wf", "v1", [first, outer]));
    const workflow = await client.admin.getWorkflow({ id: id(ResourceType.WORKFLOW, "wf", "v1") });
    const primary = workflow.closure?.compiledWorkflow?.primary;
    assertEquals(primary?.template?.nodes.map(caseIds), [
      ["start-node"],
      ["end-node"],
      ["n0"],
      ["b", [["b-ib", [["b-ib-t0"], ["b-ib-t1"]]], ["b-t2"], ["b-e0"]]],
    ]);
    const ids = (map: Record<string, { ids: string[] }> | undefined) =>
      Object.fromEntries(Object.entries(map ?? {}).map(([nodeId, list]) => [nodeId, list.ids]).sort());
    assertEquals(ids(primary?.connections?.upstream), {
      b: ["n0"],
      "b-e0": ["n0"],
      "b-ib": ["n0"],
      "b-ib-t0": ["n0"],
      "b-ib-t1": ["n0"],
      "b-t2": ["n0"],
      "end-node": ["b"],
      n0: ["start-node"],
    });
    assertEquals(ids(primary?.connections?.downstream), { b: ["end-node"], n0: ["b"], "start-node": ["n0"] });
  });
});

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { IdentifierSchema, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { BindingSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { AliasSchema, NodeSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { int } from "../_test_literals.ts";
import { id, launchPlanInit, taskNode, workflowInit } from "./_test_helpers.ts";
import { DEFAULT_MAX_WORKFLOW_NODES } from "./compile.ts";
import {
  alwaysBranch,
  answer,
  type BindingInit,
  caseIds,
  failed,
  INT,
  intValue,
  list,
  node,
  type NodeInit,
  promise,
  register,
  seeded,
  STR,
  subWorkflowId,
  subWorkflowNode,
  type TypeInit,
  vars,
  WF,
  withTask,
} from "./_test_compile.ts";

Deno.test("CreateWorkflow names the first missing task, then launch plan, as FlyteAdmin's lookup does", () => {
  const store = seeded();
  const lpNode = (name: string): NodeInit => ({
    id: `lp-${name}`,
    target: {
      case: "workflowNode",
      value: { reference: { case: "launchplanRef", value: id(ResourceType.LAUNCH_PLAN, name, "v1") } },
    },
  });
  const missing = (kind: string, name: string) =>
    `InvalidArgument: failed to compile workflow for [${WF}] with err: missing entity of type ${kind} with ` +
    `identifier project:"flytesnacks" domain:"development" name:"${name}" version:"v1"`;
  assertEquals(
    register(store, [taskNode("n0", "zeta", "v1"), taskNode("n1", "alpha", "v1"), lpNode("lp")]),
    missing("TASK", "alpha"),
  );
  assertEquals(register(store, [lpNode("lp-b"), lpNode("lp-a")]), missing("LAUNCH_PLAN", "lp-a"));
  assertEquals(store.workflows(), []);
});

Deno.test("CreateWorkflow takes sub-workflows from the spec only, as FlyteAdmin does, and refuses two of one id", () => {
  const store = seeded();
  store.addWorkflow(workflowInit("stored", "v1", [node("n", "make", { a: intValue(1n) })]));
  const call = (name: string) => subWorkflowNode(`call-${name}`, name);
  const subText = (name: string) =>
    `resource_type:WORKFLOW project:"flytesnacks" domain:"development" name:"${name}" version:"v1"`;
  assertEquals(
    register(store, [call("stored")]),
    failed(
      `Code: WorkflowReferenceNotFound, Node Id: call-stored, Description: Referenced Workflow [${
        subText("stored")
      }] not found.`,
    ),
  );
  const inline = { id: subWorkflowId("inline"), interface: {}, nodes: [node("n", "make", { a: intValue(1n) })] };
  assertEquals(
    register(store, [call("inline")], [inline, inline]),
    `InvalidArgument: failed to compile workflow for [${WF}] with err: failed to get workflow requirements with ` +
      `err Collected Errors: 1\n\tError 0: Code: DuplicateId, Node Id: ${
        subText("inline")
      }, Description: Trying to insert two nodes with the same id.\n`,
  );
  assertEquals(register(store, [call("inline")], [inline]), "OK");
});

Deno.test("CreateWorkflow refuses bindings to nodes or outputs that are not there, with the compiler's errors", () => {
  const store = seeded();
  assertEquals(
    register(store, [node("n0", "make", { a: promise("ghost", "o") })]),
    failed(
      "Code: NodeReferenceNotFound, Node Id: ghost, Description: Referenced node [ghost] not found.",
      "Code: ParameterNotBound, Node Id: n0, Description: Parameter not bound [a].",
    ),
  );
  assertEquals(
    register(store, [node("n0", "make", { a: intValue(1n) }), node("n1", "make", { a: promise("n0", "nope") })]),
    failed(
      "Code: ParameterNotBound, Node Id: n1, Description: Parameter not bound [a].",
      "Code: VariableNameNotFound, Node Id: n0, Description: Variable [nope] not found on node [n0].",
    ),
  );
  assertEquals(
    register(store, [node("n0", "make", { a: intValue(1n), extra: intValue(2n) })]),
    failed("Code: VariableNameNotFound, Node Id: n0, Description: Variable [extra] not found on node [n0]."),
  );
  assertEquals(store.workflows(), []);
});

Deno.test("CreateWorkflow refuses bindings whose type does not cast, simple and collection types", () => {
  const store = seeded();
  assertEquals(
    register(store, [node("n0", "make", { a: intValue(1n) }), node("n1", "shout", { s: promise("n0", "o") })]),
    failed(
      "Code: MismatchingTypes, Node Id: n1, Description: The output variable 't.make.o' has type [simple:INTEGER], " +
        "but it's assigned to the input variable 't.shout.s' which has type type [simple:STRING].",
    ),
  );
  assertEquals(
    register(store, [node("n0", "shout", { s: intValue(3n) })]),
    failed(
      "Code: MismatchingTypes, Node Id: n0, Description: Variable [s] (type [simple:INTEGER]) doesn't match " +
        "expected type [simple:STRING].",
    ),
  );
  // A blob without metadata has no type the compiler can tell.
  assertEquals(
    register(store, [
      node("n0", "shout", { s: { value: { case: "scalar", value: { value: { case: "blob", value: {} } } } } }),
    ]),
    failed("Code: UnrecognizedValue, Node Id: n0, Description: Unrecognized value [*core.Scalar_Blob]."),
  );
  const collection = (...items: BindingInit[]): BindingInit => ({
    value: { case: "collection", value: { bindings: items } },
  });
  assertEquals(
    register(store, [node("n0", "make", { a: collection(intValue(1n)) })]),
    failed(
      "Code: MismatchingBindings, Node Id: n0, Description: Input [a] on node [n0] expects bindings of type " +
        "[simple:INTEGER].  Received [bindings:{scalar:{primitive:{integer:1}}}]",
    ),
  );
  assertEquals(
    register(store, [
      node("n0", "shout", {
        s: {
          value: {
            case: "scalar",
            value: { value: { case: "primitive", value: { value: { case: "stringValue", value: "x" } } } },
          },
        },
      }),
      node("n1", "sum", { xs: collection(promise("n0", "o"), intValue(2n)) }),
    ]),
    failed(
      "Code: MismatchingTypes, Node Id: n1, Description: The output variable 't.shout.o' has type [simple:STRING], " +
        "but it's assigned to the input variable 't.sum.xs' which has type type [simple:INTEGER].",
    ),
  );
  // A list of promises of integers is a list of integers.
  assertEquals(
    register(store, [
      node("n0", "make", { a: intValue(1n) }),
      node("n1", "sum", { xs: collection(promise("n0", "o"), intValue(2n)) }),
    ]),
    "OK",
  );
});

Deno.test("CreateWorkflow refuses a workflow output bound to what is not there, and nodes the start does not reach", () => {
  const store = seeded();
  const withOutput = workflowInit("wf", "v1", [node("n0", "make", { a: intValue(1n) })]);
  withOutput.spec!.template!.interface = { outputs: vars({ out: STR }) };
  withOutput.spec!.template!.outputs = [{ var: "out", binding: promise("n0", "o") }];
  assertEquals(
    answer(store, withOutput),
    failed(
      "Code: MismatchingTypes, Node Id: end-node, Description: The output variable 't.make.o' has type " +
        "[simple:INTEGER], but it's assigned to the input variable 'out' which has type type [simple:STRING].",
    ),
  );
  assertEquals(
    register(store, [
      node("n0", "make", { a: intValue(1n) }),
      { ...node("n1", "make", { a: intValue(1n) }), upstreamNodeIds: ["gone"] },
    ]),
    failed("Code: UnreachableNodes, Node Id: start-node, Description: The Workflow contain unreachable nodes [n1]."),
  );
});

Deno.test("CreateWorkflow keeps the first of two nodes of one id, as the compiler does", () => {
  const store = seeded();
  assertEquals(
    register(store, [node("n0", "make", { a: intValue(1n) }), node("n0", "shout", { s: intValue(1n) })]),
    "OK",
  );
  const primary = store.getWorkflow(create(IdentifierSchema, id(ResourceType.WORKFLOW, "wf", "v1"))).closure
    ?.compiledWorkflow?.primary;
  assertEquals(primary?.template?.nodes.map((n) => n.id), ["start-node", "end-node", "n0"]);
  const target = primary?.template?.nodes[2].target;
  assertEquals(target?.case === "taskNode" && target.value.reference.value?.name, "make");
});

Deno.test("CreateWorkflow refuses more nodes than FlyteAdmin's limit (100 on the demo cluster), before ALREADY_EXISTS", () => {
  const store = seeded();
  store.maxWorkflowNodes = DEFAULT_MAX_WORKFLOW_NODES;
  const nodes = (count: number) =>
    Array.from({ length: count }, (_, i) => node(`n${i}`, "make", { a: intValue(BigInt(i)) }));
  assertEquals(
    register(store, nodes(101)),
    `InvalidArgument: number of nodes in workflow [${WF}] exceeds limit (101 > 100)`,
  );
  assertEquals(register(store, nodes(100)), "OK");
  // FlyteAdmin compiles before it compares with the stored version: the compiler's answer comes first.
  assertEquals(
    register(store, nodes(101)),
    `InvalidArgument: number of nodes in workflow [${WF}] exceeds limit (101 > 100)`,
  );
  assertEquals(register(store, nodes(100)).startsWith("AlreadyExists"), true);
  store.maxWorkflowNodes = 300;
  store.addWorkflow(workflowInit("big", "v1", nodes(250)));
  store.addLaunchPlan(launchPlanInit("big", "v1"));
});

const NONE: TypeInit = { type: { case: "simple", value: SimpleType.NONE } };
const union = (...variants: TypeInit[]): TypeInit => ({ type: { case: "unionType", value: { variants } } });

Deno.test("CreateWorkflow refuses a required input nothing binds: ParameterNotBound, a binding without data too", () => {
  const store = seeded();
  assertEquals(
    register(store, [node("n0", "make"), node("n1", "sum", { xs: intValue(1n) })]),
    failed(
      "Code: MismatchingTypes, Node Id: n1, Description: Variable [xs] (type [simple:INTEGER]) doesn't match " +
        "expected type [collection_type:{simple:INTEGER}].",
      "Code: ParameterNotBound, Node Id: n0, Description: Parameter not bound [a].",
    ),
  );
  // A binding of no value is not a binding: the compiler reports both.
  assertEquals(
    register(store, [{ ...create(NodeSchema, node("n0", "make")), inputs: [create(BindingSchema, { var: "a" })] }]),
    failed(
      "Code: ParameterNotBound, Node Id: n0, Description: Parameter not bound [a].",
      "Code: ValueRequired, Node Id: n0, Description: Value required [Binding].",
    ),
  );
  // A sub-workflow's inputs are required as a task's are; so are the nodes' inside it.
  const sub = {
    id: id(ResourceType.WORKFLOW, "sub", "v1"),
    interface: { inputs: vars({ a: INT }) },
    nodes: [node("inner", "make")],
  };
  const call: NodeInit = {
    id: "call",
    target: { case: "workflowNode", value: { reference: { case: "subWorkflowRef", value: sub.id } } },
  };
  assertEquals(
    register(store, [call], [sub]),
    failed(
      "Code: ParameterNotBound, Node Id: call, Description: Parameter not bound [a].",
      "Code: ParameterNotBound, Node Id: inner, Description: Parameter not bound [a].",
    ),
  );
  assertEquals(store.workflows(), []);
});

Deno.test("CreateWorkflow refuses a workflow output nothing binds, at the end node", () => {
  const store = seeded();
  const init = workflowInit("wf", "v1", [node("n0", "make", { a: intValue(1n) })]);
  init.spec!.template!.interface = { outputs: vars({ out: INT, also: STR }) };
  init.spec!.template!.outputs = [{ var: "out", binding: promise("n0", "o") }];
  assertEquals(
    answer(store, init),
    failed("Code: ParameterNotBound, Node Id: end-node, Description: Parameter not bound [also]."),
  );
  init.spec!.template!.interface = { outputs: vars({ out: INT }) };
  assertEquals(answer(store, init), "OK");
});

Deno.test("CreateWorkflow leaves unbound what need not be bound: a launch plan's defaulted input, an optional one", () => {
  const store = seeded();
  const callee = workflowInit("callee", "v1", [node("n0", "make", { a: promise("start-node", "req") })]);
  callee.spec!.template!.interface = { inputs: vars({ req: INT, opt: INT }) };
  store.addWorkflow(callee);
  const plan = launchPlanInit("callee", "v1");
  plan.spec!.defaultInputs = {
    parameters: { opt: { var: { type: INT }, behavior: { case: "default", value: int(5) } } },
  };
  store.addLaunchPlan(plan);
  const lpNode = (inputs: Record<string, BindingInit>): NodeInit => ({
    id: "lp",
    target: {
      case: "workflowNode",
      value: { reference: { case: "launchplanRef", value: id(ResourceType.LAUNCH_PLAN, "callee", "v1") } },
    },
    inputs: Object.entries(inputs).map(([name, binding]) => ({ var: name, binding })),
  });
  assertEquals(
    register(store, [lpNode({})]),
    failed("Code: ParameterNotBound, Node Id: lp, Description: Parameter not bound [req]."),
  );
  assertEquals(register(store, [lpNode({ req: intValue(1n) })]), "OK");
  // A union with a none variant is optional; so, as the compiler reads a variant's simple type, is one with a
  // variant that is not simple (a list here). A union of simple types only is required.
  withTask(store, "maybe", { o: union(INT, NONE), l: union(INT, list(INT)), u: union(INT, STR) }, {});
  const init = workflowInit("optional", "v1", [node("n0", "maybe")]);
  init.spec!.template!.interface = { outputs: vars({ none: union(STR, NONE) }) };
  const optional = `resource_type:WORKFLOW project:"flytesnacks" domain:"development" name:"optional" version:"v1"`;
  assertEquals(
    answer(store, init),
    `InvalidArgument: failed to compile workflow for [${optional}] with err: Collected Errors: 1\n` +
      "\tError 0: Code: ParameterNotBound, Node Id: n0, Description: Parameter not bound [u].\n",
  );
  init.spec!.template!.nodes = [node("n0", "maybe", { u: intValue(1n) })];
  assertEquals(answer(store, init), "OK");
});

Deno.test("CreateWorkflow refuses a workflow without nodes (NoNodesFound, nothing else checked), a sub-workflow too", () => {
  const store = seeded();
  const empty = workflowInit("wf", "v1", []);
  empty.spec!.template!.interface = { outputs: vars({ out: INT }) };
  assertEquals(
    answer(store, empty),
    failed(`Code: NoNodesFound, Node Id: ${WF}, Description: Can't find any nodes in workflow [${WF}].`),
  );
  const subId = id(ResourceType.WORKFLOW, "hollow", "v1");
  const hollow = `resource_type:WORKFLOW project:"flytesnacks" domain:"development" name:"hollow" version:"v1"`;
  const call: NodeInit = {
    id: "call",
    target: { case: "workflowNode", value: { reference: { case: "subWorkflowRef", value: subId } } },
  };
  assertEquals(
    register(store, [call], [{ id: subId, interface: {}, nodes: [] }]),
    failed(`Code: NoNodesFound, Node Id: ${hollow}, Description: Can't find any nodes in workflow [${hollow}].`),
  );
  // A sub-workflow no node runs is not compiled.
  assertEquals(register(store, [node("n0", "make", { a: intValue(1n) })], [{ id: subId, nodes: [] }]), "OK");
});

Deno.test("CreateWorkflow checks no further a workflow whose interface lacks a type", () => {
  const store = seeded();
  const init = workflowInit("wf", "v1", [node("n0", "make", { extra: intValue(1n) })]);
  init.spec!.template!.interface = { inputs: { variables: { x: {} } } };
  assertEquals(
    answer(store, init),
    failed("Code: ValueRequired, Node Id: start-node, Description: Value required [param.Type]."),
  );
});

Deno.test("CreateWorkflow drops a node of the start or end node's id, and checks a dropped node's aliases", () => {
  const store = seeded();
  assertEquals(
    register(store, [node("end-node", "make"), node("start-node", "shout"), node("n0", "make", { a: intValue(1n) })]),
    "OK",
  );
  const primary = store.getWorkflow(create(IdentifierSchema, id(ResourceType.WORKFLOW, "wf", "v1"))).closure
    ?.compiledWorkflow?.primary;
  assertEquals(primary?.template?.nodes.map((n) => n.id), ["start-node", "end-node", "n0"]);
  const aliased = create(NodeSchema, node("n0", "make"));
  aliased.outputAliases = [
    create(AliasSchema, { var: "o", alias: "x" }),
    create(AliasSchema, { var: "o", alias: "y" }),
  ];
  assertEquals(
    register(store, [node("n0", "make", { a: intValue(2n) }), aliased]),
    failed(
      "Code: DuplicateAlias, Node Id: n0, Description: Duplicate alias [y] found. An output alias can only be used " +
        "once in the Workflow.",
    ),
  );
});

Deno.test("CreateWorkflow refuses a node whose interface the compiler cannot make, and promises of its outputs", () => {
  const store = seeded();
  assertEquals(
    register(store, [
      { id: "bare" },
      node("n1", "make", { a: promise("bare", "o") }),
      { id: "g0", target: { case: "gateNode", value: {} } },
      {
        id: "g1",
        target: { case: "gateNode", value: { condition: { case: "signal", value: { outputVariableName: "x" } } } },
      },
      { id: "g2", target: { case: "gateNode", value: { condition: { case: "signal", value: { type: INT } } } } },
      { id: "t", target: { case: "taskNode", value: {} } },
      { id: "w", target: { case: "workflowNode", value: {} } },
    ]),
    failed(
      "Code: NoConditionFound, Node Id: g0, Description: Can't find any condition in gate node [g0].",
      "Code: ParameterNotBound, Node Id: n1, Description: Parameter not bound [a].",
      "Code: ValueRequired, Node Id: bare, Description: Value required [Target].",
      "Code: ValueRequired, Node Id: g1, Description: Value required [GateNode.Signal.Type].",
      "Code: ValueRequired, Node Id: g2, Description: Value required [GateNode.Signal.OutputVariableName].",
      "Code: ValueRequired, Node Id: t, Description: Value required [TaskNode.ReferenceId].",
      "Code: VariableNameNotFound, Node Id: bare, Description: Variable [o] not found on node [bare].",
      "Code: WorkflowReferenceNotFound, Node Id: w, Description: Referenced Workflow [<nil>/<nil>] not found.",
    ),
  );
  // A sub-workflow without an interface gets an empty one when the compiler first compiles it, after the first node
  // that runs it looked for one; one without nodes never does.
  const bare = { id: subWorkflowId("bare"), nodes: [node("inner", "make", { a: intValue(1n) })] };
  assertEquals(
    register(store, [subWorkflowNode("c0", "bare"), subWorkflowNode("c1", "bare")], [bare]),
    failed("Code: ValueRequired, Node Id: c0, Description: Value required [WorkflowNode.Template.Interface]."),
  );
  const hollowText = `resource_type:WORKFLOW project:"flytesnacks" domain:"development" name:"hollow" version:"v1"`;
  assertEquals(
    register(store, [subWorkflowNode("c0", "hollow"), subWorkflowNode("c1", "hollow")], [{
      id: subWorkflowId("hollow"),
      nodes: [],
    }]),
    failed(
      `Code: NoNodesFound, Node Id: ${hollowText}, Description: Can't find any nodes in workflow [${hollowText}].`,
      "Code: ValueRequired, Node Id: c0, Description: Value required [WorkflowNode.Template.Interface].",
      "Code: ValueRequired, Node Id: c1, Description: Value required [WorkflowNode.Template.Interface].",
    ),
  );
  assertEquals(
    register(store, [subWorkflowNode("c0", "bare"), subWorkflowNode("c1", "bare")], [{ ...bare, interface: {} }]),
    "OK",
  );
});

Deno.test("CreateWorkflow binds nothing to a promise of a node whose output aliases are refused", () => {
  const store = seeded();
  const aliased = (...aliases: [string, string][]) => {
    const n0 = create(NodeSchema, node("n0", "make", { a: intValue(1n) }));
    n0.outputAliases = aliases.map(([name, alias]) => create(AliasSchema, { var: name, alias }));
    return n0;
  };
  assertEquals(
    register(store, [aliased(["o", "x"], ["o", "y"]), node("n1", "make", { a: promise("n0", "x") })]),
    failed(
      "Code: DuplicateAlias, Node Id: n0, Description: Duplicate alias [y] found. An output alias can only be used " +
        "once in the Workflow.",
      "Code: ParameterNotBound, Node Id: n1, Description: Parameter not bound [a].",
    ),
  );
  assertEquals(
    register(store, [aliased(["nope", "z"]), node("n1", "make", { a: promise("n0", "o") })]),
    failed(
      "Code: ParameterNotBound, Node Id: n0, Description: Parameter not bound [z].",
      "Code: ParameterNotBound, Node Id: n1, Description: Parameter not bound [a].",
    ),
  );
  assertEquals(register(store, [aliased(["o", "x"]), node("n1", "make", { a: promise("n0", "x") })]), "OK");
});

Deno.test("CreateWorkflow: an error another workflow already reported still refuses the node that repeats it", () => {
  const store = seeded();
  // Node n0 without a target, in the sub-workflow and in the workflow: the same error, collected once, and both
  // nodes refused, so a promise of the workflow's n0 binds nothing.
  const subId = id(ResourceType.WORKFLOW, "sub", "v1");
  const call: NodeInit = {
    id: "call",
    target: { case: "workflowNode", value: { reference: { case: "subWorkflowRef", value: subId } } },
  };
  assertEquals(
    register(store, [call, { id: "n0" }, node("n1", "make", { a: promise("n0", "o") })], [{
      id: subId,
      interface: {},
      nodes: [{ id: "n0" }],
    }]),
    failed(
      "Code: ParameterNotBound, Node Id: n1, Description: Parameter not bound [a].",
      "Code: ValueRequired, Node Id: n0, Description: Value required [Target].",
      "Code: VariableNameNotFound, Node Id: n0, Description: Variable [o] not found on node [n0].",
    ),
  );
});

Deno.test("CreateWorkflow renames a sub-workflow's cases once for each compile of it, as the compiler compiles it in place", () => {
  const store = seeded();
  const makes = (nodeId: string) => node(nodeId, "make", { a: intValue(1n) });
  const branch = alwaysBranch("b", makes("t0"), makes("e0"));
  const sub = (name: string, nodes: NodeInit[]) => ({ id: subWorkflowId(name), interface: {}, nodes });
  // `twice` is run by the workflow and by `once`, which the workflow runs from two nodes (compiled once for both);
  // `spare` is run by nothing.
  const subs = [sub("once", [subWorkflowNode("m0", "twice")]), sub("twice", [branch]), sub("spare", [branch])];
  assertEquals(
    register(store, [
      subWorkflowNode("n0", "once"),
      subWorkflowNode("n1", "once"),
      subWorkflowNode("n2", "twice"),
      branch,
    ], subs),
    "OK",
  );
  const closure = store.getWorkflow(create(IdentifierSchema, id(ResourceType.WORKFLOW, "wf", "v1"))).closure
    ?.compiledWorkflow;
  const cases = (nodes: readonly { id: string }[] | undefined) => nodes?.map(caseIds).slice(2);
  assertEquals(cases(closure?.primary?.template?.nodes), [["n0"], ["n1"], ["n2"], ["b", [["b-t0"], ["b-e0"]]]]);
  assertEquals(
    closure?.subWorkflows.slice(0, 2).map((workflow) => [workflow.template?.id?.name, cases(workflow.template?.nodes)]),
    [
      ["once", [["m0"]]],
      ["twice", [["b", [["b-b-t0"], ["b-b-e0"]]]]],
    ],
  );
  // The compiler never compiles `spare`: FlyteAdmin stores it as given, without start and end nodes or connections.
  const spare = closure?.subWorkflows[2];
  assertEquals(spare?.template?.nodes.map(caseIds), [["b", [["t0"], ["e0"]]]]);
  assertEquals(spare?.connections, undefined);
});

Deno.test("CreateWorkflow checks a sub-workflow with errors again for each node running it, its cases renamed again", () => {
  const store = seeded();
  // The if case binds `b`, which `make` does not have: an error at the case, under the id the compile gave it.
  const branch = alwaysBranch("b", node("t0", "make", { b: intValue(1n) }), node("e0", "make", { a: intValue(1n) }));
  const sub = (name: string, nodes: NodeInit[]) => ({ id: subWorkflowId(name), interface: {}, nodes });
  // `bad` is run by `once` (compiled for n0), then by the workflow's n1: each compile renames its case again.
  const subs = [sub("once", [subWorkflowNode("m0", "bad")]), sub("bad", [branch])];
  assertEquals(
    register(store, [subWorkflowNode("n0", "once"), subWorkflowNode("n1", "bad")], subs),
    failed(
      "Code: ParameterNotBound, Node Id: b-b-t0, Description: Parameter not bound [a].",
      "Code: ParameterNotBound, Node Id: b-t0, Description: Parameter not bound [a].",
      "Code: VariableNameNotFound, Node Id: b-b-t0, Description: Variable [b] not found on node [b-b-t0].",
      "Code: VariableNameNotFound, Node Id: b-t0, Description: Variable [b] not found on node [b-t0].",
    ),
  );
  // Run twice by the workflow itself: compiled again for its second node too, as it failed the first time.
  assertEquals(
    register(store, [subWorkflowNode("n0", "bad"), subWorkflowNode("n1", "bad")], [sub("bad", [branch])]),
    failed(
      "Code: ParameterNotBound, Node Id: b-b-t0, Description: Parameter not bound [a].",
      "Code: ParameterNotBound, Node Id: b-t0, Description: Parameter not bound [a].",
      "Code: VariableNameNotFound, Node Id: b-b-t0, Description: Variable [b] not found on node [b-b-t0].",
      "Code: VariableNameNotFound, Node Id: b-t0, Description: Variable [b] not found on node [b-t0].",
    ),
  );
});

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { IdentifierSchema, ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { VariableMapSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import type { BindingDataSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { NodeSchema, WorkflowTemplateSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { id, launchPlanInit, taskInit, taskNode, workflowInit } from "./_test_helpers.ts";
import { DEFAULT_MAX_WORKFLOW_NODES } from "./compile.ts";
import { SandboxStore } from "./store.ts";

type TypeInit = MessageInitShape<typeof LiteralTypeSchema>;
type NodeInit = MessageInitShape<typeof NodeSchema>;
type BindingInit = MessageInitShape<typeof BindingDataSchema>;

const INT: TypeInit = { type: { case: "simple", value: SimpleType.INTEGER } };
const STR: TypeInit = { type: { case: "simple", value: SimpleType.STRING } };
const list = (type: TypeInit): TypeInit => ({ type: { case: "collectionType", value: type } });
const vars = (types: Record<string, TypeInit>): MessageInitShape<typeof VariableMapSchema> => ({
  variables: Object.fromEntries(Object.entries(types).map(([name, type]) => [name, { type }])),
});
const promise = (nodeId: string, name: string): BindingInit => ({
  value: { case: "promise", value: { nodeId, var: name } },
});
const intValue = (value: bigint): BindingInit => ({
  value: { case: "scalar", value: { value: { case: "primitive", value: { value: { case: "integer", value } } } } },
});

/** A store with task `name` (v1) of the given inputs and outputs. */
function withTask(
  store: SandboxStore,
  name: string,
  inputs: Record<string, TypeInit>,
  outputs: Record<string, TypeInit>,
) {
  const init = taskInit(name, "v1");
  init.spec!.template!.interface = { inputs: vars(inputs), outputs: vars(outputs) };
  store.addTask(init);
}

/** A node running task `task` (v1), its inputs bound as given. */
function node(nodeId: string, task: string, inputs: Record<string, BindingInit> = {}): NodeInit {
  return {
    id: nodeId,
    target: {
      case: "taskNode",
      value: { reference: { case: "referenceId", value: id(ResourceType.TASK, task, "v1") } },
    },
    metadata: { name: `t.${task}` },
    inputs: Object.entries(inputs).map(([name, binding]) => ({ var: name, binding })),
  };
}

/** A store with `make(int)` (a → o:int), `shout(str)` (s:str → o:str) and `sum(list of int)` (xs → total:int). */
function seeded(): SandboxStore {
  const store = new SandboxStore();
  withTask(store, "make", { a: INT }, { o: INT });
  withTask(store, "shout", { s: STR }, { o: STR });
  withTask(store, "sum", { xs: list(INT) }, { total: INT });
  return store;
}

/** What CreateWorkflow answers for workflow `wf` of `nodes`: "OK" or "Code: message". */
function register(
  store: SandboxStore,
  nodes: NodeInit[],
  more: MessageInitShape<typeof WorkflowTemplateSchema>[] = [],
) {
  try {
    store.addWorkflow(workflowInit("wf", "v1", nodes, more));
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

const WF = `resource_type:WORKFLOW project:"flytesnacks" domain:"development" name:"wf" version:"v1"`;
const failed = (...errors: string[]) =>
  `InvalidArgument: failed to compile workflow for [${WF}] with err: Collected Errors: ${errors.length}\n` +
  errors.map((error, i) => `\tError ${i}: ${error}\n`).join("");

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
  const subId = (name: string) => id(ResourceType.WORKFLOW, name, "v1");
  const call = (name: string): NodeInit => ({
    id: `call-${name}`,
    target: { case: "workflowNode", value: { reference: { case: "subWorkflowRef", value: subId(name) } } },
  });
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
  const inline = { id: subId("inline"), nodes: [node("n", "make", { a: intValue(1n) })] };
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
  let answer = "OK";
  try {
    store.addWorkflow(withOutput);
  } catch (err) {
    answer = `${Code[(err as ConnectError).code]}: ${(err as ConnectError).rawMessage}`;
  }
  assertEquals(
    answer,
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

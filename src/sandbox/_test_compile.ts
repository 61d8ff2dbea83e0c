/**
 * What the workflow compile tests share: a store with a few typed tasks, nodes running them, and CreateWorkflow's
 * answer as text.
 *
 * @module
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { VariableMapSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import type { BindingDataSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { Node, NodeSchema, WorkflowTemplateSchema } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { id, taskInit, workflowInit } from "./_test_helpers.ts";
import { SandboxStore, type WorkflowInit } from "./store.ts";

export type TypeInit = MessageInitShape<typeof LiteralTypeSchema>;
export type NodeInit = MessageInitShape<typeof NodeSchema>;
export type BindingInit = MessageInitShape<typeof BindingDataSchema>;

export const INT: TypeInit = { type: { case: "simple", value: SimpleType.INTEGER } };
export const STR: TypeInit = { type: { case: "simple", value: SimpleType.STRING } };
export const list = (type: TypeInit): TypeInit => ({ type: { case: "collectionType", value: type } });
export const vars = (types: Record<string, TypeInit>): MessageInitShape<typeof VariableMapSchema> => ({
  variables: Object.fromEntries(Object.entries(types).map(([name, type]) => [name, { type }])),
});
export const promise = (nodeId: string, name: string): BindingInit => ({
  value: { case: "promise", value: { nodeId, var: name } },
});
export const intValue = (value: bigint): BindingInit => ({
  value: { case: "scalar", value: { value: { case: "primitive", value: { value: { case: "integer", value } } } } },
});

/** A store with task `name` (v1) of the given inputs and outputs. */
export function withTask(
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
export function node(nodeId: string, task: string, inputs: Record<string, BindingInit> = {}): NodeInit {
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
export function seeded(): SandboxStore {
  const store = new SandboxStore();
  withTask(store, "make", { a: INT }, { o: INT });
  withTask(store, "shout", { s: STR }, { o: STR });
  withTask(store, "sum", { xs: list(INT) }, { total: INT });
  return store;
}

/** What CreateWorkflow answers for `init`: "OK" or "Code: message". */
export function answer(store: SandboxStore, init: WorkflowInit): string {
  try {
    store.addWorkflow(init);
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

/** What CreateWorkflow answers for workflow `wf` of `nodes`: "OK" or "Code: message". */
export function register(
  store: SandboxStore,
  nodes: NodeInit[],
  more: MessageInitShape<typeof WorkflowTemplateSchema>[] = [],
) {
  return answer(store, workflowInit("wf", "v1", nodes, more));
}

/** The identifier of the sub-workflow `name`, version v1, in the tests' project and domain. */
export const subWorkflowId = (name: string) => id(ResourceType.WORKFLOW, name, "v1");

/** A node `nodeId` running the sub-workflow `name`. */
export const subWorkflowNode = (nodeId: string, name: string): NodeInit => ({
  id: nodeId,
  target: { case: "workflowNode", value: { reference: { case: "subWorkflowRef", value: subWorkflowId(name) } } },
});

/** A branch condition that always holds: `1 == 1`. */
export const ALWAYS = {
  expr: {
    case: "comparison" as const,
    value: {
      leftValue: { val: { case: "primitive" as const, value: { value: { case: "integer" as const, value: 1n } } } },
      rightValue: { val: { case: "primitive" as const, value: { value: { case: "integer" as const, value: 1n } } } },
    },
  },
};

/** A branch `nodeId`: if {@link ALWAYS} then `thenNode`, else `elseNode`; `name` in its metadata, if given. */
export const alwaysBranch = (nodeId: string, thenNode: NodeInit, elseNode: NodeInit, name?: string): NodeInit => ({
  id: nodeId,
  ...(name === undefined ? {} : { metadata: { name } }),
  target: {
    case: "branchNode",
    value: { ifElse: { case: { condition: ALWAYS, thenNode }, default: { case: "elseNode", value: elseNode } } },
  },
});

export const WF = `resource_type:WORKFLOW project:"flytesnacks" domain:"development" name:"wf" version:"v1"`;
export const failed = (...errors: string[]) =>
  `InvalidArgument: failed to compile workflow for [${WF}] with err: Collected Errors: ${errors.length}\n` +
  errors.map((error, i) => `\tError ${i}: ${error}\n`).join("");

/**
 * A node's id with, for a branch, its cases' (the if, each else-if, the else), each the same way; an array node's
 * with its sub-node's: what the compiler renames, laid out to compare.
 */
export function caseIds(node: Node | NodeInit | undefined): unknown[] {
  const target = node?.target;
  if (target?.case === "arrayNode") return [node!.id, caseIds(target.value.node ?? undefined)];
  if (target?.case !== "branchNode") return [node?.id];
  const ifElse = target.value.ifElse;
  const cases = [ifElse?.case?.thenNode, ...(ifElse?.other ?? []).map((block) => block.thenNode)];
  if (ifElse?.default?.case === "elseNode") cases.push(ifElse.default.value);
  return [node!.id, cases.map((inner) => caseIds(inner ?? undefined))];
}

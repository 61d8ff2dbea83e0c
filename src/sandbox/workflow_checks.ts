/**
 * What Flyte's workflow compiler checks of a workflow's nodes when FlyteAdmin registers it, with its error codes and
 * words: every node's input bindings against the interface of what it runs (an input that does not exist or is
 * bound twice, a promise of a node that is not there or of an output that node does not have, a type that
 * does not cast, a collection or map bound to an input of another type, a union a binding matches none or several
 * variants of, an enum value not among its values, a required input nothing binds), the workflow's outputs likewise
 * at the end node, output aliases (a promise of a node whose aliases are refused binds nothing), nodes no path from
 * the start reaches, cycles, and each sub-workflow a node runs, checked the same way. A workflow without nodes is
 * NoNodesFound, and nothing more of it is checked; one whose interface lacks a name or a type is checked no further
 * either. As the compiler's scopes do, a check fails when it collects an error even if another check collected the
 * same one before (`CompileErrors.collected`).
 *
 * Required, as the compiler reads it: every input of a task's or a sub-workflow's interface (an interface variable
 * has no default: flytekit binds a default at the node), and every input of a launch plan that has no default
 * (one with a default is not part of the node's interface unless the node binds it), except an optional one: a
 * union with a `none` variant. The compiler asks each union variant for its simple type, which is `none` for a
 * variant that is not simple at all, so a union with a collection, map, blob or any other non-simple variant is
 * optional too; the sandbox answers the same.
 *
 * A node whose id is `start-node` or `end-node` is dropped (the compiler adds its own nodes of those ids first), as
 * is a later node of an id already used; each dropped node is still checked on its own (its interface and
 * aliases), its bindings not.
 *
 * A node whose interface the compiler cannot make has none: no target (ValueRequired [Target]), a task node without a
 * task reference, a gate without a condition (NoConditionFound) or a signal without a type or an output name, a
 * variable of the interface without a name or a type, or a run of a sub-workflow that has no interface at all before
 * the compiler has compiled it (it then gives it an empty one, unless it has no nodes). Such a node gets no edges,
 * its bindings are not checked, and a promise of one of its outputs is VariableNameNotFound.
 *
 * Simplified: the inner nodes of branches, array nodes, failure nodes and approval gates are not checked (their
 * interfaces are taken as unknown: a promise of one of their outputs is accepted as it is, and nothing of theirs
 * is required).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Variable } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import {
  type Binding,
  type BindingData,
  BindingDataCollectionSchema,
  BindingDataMapSchema,
  BindingDataSchema,
} from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { TaskTemplate } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { Node, WorkflowTemplate } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { CompileErrors } from "./compile_errors.ts";
import { END_NODE, START_NODE } from "./connections.ts";
import { goText } from "./go_text.ts";
import { identifierText, idKey } from "./identifiers.ts";
import { areTypesCastable, literalTypeText, scalarLiteralType } from "./type_casting.ts";

/** What the checks look up: every reference resolves here (FlyteAdmin looked them up before compiling). */
export interface CheckContext {
  task(id: Identifier): TaskTemplate | undefined;
  launchPlan(id: Identifier): LaunchPlan | undefined;
  /** A sub-workflow of the request's spec. */
  subWorkflow(id: Identifier): WorkflowTemplate | undefined;
}

type Variables = Record<string, Variable>;

/** A node's interface as the compiler sees it, or undefined where the sandbox does not model it. */
interface NodeInterface {
  inputs: Variables;
  outputs: Variables;
}

interface CheckedNode {
  id: string;
  node?: Node;
  iface?: NodeInterface;
  /** Its interface was refused: the compiler keeps none, so it has no edges, no outputs, no bindings checked. */
  refused?: boolean;
  /** Its output aliases were refused: the compiler then finds none of its outputs for a promise. */
  refusedAliases?: boolean;
}

/**
 * The nodes of a workflow as the compiler keeps them: the first node of each id, none of the ids of the start and
 * end nodes (the compiler adds those first, and drops a node of an id it already has).
 */
export function uniqueNodes(nodes: readonly Node[]): Node[] {
  const seen = new Set<string>([START_NODE, END_NODE]);
  return nodes.filter((node) => !seen.has(node.id) && seen.add(node.id));
}

/** Checks `template` and every sub-workflow its nodes run (each once), collecting the compiler's errors. */
export function checkWorkflow(
  template: WorkflowTemplate,
  context: CheckContext,
  errors: CompileErrors,
  checked = new Set<string>(),
): void {
  new WorkflowCheck(template, context, errors, checked).run();
}

class WorkflowCheck {
  readonly #nodes = new Map<string, CheckedNode>();
  readonly #edges = new Map<string, Set<string>>();
  readonly #upstream = new Map<string, Set<string>>();

  constructor(
    readonly template: WorkflowTemplate,
    readonly context: CheckContext,
    readonly errors: CompileErrors,
    readonly checked: Set<string>,
  ) {}

  run(): void {
    const template = this.template;
    if (template.nodes.length === 0) {
      const id = template.id ? identifierText(template.id) : "";
      this.errors.collect("NoNodesFound", id, `Can't find any nodes in workflow [${id}].`);
      return;
    }
    const before = this.errors.collected;
    const workflowInputs = this.#validVariables(START_NODE, template.interface?.inputs?.variables ?? {});
    const workflowOutputs = this.#validVariables(START_NODE, template.interface?.outputs?.variables ?? {});
    if (this.errors.collected > before) return;
    this.#nodes.set(START_NODE, { id: START_NODE, iface: { inputs: {}, outputs: workflowInputs } });
    this.#nodes.set(END_NODE, { id: END_NODE, iface: { inputs: workflowOutputs, outputs: {} } });
    const nodes = uniqueNodes(template.nodes);
    for (const node of nodes) this.#nodes.set(node.id, { id: node.id, node });
    // A dropped node is checked all the same, on its own; its bindings are not.
    for (const node of template.nodes) {
      const kept = this.#nodes.get(node.id);
      this.#validateNode(kept?.node === node ? kept : { id: node.id, node });
    }
    for (const node of nodes) {
      const checked = this.#nodes.get(node.id)!;
      if (checked.refused) continue;
      for (const up of node.upstreamNodeIds) this.#addEdge(up, node.id);
      if (checked.iface) this.#validateBindings(checked, node.inputs, checked.iface.inputs);
      else for (const from of promisedNodes(node.inputs)) if (this.#nodes.has(from)) this.#addEdge(from, node.id);
    }
    for (const node of nodes) {
      if (!this.#upstream.has(node.id)) this.#addEdge(START_NODE, node.id);
      if (!this.#edges.has(node.id)) this.#addEdge(node.id, END_NODE);
    }
    this.#validateBindings(this.#nodes.get(END_NODE)!, template.outputs, workflowOutputs);
    this.#validateReachable(nodes);
  }

  #addEdge(from: string, to: string): void {
    const provider = from || START_NODE;
    (this.#edges.get(provider) ?? this.#edges.set(provider, new Set()).get(provider)!).add(to);
    (this.#upstream.get(to) ?? this.#upstream.set(to, new Set()).get(to)!).add(provider);
  }

  /** Variables with a name and a type; ValueRequired for one without. */
  #validVariables(nodeId: string, variables: Variables): Variables {
    for (const [name, variable] of Object.entries(variables)) {
      if (name === "") this.errors.collect("ValueRequired", nodeId, "Value required [paramName].");
      if (!variable.type) this.errors.collect("ValueRequired", nodeId, "Value required [param.Type].");
    }
    return variables;
  }

  #validateNode(checked: CheckedNode): void {
    const node = checked.node!;
    if (node.id === "") this.errors.collect("ValueRequired", "<node>", "Value required [Id].");
    if (node.id === START_NODE || node.id === END_NODE) return;
    const before = this.errors.collected;
    const iface = this.#underlyingInterface(node);
    if (iface) {
      this.#validVariables(node.id, iface.inputs);
      this.#validVariables(node.id, iface.outputs);
    }
    if (this.errors.collected > before) checked.refused = true;
    else if (iface) {
      const beforeAliases = this.errors.collected;
      checked.iface = { inputs: iface.inputs, outputs: this.#aliased(node, iface) };
      checked.refusedAliases = this.errors.collected > beforeAliases;
    }
    const target = node.target;
    if (target.case === "workflowNode" && target.value.reference.case === "subWorkflowRef") {
      const ref = target.value.reference.value;
      const sub = this.context.subWorkflow(ref);
      if (sub && !this.checked.has(idKey(ref))) {
        this.checked.add(idKey(ref));
        checkWorkflow(sub, this.context, this.errors, this.checked);
      }
    }
  }

  /** What the node runs' interface is; undefined where the sandbox does not model it, or (an error collected) none. */
  #underlyingInterface(node: Node): NodeInterface | undefined {
    const target = node.target;
    const variables = (map: { variables: Variables } | undefined) => map?.variables ?? {};
    const valueRequired = (what: string) =>
      void this.errors.collect("ValueRequired", node.id, `Value required [${what}].`);
    switch (target.case) {
      case "taskNode": {
        if (target.value.reference.case !== "referenceId") return valueRequired("TaskNode.ReferenceId");
        const task = this.context.task(target.value.reference.value);
        return task && { inputs: variables(task.interface?.inputs), outputs: variables(task.interface?.outputs) };
      }
      case "workflowNode": {
        const ref = target.value.reference;
        if (ref.case === "launchplanRef") {
          const closure = this.context.launchPlan(ref.value)?.closure;
          if (!closure) return undefined;
          // Exposed inputs: the required ones and any the node binds; the others keep their defaults.
          const bound = new Set(node.inputs.map((binding) => binding.var));
          const inputs: Variables = {};
          for (const [name, parameter] of Object.entries(closure.expectedInputs?.parameters ?? {})) {
            const required = parameter.behavior.case === "required" && parameter.behavior.value;
            if ((required || bound.has(name)) && parameter.var) inputs[name] = parameter.var;
          }
          return { inputs, outputs: variables(closure.expectedOutputs) };
        }
        if (ref.case === "subWorkflowRef") {
          const sub = this.context.subWorkflow(ref.value);
          if (!sub) return undefined;
          // The compiler gives a sub-workflow without an interface an empty one when it compiles it (unless it has
          // no nodes): the node it is compiled for, and any before, find none.
          const compiled = this.checked.has(idKey(ref.value)) && sub.nodes.length > 0;
          if (!sub.interface && !compiled) return valueRequired("WorkflowNode.Template.Interface");
          return { inputs: variables(sub.interface?.inputs), outputs: variables(sub.interface?.outputs) };
        }
        // Neither reference: the compiler names both, each a nil identifier as Go prints one.
        return void this.errors.collect(
          "WorkflowReferenceNotFound",
          node.id,
          "Referenced Workflow [<nil>/<nil>] not found.",
        );
      }
      case "gateNode": {
        const condition = target.value.condition;
        switch (condition.case) {
          case "sleep":
            return { inputs: {}, outputs: {} };
          case "signal": {
            if (!condition.value.type) return valueRequired("GateNode.Signal.Type");
            if (condition.value.outputVariableName === "") return valueRequired("GateNode.Signal.OutputVariableName");
            const output = { type: condition.value.type } as Variable;
            return { inputs: {}, outputs: { [condition.value.outputVariableName]: output } };
          }
          case "approve":
            return undefined;
          default:
            this.errors.collect("NoConditionFound", node.id, `Can't find any condition in gate node [${node.id}].`);
            return undefined;
        }
      }
      case undefined:
        return valueRequired("Target");
      default:
        return undefined;
    }
  }

  /** The node's outputs under their aliases; an alias of no output is ParameterNotBound, one used twice DuplicateAlias. */
  #aliased(node: Node, iface: NodeInterface): Variables {
    const aliases = aliasesOf(node, this.errors);
    const outputs: Variables = {};
    for (const [name, variable] of Object.entries(iface.outputs)) {
      const alias = aliases.get(name);
      outputs[alias ?? name] = variable;
      aliases.delete(name);
    }
    for (const alias of aliases.values()) {
      this.errors.collect("ParameterNotBound", node.id, `Parameter not bound [${alias}].`);
    }
    return outputs;
  }

  #validateBindings(checked: CheckedNode, bindings: readonly Binding[], params: Variables): void {
    const provided = new Set<string>();
    for (const binding of bindings) {
      const param = params[binding.var];
      if (!Object.hasOwn(params, binding.var)) {
        this.errors.collect(
          "VariableNameNotFound",
          checked.id,
          `Variable [${binding.var}] not found on node [${checked.id}].`,
        );
      } else if (!binding.binding) {
        this.errors.collect("ValueRequired", checked.id, "Value required [Binding].");
      } else if (provided.has(binding.var)) {
        this.errors.collect(
          "ParameterBoundMoreThanOnce",
          checked.id,
          `Input [${binding.var}] is bound more than once.`,
        );
      } else {
        provided.add(binding.var);
        const upstream: string[] = [];
        const ok = this.#validateBinding(
          checked,
          binding.var,
          binding.binding,
          param.type ?? create(LiteralTypeSchema),
          this.errors,
          upstream,
        );
        if (ok) { for (const from of upstream) this.#addEdge(from, checked.id); }
      }
    }
    for (const [name, variable] of Object.entries(params)) {
      if (!provided.has(name) && !isOptional(variable)) {
        this.errors.collect("ParameterNotBound", checked.id, `Parameter not bound [${name}].`);
      }
    }
  }

  /** One binding against the type its input expects; true when it adds no error. */
  #validateBinding(
    checked: CheckedNode,
    param: string,
    data: BindingData,
    expected: LiteralType,
    errors: CompileErrors,
    upstream: string[],
  ): boolean {
    const nodeId = checked.id;
    const before = errors.collected;
    const value = data.value;
    const expectedType = expected.type;
    // Collections and maps cannot be typed through a union, so each variant is tried; exactly one must accept.
    if (value.case !== "scalar" && value.case !== "promise" && expectedType.case === "unionType") {
      let match: LiteralType | undefined;
      let matchUpstream: string[] = [];
      for (const variant of expectedType.value.variants) {
        const trial = new CompileErrors();
        const trialUpstream: string[] = [];
        if (!this.#validateBinding(checked, param, data, variant, trial, trialUpstream)) continue;
        if (match) {
          errors.collect(
            "AmbiguousBindingUnionValue",
            nodeId,
            `Input [${param}] on node [${nodeId}] expects bindings of union type [${typeText(expected)}].  ` +
              `Received [${bindingText(data)}] which is ambiguous as both variants [${typeText(match)}] and ` +
              `[${typeText(variant)}] match.`,
          );
          return errors.collected === before;
        }
        match = variant;
        matchUpstream = trialUpstream;
      }
      if (match) {
        upstream.push(...matchUpstream);
        return true;
      }
      errors.collect(
        "IncompatibleBindingUnionValue",
        nodeId,
        `Input [${param}] on node [${nodeId}] expects bindings of union type [${typeText(expected)}].  ` +
          `Received [${bindingText(data)}] which does not match any of the variants.`,
      );
      return errors.collected === before;
    }
    const mismatchingBindings = (received: string) =>
      errors.collect(
        "MismatchingBindings",
        nodeId,
        `Input [${param}] on node [${nodeId}] expects bindings of type [${
          typeText(expected)
        }].  Received [${received}]`,
      );
    switch (value.case) {
      case "collection":
        if (expectedType.case !== "collectionType") {
          mismatchingBindings(goText(BindingDataCollectionSchema, value.value));
          break;
        }
        for (const item of value.value.bindings) {
          this.#validateBinding(checked, param, item, expectedType.value, errors, upstream);
        }
        break;
      case "map":
        if (expectedType.case !== "mapValueType") {
          mismatchingBindings(goText(BindingDataMapSchema, value.value));
          break;
        }
        for (const item of Object.values(value.value.bindings)) {
          this.#validateBinding(checked, param, item, expectedType.value, errors, upstream);
        }
        break;
      case "promise":
        this.#validatePromise(checked, param, value.value, expected, errors, upstream);
        break;
      case "scalar": {
        const type = scalarLiteralType(value.value);
        if (type && !areTypesCastable(type, expected)) {
          errors.collect(
            "MismatchingTypes",
            nodeId,
            `Variable [${param}] (type [${literalTypeText(type)}]) doesn't match expected type [${
              literalTypeText(expected)
            }].`,
          );
        }
        if (expectedType.case === "enumType") {
          const primitive = value.value.value.case === "primitive" ? value.value.value.value.value : undefined;
          const text = primitive?.case === "stringValue" ? primitive.value : "";
          if (!expectedType.value.values.includes(text)) {
            errors.collect(
              "IllegalEnumValue",
              nodeId,
              `Input [${param}] on node [${nodeId}] is an Enum and expects value to be one of [[${
                expectedType.value.values.join(" ")
              }]].  Received [${text}]`,
            );
          }
        }
        break;
      }
      case "offloadedMetadata":
        mismatchingBindings("*core.BindingData_OffloadedMetadata");
        break;
      default:
        mismatchingBindings("");
    }
    return errors.collected === before;
  }

  #validatePromise(
    checked: CheckedNode,
    param: string,
    promise: { nodeId: string; var: string; attrPath: { value: { case?: string; value?: unknown } }[] },
    expected: LiteralType,
    errors: CompileErrors,
    upstream: string[],
  ): void {
    const nodeId = checked.id;
    const upId = promise.nodeId || START_NODE;
    const up = this.#nodes.get(upId);
    if (!up) {
      errors.collect("NodeReferenceNotFound", upId, `Referenced node [${upId}] not found.`);
      errors.collect("ParameterNotBound", nodeId, `Parameter not bound [${param}].`);
      return;
    }
    const parsed = parseVarName(promise.var);
    if (!parsed) {
      errors.collect("SyntaxError", nodeId, `Failed to parse element [${promise.var}].`);
      return;
    }
    // A node whose interface was refused has no outputs (its aliases are still checked, and then nothing more).
    if (up.refused) {
      const before = errors.collected;
      aliasesOf(up.node!, errors);
      if (errors.collected === before) {
        errors.collect("VariableNameNotFound", upId, `Variable [${parsed.name}] not found on node [${upId}].`);
      }
      errors.collect("ParameterNotBound", nodeId, `Parameter not bound [${param}].`);
      return;
    }
    if (up.refusedAliases) {
      errors.collect("ParameterNotBound", nodeId, `Parameter not bound [${param}].`);
      return;
    }
    // A node the sandbox does not model: its outputs are taken as they are.
    if (up.node && !up.iface) {
      upstream.push(upId);
      return;
    }
    const output = up.iface?.outputs[parsed.name];
    if (!output || !Object.hasOwn(up.iface!.outputs, parsed.name)) {
      errors.collect("VariableNameNotFound", upId, `Variable [${parsed.name}] not found on node [${upId}].`);
      errors.collect("ParameterNotBound", nodeId, `Parameter not bound [${param}].`);
      return;
    }
    const inputVar = checked.node?.metadata ? `${checked.node.metadata.name}.${param}` : param;
    const outputVar = up.node?.metadata ? `${up.node.metadata.name}.${promise.var}` : promise.var;
    let source = output.type ?? create(LiteralTypeSchema);
    if (parsed.indexed) {
      if (source.type.case !== "collectionType") {
        errors.collect(
          "MismatchingTypes",
          nodeId,
          mismatchingVariables(outputVar, literalTypeText(output.type), inputVar, literalTypeText(expected)),
        );
      } else source = source.type.value;
    }
    for (const attr of promise.attrPath) {
      const type = source.type;
      if (type.case === "collectionType" || type.case === "mapValueType") {
        source = type.value;
      } else if (source.structure?.dataclassType && Object.keys(source.structure.dataclassType).length > 0) {
        const key = attr.value.case === "stringValue" ? String(attr.value.value) : "";
        const field = source.structure.dataclassType[key];
        if (!field) {
          errors.collect(
            "FieldNotFound",
            nodeId,
            `Variable [${promise.var}] (type [${typeText(source)}]) doesn't have field [${key}].`,
          );
          return;
        }
        source = field;
      }
    }
    if (areTypesCastable(source, expected)) {
      upstream.push(upId);
      return;
    }
    errors.collect(
      "MismatchingTypes",
      nodeId,
      mismatchingVariables(outputVar, literalTypeText(source), inputVar, literalTypeText(expected)),
    );
  }

  /** UnreachableNodes (the nodes no path from the start reaches), or CycleDetected for a cycle one does. */
  #validateReachable(nodes: Node[]): void {
    const visited = new Set<string>();
    const visiting = new Set<string>();
    const detect = (id: string): string[] | undefined => {
      if (visiting.has(id)) return [];
      visiting.add(id);
      visited.add(id);
      for (const next of [...(this.#edges.get(id) ?? [])].sort()) {
        const path = detect(next);
        if (path) return [next, ...path];
      }
      visiting.delete(id);
      return undefined;
    };
    const cycle = detect(START_NODE);
    if (cycle) {
      this.errors.collect(
        "CycleDetected",
        START_NODE,
        `A cycle has been detected while traversing the Workflow [${cycle.join(">")}].`,
      );
      return;
    }
    const unreachable = nodes.map((node) => node.id).filter((id) => !visited.has(id) && id !== END_NODE);
    if (unreachable.length > 0) {
      this.errors.collect(
        "UnreachableNodes",
        START_NODE,
        `The Workflow contain unreachable nodes [${unreachable.sort().join(",")}].`,
      );
    }
  }
}

/** The node's output aliases by output name; an output aliased twice is DuplicateAlias (the first alias kept). */
function aliasesOf(node: Node, errors: CompileErrors): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const alias of node.outputAliases) {
    if (aliases.has(alias.var)) {
      errors.collect(
        "DuplicateAlias",
        node.id,
        `Duplicate alias [${alias.alias}] found. An output alias can only be used once in the Workflow.`,
      );
    } else aliases.set(alias.var, alias.alias);
  }
  return aliases;
}

function mismatchingVariables(outputVar: string, outputType: string, inputVar: string, inputType: string): string {
  return `The output variable '${outputVar}' has type [${outputType}], but it's assigned to the input variable ` +
    `'${inputVar}' which has type type [${inputType}].`;
}

/**
 * The compiler's IsOptionalType: a union with a variant whose simple type is `none`, which, as Go reads a oneof,
 * is also what a variant that is not a simple type answers.
 */
function isOptional(variable: Variable): boolean {
  const type = variable.type?.type;
  if (type?.case !== "unionType") return false;
  return type.value.variants.some((variant) =>
    variant.type.case !== "simple" || variant.type.value === SimpleType.NONE
  );
}

const typeText = (type: LiteralType) => goText(LiteralTypeSchema, type);
const bindingText = (data: BindingData) => goText(BindingDataSchema, data);

/** A promise's variable as the compiler parses it: `name` or `[index].name`, one match of the whole pattern. */
function parseVarName(text: string): { name: string; indexed: boolean } | undefined {
  const matches = [...text.matchAll(/(\[(\d+)\]\.)?(\w+)/g)];
  if (matches.length !== 1) return undefined;
  return { name: matches[0][3], indexed: matches[0][2] !== undefined };
}

/** The nodes a node's bindings' promises name (an empty node id is the start node). */
function promisedNodes(bindings: readonly Binding[]): string[] {
  const visit = (data: BindingData | undefined): string[] => {
    switch (data?.value.case) {
      case "promise":
        return [data.value.value.nodeId || START_NODE];
      case "collection":
        return data.value.value.bindings.flatMap(visit);
      case "map":
        return Object.values(data.value.value.bindings).flatMap(visit);
      default:
        return [];
    }
  };
  return bindings.flatMap((binding) => visit(binding.binding));
}

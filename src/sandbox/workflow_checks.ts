/**
 * What Flyte's workflow compiler checks of a workflow's nodes when FlyteAdmin registers it, with its error codes and
 * words: every node's input bindings against the interface of what it runs (an input that does not exist or is
 * bound twice, a promise of a node that is not there or of an output that node does not have, a type that
 * does not cast, a collection or map bound to an input of another type, a union a binding matches none or several
 * variants of, an enum value not among its values, a required input nothing binds), the workflow's outputs likewise
 * at the end node, output aliases (a promise of a node whose aliases are refused binds nothing), nodes no path from
 * the start reaches, cycles, and each sub-workflow a node runs, checked the same way (one with errors again for each
 * node that runs it, `checkWorkflow`). A workflow without nodes is
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
 * variable of the interface without a name or a type, a run of a sub-workflow that has no interface at all before
 * the compiler has compiled it (it then gives it an empty one, unless it has no nodes), a branch any of whose
 * checks collected an error, an array node whose sub-node has none. Such a node gets no edges (only the upstream
 * entries a branch's or a gate's own promises gave it: nothing then reaches it), its bindings are not checked, and
 * a promise of one of its outputs is VariableNameNotFound.
 *
 * Nodes are added and checked in order, as the compiler does: a promise that a branch or an approval gate makes to
 * find its inputs finds only the nodes before it (and the start node). Branches, array nodes and approval gates get
 * the interfaces the compiler gives them (`nested_node_checks.ts`), and a branch's cases are checked as nodes of
 * their own, under the compiler's `<branch>-<node>` ids (which the stored closure carries, `connections.ts`). The
 * workflow's failure node is checked as a node, and its bindings against what it runs, its promises finding the
 * workflow's nodes; it is no node of the workflow's graph.
 *
 * Simplified: a launch plan without a closure, or a task or sub-workflow the context does not find (CreateWorkflow
 * looks every one up before), has an interface taken as unknown: a promise of one of its outputs is accepted as it
 * is, and nothing of its is required.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { LaunchPlan } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Variable, VariableSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import {
  type Binding,
  type BindingData,
  BindingDataCollectionSchema,
  BindingDataMapSchema,
  BindingDataSchema,
} from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { TaskTemplate } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { type Node, NodeSchema, type WorkflowTemplate } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import { CompileErrors } from "./compile_errors.ts";
import { END_NODE, START_NODE } from "./connections.ts";
import { goText } from "./go_text.ts";
import { identifierText, idKey } from "./identifiers.ts";
import {
  type CheckedNode,
  type EdgeDirection,
  isNested,
  nestedInterface,
  type NodeChecks,
  type NodeInterface,
  UNKNOWN,
  validateBranchNode,
  type Variables,
} from "./nested_node_checks.ts";
import { areTypesCastable, literalTypeText, scalarLiteralType } from "./type_casting.ts";

/** What the checks look up: every reference resolves here (FlyteAdmin looked them up before compiling). */
export interface CheckContext {
  task(id: Identifier): TaskTemplate | undefined;
  launchPlan(id: Identifier): LaunchPlan | undefined;
  /** A sub-workflow of the request's spec. */
  subWorkflow(id: Identifier): WorkflowTemplate | undefined;
}

/**
 * The nodes of a workflow as the compiler keeps them: the first node of each id, none of the ids of the start and
 * end nodes (the compiler adds those first, and drops a node of an id it already has).
 */
export function uniqueNodes(nodes: readonly Node[]): Node[] {
  const seen = new Set<string>([START_NODE, END_NODE]);
  return nodes.filter((node) => !seen.has(node.id) && seen.add(node.id));
}

/** The most times one sub-workflow is checked again: past it, a reference graph is taken as absurd. */
const MAX_SUB_WORKFLOW_CHECKS = 16;

/** What the checks of one compilation share, as the compiler's in-place compiles share the spec's templates. */
interface SharedChecks {
  /** The sub-workflows a compile has started (which gives one without an interface an empty one), by key. */
  started: Set<string>;
  /** How many times each sub-workflow has been checked. */
  checks: Map<string, number>;
  /** The sub-workflows being checked, the one in hand last: one of them run again is a cycle, not checked again. */
  ancestors: Set<string>;
  /** Each case node's id as the last compile left it (each compile renames a case again, in place). */
  ids: Map<Node, string>;
}

/**
 * Checks `template` and the sub-workflows its nodes run, collecting the compiler's errors. As the compiler does, a
 * workflow's compile remembers only the sub-workflows it compiled without an error: one with errors is compiled
 * again for every node that runs it, and by every workflow that runs it, its cases renamed again each time (in
 * place), so errors at its cases are reported once for each compile (`b-t0`, then `b-b-t0`) and the others once.
 */
export function checkWorkflow(
  template: WorkflowTemplate,
  context: CheckContext,
  errors: CompileErrors,
  shared: SharedChecks = { started: new Set(), checks: new Map(), ancestors: new Set(), ids: new Map() },
): void {
  const check = new WorkflowCheck(template, context, errors, shared);
  check.run();
  check.keepIds();
}

class WorkflowCheck implements NodeChecks {
  /** The workflow's nodes a promise finds: the start and end nodes, then each top-level node as it is added. */
  readonly #nodes = new Map<string, CheckedNode>();
  /** One builder per node message, as the compiler keeps one per node (a case's renamed id stays with it). */
  readonly #builders = new Map<Node, CheckedNode>();
  readonly #edges = new Map<string, Set<string>>();
  readonly #upstream = new Map<string, Set<string>>();
  /** The sub-workflows this workflow's compile compiled without an error: the compiler compiles each no more. */
  readonly #compiled = new Set<string>();

  constructor(
    readonly template: WorkflowTemplate,
    readonly context: CheckContext,
    readonly errors: CompileErrors,
    readonly shared: SharedChecks,
  ) {}

  /** Leaves each node's id as this compile made it, for the next compile of the same template. */
  keepIds(): void {
    for (const [node, checked] of this.#builders) this.shared.ids.set(node, checked.id);
  }

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
    // Each node is added, then checked, in order: a branch's or a gate's promises find only the nodes added before.
    // A dropped node is checked all the same, on its own; its bindings are not.
    for (const node of template.nodes) {
      const checked = this.builder(node);
      if (!this.#nodes.has(node.id)) this.#nodes.set(node.id, checked);
      this.validateNode(checked);
    }
    const nodes = uniqueNodes(template.nodes);
    for (const node of nodes) this.addEdges(this.builder(node), "both");
    // The failure node is no node of the workflow's graph: its promises give it upstream entries only.
    if (template.failureNode) {
      const failure = this.builder(template.failureNode);
      this.validateNode(failure);
      this.addEdges(failure, "upstream");
    }
    for (const node of nodes) {
      if (!this.#upstream.has(node.id)) this.#addEdge(START_NODE, node.id);
      if (!this.#edges.has(node.id)) this.#addEdge(node.id, END_NODE);
    }
    this.validateBindings(this.#nodes.get(END_NODE)!, template.outputs, workflowOutputs, "both");
    this.#validateReachable(nodes);
  }

  builder(node: Node | undefined): CheckedNode {
    if (!node) return { id: "", node: create(NodeSchema) };
    const known = this.#builders.get(node);
    if (known) return known;
    // A case keeps the id an earlier compile of its workflow renamed it to.
    const checked: CheckedNode = { id: this.shared.ids.get(node) ?? node.id, node };
    this.#builders.set(node, checked);
    return checked;
  }

  addEdges(checked: CheckedNode, direction: EdgeDirection): void {
    const node = checked.node!;
    if (checked.unknown) {
      if (direction === "both") { for (const up of node.upstreamNodeIds) this.#addEdge(up, checked.id); }
      for (const from of promisedNodes(node.inputs)) {
        if (this.#nodes.has(from)) this.#addEdge(from, checked.id, direction);
      }
      return;
    }
    // A node whose interface was refused gets no edges, and its bindings are not checked.
    if (!checked.iface) return;
    if (direction === "both") { for (const up of node.upstreamNodeIds) this.#addEdge(up, checked.id); }
    this.validateBindings(checked, node.inputs, checked.iface.inputs, direction);
  }

  #addEdge(from: string, to: string, direction: EdgeDirection = "both"): void {
    const provider = from || START_NODE;
    if (direction === "both") {
      (this.#edges.get(provider) ?? this.#edges.set(provider, new Set()).get(provider)!).add(to);
    }
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

  validateNode(checked: CheckedNode): boolean {
    const node = checked.node!;
    const before = this.errors.collected;
    if (checked.id === "") this.errors.collect("ValueRequired", "<node>", "Value required [Id].");
    if (checked.id === START_NODE || checked.id === END_NODE) return true;
    const iface = this.underlyingInterface(checked);
    if (iface && iface !== UNKNOWN) this.#effectiveOutputs(checked, this.errors);
    const target = node.target;
    if (target.case === "branchNode") validateBranchNode(this, checked);
    else if (target.case === "workflowNode" && target.value.reference.case === "subWorkflowRef") {
      const ref = target.value.reference.value;
      const sub = this.context.subWorkflow(ref);
      const key = idKey(ref);
      const checks = this.shared.checks.get(key) ?? 0;
      if (
        sub && !this.#compiled.has(key) && !this.shared.ancestors.has(key) && checks < MAX_SUB_WORKFLOW_CHECKS
      ) {
        this.shared.started.add(key);
        this.shared.checks.set(key, checks + 1);
        this.shared.ancestors.add(key);
        const before = this.errors.collected;
        checkWorkflow(sub, this.context, this.errors, this.shared);
        this.shared.ancestors.delete(key);
        if (this.errors.collected === before) this.#compiled.add(key);
      }
    }
    return this.errors.collected === before;
  }

  underlyingInterface(checked: CheckedNode): NodeInterface | typeof UNKNOWN | undefined {
    if (checked.iface) return checked.iface;
    if (checked.unknown) return UNKNOWN;
    const before = this.errors.collected;
    const iface = isNested(checked.node) ? nestedInterface(this, checked) : this.#leafInterface(checked);
    if (iface === UNKNOWN) {
      checked.unknown = true;
      return UNKNOWN;
    }
    if (iface) {
      this.#validVariables(checked.id, iface.inputs);
      this.#validVariables(checked.id, iface.outputs);
    }
    if (this.errors.collected > before) return undefined;
    checked.iface = iface;
    return iface;
  }

  /** The interface of a task, workflow or gate node; UNKNOWN where the sandbox cannot tell, undefined on an error. */
  #leafInterface(checked: CheckedNode): NodeInterface | typeof UNKNOWN | undefined {
    const node = checked.node!;
    const target = node.target;
    const variables = (map: { variables: Variables } | undefined) => map?.variables ?? {};
    const valueRequired = (what: string) =>
      void this.errors.collect("ValueRequired", checked.id, `Value required [${what}].`);
    switch (target.case) {
      case "taskNode": {
        if (target.value.reference.case !== "referenceId") return valueRequired("TaskNode.ReferenceId");
        const task = this.context.task(target.value.reference.value);
        if (!task) return UNKNOWN;
        return { inputs: variables(task.interface?.inputs), outputs: variables(task.interface?.outputs) };
      }
      case "workflowNode": {
        const ref = target.value.reference;
        if (ref.case === "launchplanRef") {
          const closure = this.context.launchPlan(ref.value)?.closure;
          if (!closure) return UNKNOWN;
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
          if (!sub) return UNKNOWN;
          // The compiler gives a sub-workflow without an interface an empty one when it compiles it (unless it has
          // no nodes): the node it is compiled for, and any before, find none.
          const compiled = this.shared.started.has(idKey(ref.value)) && sub.nodes.length > 0;
          if (!sub.interface && !compiled) return valueRequired("WorkflowNode.Template.Interface");
          return { inputs: variables(sub.interface?.inputs), outputs: variables(sub.interface?.outputs) };
        }
        // Neither reference: the compiler names both, each a nil identifier as Go prints one.
        return void this.errors.collect(
          "WorkflowReferenceNotFound",
          checked.id,
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
          default:
            this.errors.collect(
              "NoConditionFound",
              checked.id,
              `Can't find any condition in gate node [${checked.id}].`,
            );
            return undefined;
        }
      }
      default:
        return valueRequired("Target");
    }
  }

  /**
   * The node's outputs under their aliases, as a promise of it finds them; an alias of no output is
   * ParameterNotBound, one used twice DuplicateAlias. A node without an interface has none.
   */
  #effectiveOutputs(checked: CheckedNode, errors: CompileErrors): Variables {
    const aliases = checked.node ? aliasesOf(checked.node, errors) : new Map<string, string>();
    const outputs: Variables = {};
    if (!checked.iface) return outputs;
    for (const [name, variable] of Object.entries(checked.iface.outputs)) {
      const alias = aliases.get(name);
      outputs[alias ?? name] = variable;
      aliases.delete(name);
    }
    for (const alias of aliases.values()) {
      errors.collect("ParameterNotBound", checked.id, `Parameter not bound [${alias}].`);
    }
    return outputs;
  }

  validateBindings(
    checked: CheckedNode,
    bindings: readonly Binding[],
    params: Variables | undefined,
    direction: EdgeDirection,
  ): Variables {
    const resolved: Variables = {};
    const provided = new Set<string>();
    for (const binding of bindings) {
      if (params && !Object.hasOwn(params, binding.var)) {
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
        // Without the inputs to check against, the compiler expects a type that is no type (simple NONE).
        const expected = params ? params[binding.var].type ?? create(LiteralTypeSchema) : NO_TYPE;
        const typing: Typing = { check: params !== undefined };
        const ok = this.#validateBinding(
          checked,
          binding.var,
          binding.binding,
          expected,
          this.errors,
          upstream,
          typing,
        );
        if (ok) {
          for (const from of upstream) this.#addEdge(from, checked.id, direction);
          resolved[binding.var] = create(VariableSchema, { type: typing.resolved });
        }
      }
    }
    for (const [name, variable] of Object.entries(params ?? {})) {
      if (!provided.has(name) && !isOptional(variable)) {
        this.errors.collect("ParameterNotBound", checked.id, `Parameter not bound [${name}].`);
      }
    }
    return resolved;
  }

  /** One binding against the type its input expects; true when it adds no error. */
  #validateBinding(
    checked: CheckedNode,
    param: string,
    data: BindingData,
    expected: LiteralType,
    errors: CompileErrors,
    upstream: string[],
    typing: Typing,
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
        if (!this.#validateBinding(checked, param, data, variant, trial, trialUpstream, typing)) continue;
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
          this.#validateBinding(checked, param, item, expectedType.value, errors, upstream, { ...typing });
        }
        break;
      case "map":
        if (expectedType.case !== "mapValueType") {
          mismatchingBindings(goText(BindingDataMapSchema, value.value));
          break;
        }
        for (const item of Object.values(value.value.bindings)) {
          this.#validateBinding(checked, param, item, expectedType.value, errors, upstream, { ...typing });
        }
        break;
      case "promise":
        this.#validatePromise(checked, param, value.value, expected, errors, upstream, typing);
        break;
      case "scalar": {
        const type = scalarLiteralType(value.value);
        typing.resolved = type;
        // The one scalar the compiler cannot type (it names the Go type of the value).
        if (!type && value.value.value.case === "blob") {
          errors.collect("UnrecognizedValue", nodeId, "Unrecognized value [*core.Scalar_Blob].");
        }
        if (type && typing.check && !areTypesCastable(type, expected)) {
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
    typing: Typing,
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
    // The promised node's outputs under its aliases, which are checked again (a node whose interface was refused
    // has none); then the output.
    const before = errors.collected;
    const outputs = this.#effectiveOutputs(up, errors);
    if (errors.collected > before) {
      errors.collect("ParameterNotBound", nodeId, `Parameter not bound [${param}].`);
      return;
    }
    // A node the sandbox does not model: its outputs are taken as they are.
    if (up.unknown) {
      upstream.push(upId);
      return;
    }
    const output = outputs[parsed.name];
    if (!output || !Object.hasOwn(outputs, parsed.name)) {
      errors.collect("VariableNameNotFound", upId, `Variable [${parsed.name}] not found on node [${upId}].`);
      errors.collect("ParameterNotBound", nodeId, `Parameter not bound [${param}].`);
      return;
    }
    // Unchecked, a binding takes the type of the output it promises, as it is.
    typing.resolved = output.type;
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
    if (!typing.check || areTypesCastable(source, expected)) {
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

/** Whether a binding's type is checked, and the type it was found to bind (a scalar's, a promised output's). */
interface Typing {
  check: boolean;
  resolved?: LiteralType;
}

/** The type the compiler expects where it checks no type: an empty simple type, NONE. */
const NO_TYPE = create(LiteralTypeSchema, { type: { case: "simple", value: SimpleType.NONE } });
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

/**
 * What Flyte's workflow compiler checks of the nodes that hold other nodes, and the interfaces it gives them, as
 * `workflow_checks.ts` calls on them:
 *
 * - A branch node's interface: each case's node (the if, each else-if, the else) is renamed `<branch>-<node>` (the
 *   id the stored closure gives it, `connections.ts`) and its own interface made; the outputs every case declares
 *   are the branch's, and a case that declares one of them with another type than the first case is
 *   MismatchingTypes (on the case). Its inputs are what its bindings promise (each binding's promise checked as
 *   any, its type not: an input's type is the output it promises). A branch without an if-else, an if, or an if's
 *   node is ValueRequired; an else-if without a node too. Any error leaves the branch without an interface.
 * - A branch node's cases: a branch without an if is BranchNodeHasNoCondition, as is a case without a condition;
 *   a case without a node BranchNodeIdNotFound; a branch with neither an else node nor an error BranchNodeHasNoDefault.
 *   Each condition's operands are checked: a variable the branch's inputs (or bindings) lack is VariableNameNotFound,
 *   any variable of a branch without an interface ValueRequired, an operand that is neither a primitive nor a
 *   variable (a scalar too) ValueRequired [RightValue.Val], and two operands of different types MismatchingTypes.
 *   Each case's node is then checked as a node of its own; only when nothing of the branch was refused are the case
 *   nodes' bindings checked against what they run, each promise of a node of the workflow (the nodes before the
 *   branch, as the compiler has added them by then).
 * - An array node's interface is its sub-node's, as it is (flytekit writes the sub-node's task with the
 *   collections already); the sub-node's own bindings are not checked, the array node's are, against that interface.
 * - An approval gate's inputs are what its bindings promise, and its outputs the same.
 *
 * @module
 */
import { create, equals } from "@bufbuild/protobuf";
import type { Variable } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import type { Binding } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { ScalarSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { BooleanExpression, Operand } from "../../proto/gen/flyteidl/core/condition_pb.ts";
import { type LiteralType, LiteralTypeSchema } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { Node } from "../../proto/gen/flyteidl/core/workflow_pb.ts";
import type { CompileErrors } from "./compile_errors.ts";
import { literalTypeText, scalarLiteralType } from "./type_casting.ts";

/** Variables by name. */
export type Variables = Record<string, Variable>;

/** A node's interface as the compiler sees it. */
export interface NodeInterface {
  inputs: Variables;
  outputs: Variables;
}

/** The interface of a node the sandbox cannot look into (a launch plan without a closure): taken as it is. */
export const UNKNOWN = "unknown";

/** A node as the compiler builds it: its id (a case's renamed), and its interface once made without an error. */
export interface CheckedNode {
  id: string;
  node?: Node;
  iface?: NodeInterface;
  /** What it runs is not known to the sandbox: its bindings and promises of it are taken as they are. */
  unknown?: boolean;
}

/** Which edges bindings add: both ways (a top-level node's) or only the node's upstream entries (a nested node's). */
export type EdgeDirection = "both" | "upstream";

/** The compiler's checks the nested nodes' own are made of (`workflow_checks.ts`). */
export interface NodeChecks {
  readonly errors: CompileErrors;
  /** The one builder of a node (a fresh one, with no target, for a node that is not there). */
  builder(node: Node | undefined): CheckedNode;
  /** The node's interface (kept once made), UNKNOWN, or undefined when an error was collected making it. */
  underlyingInterface(checked: CheckedNode): NodeInterface | typeof UNKNOWN | undefined;
  /** Checks a node of its own; true when it collects no error. */
  validateNode(checked: CheckedNode): boolean;
  /**
   * Checks bindings against the inputs; without `params`, any input is accepted and its type not checked. Returns
   * the bindings' variables, each typed as what it binds.
   */
  validateBindings(
    checked: CheckedNode,
    bindings: readonly Binding[],
    params: Variables | undefined,
    direction: EdgeDirection,
  ): Variables;
  /** Adds a node's edges and checks its bindings against its interface (nothing for a node without one). */
  addEdges(checked: CheckedNode, direction: EdgeDirection): void;
}

/** Whether the node's interface is made here: a branch, an array node or an approval gate. */
export function isNested(node: Node | undefined): boolean {
  const target = node?.target;
  return target?.case === "branchNode" || target?.case === "arrayNode" ||
    (target?.case === "gateNode" && target.value.condition.case === "approve");
}

/** The interface of a branch, array or approval gate node ({@link isNested}); undefined when refused. */
export function nestedInterface(
  checks: NodeChecks,
  checked: CheckedNode,
): NodeInterface | typeof UNKNOWN | undefined {
  const target = checked.node?.target;
  switch (target?.case) {
    case "branchNode":
      return branchInterface(checks, checked);
    case "arrayNode":
      return checks.underlyingInterface(checks.builder(target.value.node));
    case "gateNode": {
      if (target.value.condition.case !== "approve") return undefined;
      // Approving copies the inputs to the outputs.
      const inputs = checks.validateBindings(checked, checked.node!.inputs, undefined, "upstream");
      return { inputs, outputs: inputs };
    }
    default:
      return undefined;
  }
}

function branchInterface(checks: NodeChecks, branch: CheckedNode): NodeInterface | typeof UNKNOWN | undefined {
  const errors = checks.errors;
  const before = errors.collected;
  const ifElse = branch.node?.target.case === "branchNode" ? branch.node.target.value.ifElse : undefined;
  const valueRequired = (what: string) => void errors.collect("ValueRequired", branch.id, `Value required [${what}].`);
  if (!ifElse) return valueRequired("Branch.IfElse");
  if (!ifElse.case) return valueRequired("Branch.IfElse.Case");
  if (!ifElse.case.thenNode) return valueRequired("Branch.IfElse.Case.ThenNode");
  const cases = [ifElse.case.thenNode];
  for (const other of ifElse.other) {
    if (other.thenNode) cases.push(other.thenNode);
    else valueRequired("IfElse.Case.ThenNode");
  }
  if (ifElse.default.case === "elseNode") cases.push(ifElse.default.value);
  let outputs: Variables | undefined;
  let shared = new Set<string>();
  let unknown = false;
  for (const node of cases) {
    const inner = checks.builder(node);
    inner.id = `${branch.id}-${inner.id}`;
    const iface = checks.underlyingInterface(inner);
    if (iface === UNKNOWN) unknown = true;
    if (!iface || iface === UNKNOWN) continue;
    if (!outputs) {
      outputs = iface.outputs;
      shared = new Set(Object.keys(outputs));
      continue;
    }
    shared = new Set([...shared].filter((name) => Object.hasOwn(iface.outputs, name)));
    for (const name of shared) {
      const first = outputs[name].type ?? create(LiteralTypeSchema);
      const other = iface.outputs[name].type ?? create(LiteralTypeSchema);
      if (!equals(LiteralTypeSchema, first, other)) {
        errors.collect(
          "MismatchingTypes",
          inner.id,
          `Variable [${name}] (type [${literalTypeText(first)}]) doesn't match expected type [${
            literalTypeText(other)
          }].`,
        );
      }
    }
  }
  // The conditions' variables are the branch's inputs: what its bindings promise, whatever their names.
  const inputs = checks.validateBindings(branch, branch.node!.inputs, undefined, "upstream");
  if (errors.collected > before || !outputs) return undefined;
  if (unknown) return UNKNOWN;
  const kept = Object.entries(outputs).filter(([name]) => shared.has(name));
  return { inputs, outputs: Object.fromEntries(kept) };
}

/**
 * Checks a branch's cases: their conditions, each case's node as a node of its own, and, when none of this collects
 * an error, the case nodes' bindings.
 */
export function validateBranchNode(checks: NodeChecks, branch: CheckedNode): void {
  const errors = checks.errors;
  const before = errors.collected;
  const ifElse = branch.node?.target.case === "branchNode" ? branch.node.target.value.ifElse : undefined;
  const blocks = [...(ifElse?.case ? [ifElse.case] : []), ...(ifElse?.other ?? [])];
  if (!ifElse?.case) noCondition(errors, branch.id);
  const inner: CheckedNode[] = [];
  for (const block of blocks) {
    validateExpression(checks, branch, block.condition);
    if (block.thenNode) inner.push(checks.builder(block.thenNode));
    else errors.collect("BranchNodeIdNotFound", branch.id, "BranchNode not assigned");
  }
  if (ifElse?.default.case === "elseNode") inner.push(checks.builder(ifElse.default.value));
  else if (ifElse?.default.case !== "error") {
    errors.collect(
      "BranchNodeHasNoDefault",
      branch.id,
      "Branch Node must have either the else case set or a default error.",
    );
  }
  const valid = inner.filter((node) => checks.validateNode(node));
  if (errors.collected > before) return;
  for (const node of valid) checks.addEdges(node, "upstream");
}

const noCondition = (errors: CompileErrors, id: string) =>
  errors.collect("BranchNodeHasNoCondition", id, "One of the branches on the node doesn't have a condition.");

function validateExpression(checks: NodeChecks, branch: CheckedNode, expr: BooleanExpression | undefined): void {
  const errors = checks.errors;
  if (!expr) return noCondition(errors, branch.id);
  switch (expr.expr.case) {
    case "comparison": {
      // The compiler checks the right operand first, and names it in a mismatch.
      const right = operandType(checks, branch, "RightValue", expr.expr.value.rightValue);
      const left = operandType(checks, branch, "LeftValue", expr.expr.value.leftValue);
      if (right && left && !equals(LiteralTypeSchema, right, left)) {
        errors.collect(
          "MismatchingTypes",
          branch.id,
          `Variable [RightValue] (type [${literalTypeText(right)}]) doesn't match expected type [${
            literalTypeText(left)
          }].`,
        );
      }
      return;
    }
    case "conjunction":
      validateExpression(checks, branch, expr.expr.value.leftExpression);
      validateExpression(checks, branch, expr.expr.value.rightExpression);
      return;
    default:
      errors.collect("ValueRequired", branch.id, "Value required [Expr].");
  }
}

/** An operand's type: a primitive's, or the branch input's it names; undefined when unknown or refused. */
function operandType(
  checks: NodeChecks,
  branch: CheckedNode,
  name: string,
  operand: Operand | undefined,
): LiteralType | undefined {
  const errors = checks.errors;
  const valueRequired = (what: string) => void errors.collect("ValueRequired", branch.id, `Value required [${what}].`);
  const value = operand?.val;
  if (!value) return valueRequired(operand ? `${name}.Val` : name);
  if (value.case === "primitive") {
    return scalarLiteralType(create(ScalarSchema, { value: { case: "primitive", value: value.value } }));
  }
  // A scalar operand is not one the compiler reads: it finds neither a primitive nor a variable.
  if (value.case !== "var" || value.value === "") return valueRequired(`${name}.Val`);
  if (branch.unknown) return undefined;
  if (!branch.iface) return valueRequired(value.value);
  if (Object.hasOwn(branch.iface.inputs, value.value)) return branch.iface.inputs[value.value].type;
  if (branch.node?.inputs.some((binding) => binding.var === value.value)) return undefined;
  errors.collect(
    "VariableNameNotFound",
    branch.id,
    `Variable [${value.value}] not found on node [${branch.id}].`,
  );
  return undefined;
}

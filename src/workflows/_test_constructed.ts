/**
 * Test data: compiled workflow closures built as flyteidl messages, for the node kinds no fixture package holds
 * (nested branches with every kind of condition, else and error cases, launch-plan, gate and array nodes).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import {
  type CompiledWorkflowClosure,
  CompiledWorkflowClosureSchema,
} from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import {
  ComparisonExpression_Operator,
  ConjunctionExpression_LogicalOperator,
} from "../../proto/gen/flyteidl/core/condition_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";

const id = (resourceType: ResourceType, name: string) => ({
  resourceType,
  project: "flytesnacks",
  domain: "development",
  name,
  version: "v1",
});
const taskRef = (name: string) => ({
  case: "taskNode" as const,
  value: { reference: { case: "referenceId" as const, value: id(ResourceType.TASK, name) } },
});
const variable = (name: string) => ({ val: { case: "var" as const, value: name } });
const float = (value: number) => ({
  val: { case: "primitive" as const, value: { value: { case: "floatValue" as const, value } } },
});
const compare = (
  operator: ComparisonExpression_Operator,
  left: ReturnType<typeof variable>,
  right: ReturnType<typeof float>,
) => ({
  expr: { case: "comparison" as const, value: { operator, leftValue: left, rightValue: right } },
});
const and = (left: ReturnType<typeof compare>, right: ReturnType<typeof compare>) => ({
  expr: {
    case: "conjunction" as const,
    value: { operator: ConjunctionExpression_LogicalOperator.AND, leftExpression: left, rightExpression: right },
  },
});
const { GT, LT } = ComparisonExpression_Operator;
const x = variable(".my_input");
const task = (nodeId: string, name: string) => ({
  id: nodeId,
  metadata: { name: `flytekit.core.python_function_task.core.control_flow.run_conditions.${name}` },
  target: taskRef(`core.control_flow.run_conditions.${name}`),
});
const ids = (...list: string[]) => ({ ids: list });

/**
 * A nested branch as Flyte compiles one (`core.control_flow.run_conditions.so_nested`): a branch `fractions`
 * whose first case is another branch `inner_fractions` (with a conjunction case and an error default), a second
 * case and an else node; then a launch-plan node, the three kinds of gate and an array node.
 */
export function everyNodeKind(): CompiledWorkflowClosure {
  return create(CompiledWorkflowClosureSchema, {
    primary: {
      template: {
        id: id(ResourceType.WORKFLOW, "core.control_flow.run_conditions.so_nested"),
        nodes: [
          { id: "start-node" },
          { id: "end-node" },
          {
            id: "n0",
            metadata: { name: "fractions" },
            target: {
              case: "branchNode",
              value: {
                ifElse: {
                  case: {
                    condition: and(compare(GT, x, float(0.1)), compare(LT, x, float(1))),
                    thenNode: {
                      id: "n0-n0",
                      metadata: { name: "inner_fractions" },
                      target: {
                        case: "branchNode",
                        value: {
                          ifElse: {
                            case: { condition: compare(LT, x, float(0.5)), thenNode: task("n0-n0-n0-n0", "double") },
                            other: [{
                              condition: and(compare(GT, x, float(0.5)), compare(LT, x, float(0.7))),
                              thenNode: task("n0-n0-n0-n1", "square"),
                            }],
                            default: {
                              case: "error",
                              value: { failedNodeId: "inner_fractions", message: "Only <0.7 allowed" },
                            },
                          },
                        },
                      },
                    },
                  },
                  other: [{
                    condition: and(compare(GT, x, float(1)), compare(LT, x, float(10))),
                    thenNode: task("n0-n1", "square"),
                  }],
                  default: { case: "elseNode", value: task("n0-n2", "double") },
                },
              },
            },
          },
          {
            id: "n1",
            metadata: { name: "launch_child" },
            target: {
              case: "workflowNode",
              value: { reference: { case: "launchplanRef", value: id(ResourceType.LAUNCH_PLAN, "child_lp") } },
            },
          },
          {
            id: "n2",
            target: { case: "gateNode", value: { condition: { case: "approve", value: { signalId: "ok" } } } },
          },
          {
            id: "n3",
            target: { case: "gateNode", value: { condition: { case: "signal", value: { signalId: "go" } } } },
          },
          {
            id: "n4",
            target: {
              case: "gateNode",
              value: { condition: { case: "sleep", value: { duration: { seconds: 60n } } } },
            },
          },
          { id: "n5", target: { case: "arrayNode", value: { node: task("n5-n0", "square") } } },
        ],
      },
      connections: {
        downstream: {
          "start-node": ids("n0"),
          n0: ids("n1"),
          n1: ids("n2"),
          n2: ids("n3"),
          n3: ids("n4"),
          n4: ids("n5"),
          n5: ids("end-node"),
        },
        upstream: {
          "end-node": ids("n5"),
          n0: ids("start-node"),
          "n0-n0": ids("start-node"),
          "n0-n1": ids("start-node"),
          "n0-n2": ids("start-node"),
          "n0-n0-n0-n0": ids("start-node"),
          "n0-n0-n0-n1": ids("start-node"),
          n1: ids("n0"),
          n2: ids("n1"),
          n3: ids("n2"),
          n4: ids("n3"),
          n5: ids("n4"),
        },
      },
    },
    tasks: ["double", "square"].map((name) => ({
      template: { id: id(ResourceType.TASK, `core.control_flow.run_conditions.${name}`), type: "python-task" },
    })),
  });
}

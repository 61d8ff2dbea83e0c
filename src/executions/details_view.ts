/**
 * How an execution's node tree looks. As text, an indented tree: each node's id, phase, start and duration (and
 * error), its task attempts with type, reason, error and logs, its inputs and outputs, and a parent node's child
 * nodes below it. As JSON or YAML, flytectl's document: an array of `{node_exec, child_nodes, task_execs, inputs,
 * outputs}` (empty ones left out), inputs and outputs as plain values.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { NodeExecutionSchema } from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import { type TaskExecution, TaskExecutionSchema } from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import {
  type ExecutionError,
  NodeExecution_Phase,
  TaskExecution_Phase,
} from "../../proto/gen/flyteidl/core/execution_pb.ts";
import type { LiteralMap } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { formatTimestamp } from "../output/timestamp.ts";
import { durationText } from "./duration_text.ts";
import type { NodeDetails } from "./execution_details.ts";
import { literalMapDisplay } from "./literal_display.ts";
import { printable } from "../output/printable.ts";

/**
 * A node and what is below it as JSON, under flytectl's keys (so its users' scripts read it unchanged):
 * `{node_exec, child_nodes, task_execs, inputs, outputs}`, each left out when empty; the messages as canonical proto3
 * JSON, inputs and outputs as plain values.
 *
 * ```ts
 * import { connect, executionDetails, nodeDetailsJson } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const nodes = await executionDetails(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" });
 * console.log(JSON.stringify(nodes.map(nodeDetailsJson)));
 * ```
 */
export function nodeDetailsJson(node: NodeDetails): JsonValue {
  const json: { [key: string]: JsonValue } = { node_exec: toJson(NodeExecutionSchema, node.nodeExecution) };
  if (node.childNodes.length) json.child_nodes = node.childNodes.map(nodeDetailsJson);
  if (node.taskExecutions.length) json.task_execs = node.taskExecutions.map((t) => toJson(TaskExecutionSchema, t));
  const inputs = literalMapDisplay(node.inputs);
  if (Object.keys(inputs).length) json.inputs = inputs;
  const outputs = literalMapDisplay(node.outputs);
  if (Object.keys(outputs).length) json.outputs = outputs;
  return json;
}

/** `<phase> - started <time> - <duration>`, leaving out what is not known yet. */
function progress(
  phase: string,
  startedAt: Timestamp | undefined,
  duration: { seconds: bigint; nanos: number } | undefined,
) {
  const parts = [phase];
  if (startedAt) parts.push(`started ${formatTimestamp(startedAt)}`);
  if (duration && (duration.seconds !== 0n || duration.nanos !== 0)) parts.push(durationText(duration));
  return parts.join(" - ");
}

/** An error as one line: its code and message. */
function errorLine(error: ExecutionError | undefined): string[] {
  if (!error) return [];
  const message = error.message.replace(/\s*\n\s*/g, " ").trim();
  return [`error: ${error.code ? `${error.code}: ` : ""}${message}`];
}

/** A value as text: a string as it is (an empty one as `""`), anything else as JSON. */
function valueText(value: JsonValue): string {
  return typeof value === "string" && value !== "" ? value : JSON.stringify(value);
}

function literalLines(title: string, map: LiteralMap | undefined): string[] {
  const values = Object.entries(literalMapDisplay(map));
  if (!values.length) return [];
  return [`${title}:`, ...values.map(([name, value]) => `  ${name}: ${valueText(value)}`)];
}

function attemptLines(attempt: TaskExecution): string[] {
  const c = attempt.closure;
  const head = `attempt ${attempt.id?.retryAttempt ?? 0} - ` +
    progress(TaskExecution_Phase[c?.phase ?? 0] ?? "", c?.startedAt, c?.duration) +
    (c?.taskType ? ` - ${c.taskType}` : "");
  const body = [
    ...(c?.reason ? [`reason: ${c.reason}`] : []),
    ...errorLine(c?.outputResult.case === "error" ? c.outputResult.value : undefined),
    ...(c?.logs.length ? ["logs:", ...c.logs.map((log) => `  ${log.name || "log"}: ${log.uri}`)] : []),
  ];
  return [head, ...body.map((line) => `  ${line}`)];
}

function nodeLines(node: NodeDetails): string[] {
  const c = node.nodeExecution.closure;
  const head = `${node.nodeExecution.id?.nodeId ?? ""} - ` +
    progress(NodeExecution_Phase[c?.phase ?? 0] ?? "", c?.startedAt, c?.duration);
  const body = [
    ...errorLine(c?.outputResult.case === "error" ? c.outputResult.value : undefined),
    ...node.taskExecutions.flatMap(attemptLines),
    ...literalLines("inputs", node.inputs),
    ...literalLines("outputs", node.outputs),
    ...node.childNodes.flatMap(nodeLines),
  ];
  return [head, ...body.map((line) => `  ${line}`)];
}

/**
 * The node tree as indented text, one node or attempt per line with its details below it.
 *
 * ```ts
 * import { connect, executionDetails, nodeDetailsText } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const nodes = await executionDetails(flyte.client, { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" });
 * console.log(nodeDetailsText(nodes));
 * ```
 */
export function nodeDetailsText(nodes: readonly NodeDetails[]): string {
  // Every line holds the admin's text (ids, errors, log links, values): shown escaped, so that none drives the
  // terminal or breaks the tree.
  return nodes.flatMap(nodeLines).map((line) => printable(line) + "\n").join("");
}
